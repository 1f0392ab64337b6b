// The document as ajv gets it. ajv registers every `$id` and `$anchor` it finds while walking a schema, under any
// key it does not know too: a `$id` inside an example (Box's description has `example: { $id: "12345", … }`) became
// a schema id, and two such examples crashed the load. Annotations (example, examples, x- extensions) are data that
// ajv never needs: where one holds such a key, ajv's copy has null instead. A `properties` map written as a
// reference (`properties: { $ref: '#/…' }`, as in DigitalOcean's description) is replaced by the map it names, which
// ajv would otherwise read as a property called "$ref". A `nullable` without a `type` is left out (see strayNullable),
// and so is a keyword whose value ajv refuses to compile (see mistyped).
// A discriminated oneOf/anyOf moves under the keyword that picks its branch (see discriminated).
// Everything else is shared with the document, not copied.
import { pathToPointer, resolvePointer, type JsonPath } from './source-locator.js';
import { setOwn } from './own-key.js';
import { discriminatorBranchesKeyword } from './discriminator.js';
import { uriFragment } from './uri-fragment.js';

const idKeys = new Set(['$id', '$anchor', '$dynamicAnchor']);
/** The keyword names ajv accepts (its KEYWORD_NAME): an extension named otherwise (Akeneo's `x-1.7`) is left out. */
export const ajvKeywordName = /^[a-z_$][a-z0-9_$:-]*$/i;

export function ajvDocument<T extends object>(document: T): T {
  const moved = new Set<string>();
  const rewritten = rewrite(document, document, [], moved);
  if (moved.size === 0) return rewritten as T;
  const copy = retarget(rewritten, moved) as T;
  movedIn.set(copy, moved);
  return copy;
}

const movedIn = new WeakMap<object, Moved>();

/** A JSON pointer (`/components/…`) into the document, as it reads in ajvDocument's copy of it. */
export function ajvPointer(forAjv: object, pointer: string): string {
  const moved = movedIn.get(forAjv);
  return moved ? movedRef(`#${pointer}`, moved).slice(1) : pointer;
}

/** Where a discriminated schema's oneOf/anyOf was (`#/…/oneOf`), for the references that point into it. */
type Moved = Set<string>;

function rewrite(root: unknown, value: unknown, at: JsonPath, moved: Moved): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    let changed: unknown[] | undefined;
    value.forEach((item, index) => {
      const next = rewrite(root, item, [...at, index], moved);
      if (next !== item) (changed ??= [...value])[index] = next;
    });
    return changed ?? value;
  }
  let changed: Record<string, unknown> | undefined;
  for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
    let next: unknown = child;
    if (isAnnotation(key, child, at))
      next = key.startsWith('x-') && !ajvKeywordName.test(key) ? undefined : holdsId(child) ? null : child;
    else if (key === 'nullable' && strayNullable(value as Record<string, unknown>, at)) next = undefined;
    else if (mistyped(key, child, value as Record<string, unknown>, at)) next = undefined;
    else if (key === 'properties' && isLocalRef(child))
      next = rewrite(root, followRef(root, child), [...at, key], moved);
    else next = rewrite(root, child, [...at, key], moved);
    if (next === child) continue;
    changed ??= { ...(value as Record<string, unknown>) };
    if (next === undefined) delete changed[key];
    else setOwn(changed, key, next);
  }
  let result = changed ?? (value as Record<string, unknown>);
  if (namesProperties(at)) return result;
  result = emptyEnum(result);
  const moving = discriminated(result);
  if (!moving) return result;
  // A bundled reference names the place as a URI fragment (`%7Bid%7D`, uri-fragment.ts), one of the user's as written.
  moved.add(`#${pathToPointer([...at, moving.combinator])}`);
  moved.add(`#${uriFragment([...at, moving.combinator])}`);
  return moving.schema;
}

/**
 * The document with each local `$ref` into a moved oneOf/anyOf (DigitalOcean's point at `…/anyOf/0/allOf/0`) made to
 * point where it went. Run only when something moved; a reference is looked up once per `/oneOf` or `/anyOf` in it.
 */
function retarget(value: unknown, moved: Moved): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    let changed: unknown[] | undefined;
    value.forEach((item, index) => {
      const next = retarget(item, moved);
      if (next !== item) (changed ??= [...value])[index] = next;
    });
    return changed ?? value;
  }
  let changed: Record<string, unknown> | undefined;
  for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
    const next = key === '$ref' && typeof child === 'string' ? movedRef(child, moved) : retarget(child, moved);
    if (next === child) continue;
    changed ??= { ...(value as Record<string, unknown>) };
    setOwn(changed, key, next);
  }
  return changed ?? value;
}

function movedRef(ref: string, moved: Moved): string {
  // Each moved oneOf/anyOf on the way (nested discriminators move both), looked up in one pass over the reference.
  let out = '';
  let copied = 0;
  for (let at = ref.indexOf('/'); at >= 0; at = ref.indexOf('/', at + 1)) {
    const word = ref.slice(at, at + 6);
    if (word !== '/oneOf' && word !== '/anyOf') continue;
    const end = at + 6;
    if ((end < ref.length && ref[end] !== '/') || !moved.has(ref.slice(0, end))) continue;
    out += `${ref.slice(copied, at)}/${discriminatorBranchesKeyword}`;
    copied = at;
  }
  return copied === 0 ? ref : out + ref.slice(copied);
}

/**
 * A schema with a Discriminator Object beside its oneOf (or anyOf): the branches move under the keyword that picks
 * one by the discriminator's property (discriminator.ts), so a value is judged by the branch it names.
 */
function discriminated(
  schema: Record<string, unknown>,
): { schema: Record<string, unknown>; combinator: string } | undefined {
  const discriminator = schema.discriminator as { propertyName?: unknown } | null | undefined;
  if (discriminator === null || typeof discriminator !== 'object' || typeof discriminator.propertyName !== 'string')
    return undefined;
  const combinator = Array.isArray(schema.oneOf) ? 'oneOf' : Array.isArray(schema.anyOf) ? 'anyOf' : undefined;
  if (combinator === undefined || Object.hasOwn(schema, discriminatorBranchesKeyword)) return undefined;
  const { [combinator]: branches, ...rest } = schema;
  return { schema: { ...rest, [discriminatorBranchesKeyword]: { [combinator]: branches } }, combinator };
}

/**
 * `enum: []` admits no value (JSON Schema 2020-12 §6.1.2: the array "SHOULD have at least one element", so an empty
 * one is allowed, and no instance equals an element of it). ajv refuses to compile it ("enum must have non-empty
 * array"), which ended a whole fuzz run over one schema of Discord's description: ajv's copy says the same with
 * `not: {}` (§10.2.1.4: nothing is valid against it), so only the operations that need such a value go untested.
 */
function emptyEnum(schema: Record<string, unknown>): Record<string, unknown> {
  if (!Array.isArray(schema.enum) || schema.enum.length > 0 || 'in' in schema || 'content' in schema) return schema;
  const { enum: _empty, ...rest } = schema;
  if (!Object.hasOwn(rest, 'not')) return { ...rest, not: {} };
  return { ...rest, allOf: [...(Array.isArray(rest.allOf) ? rest.allOf : []), false] };
}

// `nullable` is no keyword of OpenAPI 3.1 (3.0 documents are upgraded before this), but ajv reads it in every draft
// and refuses to compile a schema with `nullable` and no `type` (`{ $ref, nullable: true }` in Codat's 3.1
// descriptions ended fuzz). Beside a `type`, ajv's reading (the type or null) is kept: it can only accept more.
function strayNullable(schema: Record<string, unknown>, at: JsonPath): boolean {
  return !namesProperties(at) && schema.type === undefined;
}

const isNumber = (value: unknown) => typeof value === 'number';
/**
 * Keywords whose value ajv checks for a type before it compiles anything (its `schemaType`). A value of another type
 * (api.video's `pattern: 0`, a 3.0-style `required: true` on a property) made every compile of that schema throw and
 * ended fuzz; ajv's copy leaves such a keyword out, as it constrains nothing it can read. Lint still reports it
 * (contracts-schema-valid checks the schema as written).
 */
const keywordTypes: Record<string, (value: unknown) => boolean> = {
  pattern: (value) => typeof value === 'string',
  format: (value) => typeof value === 'string',
  required: (value) => Array.isArray(value) && value.every((name) => typeof name === 'string'),
  enum: Array.isArray,
  uniqueItems: (value) => typeof value === 'boolean',
  ...Object.fromEntries(
    [
      'minLength',
      'maxLength',
      'minItems',
      'maxItems',
      'minProperties',
      'maxProperties',
      'minimum',
      'maximum',
      'exclusiveMinimum',
      'exclusiveMaximum',
      'multipleOf',
    ].map((keyword) => [keyword, isNumber]),
  ),
};

/**
 * A keyword of a schema whose value ajv would refuse to compile. Parameter, header and request body objects (with
 * `in`, `schema` or `content`) carry a boolean `required` of their own: those are not schemas.
 */
function mistyped(key: string, child: unknown, parent: Record<string, unknown>, at: JsonPath): boolean {
  const fits = Object.hasOwn(keywordTypes, key) ? keywordTypes[key] : undefined;
  if (!fits || fits(child) || namesProperties(at)) return false;
  return !('in' in parent || 'schema' in parent || 'content' in parent);
}

/**
 * Maps whose keys are names, not keywords: a schema's properties and definitions, and the OpenAPI maps of components
 * (Vonage's description names parameters `pattern` and `format`: read as keywords, ajv's copy lost them, and every
 * `$ref` to them failed to compile), paths, responses, headers, media types and encodings.
 */
const nameMaps = new Set([
  'properties',
  'patternProperties',
  '$defs',
  'definitions',
  'dependentSchemas',
  'schemas',
  'parameters',
  'responses',
  'headers',
  'requestBodies',
  'securitySchemes',
  'links',
  'callbacks',
  'pathItems',
  'paths',
  'webhooks',
  'content',
  'encoding',
  'variables',
  'mapping',
]);

/** Whether the object at `at` is a map of names (see nameMaps), whose keys are names, not keywords. */
const namesProperties = (at: JsonPath) => nameMaps.has(String(at[at.length - 1]));

// enum, const and default are skipped by ajv's walk; example, examples and extensions are not.
function isAnnotation(key: string, child: unknown, at: JsonPath): boolean {
  if (namesProperties(at)) return false;
  return (
    key === 'example' || (key === 'examples' && child !== null && typeof child === 'object') || key.startsWith('x-')
  );
}

function holdsId(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some(holdsId);
  return Object.entries(value).some(([key, child]) => idKeys.has(key) || holdsId(child));
}

function isLocalRef(value: unknown): value is { $ref: string } {
  return (
    value !== null &&
    typeof value === 'object' &&
    typeof (value as { $ref?: unknown }).$ref === 'string' &&
    (value as { $ref: string }).$ref.startsWith('#')
  );
}

/** What a local reference names, through a chain of references (at most 32), or the reference when it dangles. */
function followRef(root: unknown, ref: { $ref: string }): unknown {
  let current: unknown = ref;
  for (let hops = 0; hops < 32 && isLocalRef(current); hops++) {
    const node = resolvePointer(root, current.$ref);
    if (node === undefined) return ref;
    current = node;
  }
  return current;
}
