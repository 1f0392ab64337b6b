// A Schema Object (https://spec.openapis.org/oas/v3.1.0#schema-object) in a normal form that makes "which instances
// does it accept" comparable: $refs followed, allOf merged into one set of constraints, anyOf/oneOf distributed into
// a disjunction of simple branches, each branch holding one JSON type. Keywords it does not model stay as opaque
// values, so two schemas can still be compared where they agree on them.
import { resolvePointer } from '../load-spec.js';
import { applicatorKeywords } from '../schema-sites.js';
import { carriesMark } from '../read-write-marks.js';
import { pathToPointer, pointerToPath, type JsonPath } from '../source-locator.js';

export type JsonType = 'null' | 'boolean' | 'object' | 'array' | 'number' | 'string' | 'integer';
export const jsonTypes: readonly JsonType[] = ['null', 'boolean', 'object', 'array', 'number', 'string', 'integer'];

export interface Bound {
  value: number;
  exclusive: boolean;
}

export interface Branch {
  /** undefined: any type. Never more than one type once normalized (see splitByType). */
  types: JsonType[] | undefined;
  enum: unknown[] | undefined;
  /**
   * Zalando's `x-extensible-enum`: the values a server knows today, in an open set (clients must expect others). An
   * annotation to what a value may be, but a promise of what a request may send.
   */
  extensibleEnum?: unknown[];
  minimum?: Bound;
  maximum?: Bound;
  counts: Partial<Record<CountKeyword, number>>;
  patterns: string[];
  formats: string[];
  multipleOf: number[];
  uniqueItems: boolean;
  required: Set<string>;
  properties: Map<string, Norm>;
  /** undefined: any value for undeclared keys. */
  additionalProperties: Norm | undefined;
  items: Norm | undefined;
  /** 2020-12 `prefixItems`: position i holds prefixItems[i]; `items` then holds the positions after them. */
  prefixItems: Norm[] | undefined;
  hasDefault: boolean;
  default: unknown;
  /** Keywords this form does not model, with their values as canonical JSON. */
  opaque: Map<string, string>;
  /**
   * The schemas inside the structural keywords among them, normalized, so a change inside one is compared by what it
   * accepts: `contains`, `propertyNames`, `not`, `if`/`then`/`else`, `unevaluated*`, `contentSchema`, and one per key
   * of `dependentSchemas` (`dependentSchemas/KEY`) and `patternProperties` (`patternProperties/PATTERN`). Absent where
   * two allOf parts set the same keyword differently: such a keyword is compared by equality only.
   */
  subschemas: Map<string, Norm>;
  /** Where each keyword (and `required:NAME`) was written in the document, for locations. */
  at: Map<string, JsonPath>;
  /** The schema this branch mostly came from. */
  src: JsonPath;
  /** The anyOf/oneOf choices that led to this branch: `<pointer>/anyOf/<i>`. Pairs branches across versions. */
  /**
   * A recursion point: the schema's own normal form, once its normalization has finished. Where a schema recurs
   * depends on the order its properties are walked in (a spec with its keys reordered put the cut elsewhere and
   * compared a cut with a whole schema: thousands of false changes on Stripe); comparisons follow this instead.
   */
  resolve?: () => Norm | undefined;
  origin: string[];
  /** Titles of the chosen anyOf/oneOf branches, for messages. */
  originTitles: string[];
}

export type CountKeyword = 'minLength' | 'maxLength' | 'minItems' | 'maxItems' | 'minProperties' | 'maxProperties';
const countKeywords: CountKeyword[] = [
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
];

export interface Norm {
  /** Accepts an instance when any branch does; no branches accept nothing (`false`). */
  branches: Branch[];
  at: JsonPath;
  /** Set when the normal form over-approximates (a oneOf whose branches may overlap, too many branches). */
  undecided?: string;
}

// Annotations: they change no accepted instance. (`default` is kept apart: it changes what an omission means.)
const annotations = new Set([
  'title',
  'description',
  'examples',
  'example',
  'deprecated',
  'readOnly',
  'writeOnly',
  '$comment',
  'externalDocs',
  'xml',
  'discriminator',
  '$schema',
  '$id',
  '$anchor',
  '$defs',
  'definitions',
  'contentMediaType',
  'contentEncoding',
]);
const modelled = new Set([
  'type',
  'enum',
  'const',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'pattern',
  'format',
  'multipleOf',
  'uniqueItems',
  'required',
  'properties',
  'additionalProperties',
  'items',
  'prefixItems',
  'allOf',
  'anyOf',
  'oneOf',
  '$ref',
  'default',
  ...countKeywords,
]);

/** The validation keywords of JSON Schema (2020-12, with draft 4–7's spellings) this form does not model. */
const validationKeywords = new Set([
  'not',
  'if',
  'then',
  'else',
  'contains',
  'minContains',
  'maxContains',
  'dependentRequired',
  'dependentSchemas',
  'dependencies',
  'propertyNames',
  'patternProperties',
  'additionalItems',
  'unevaluatedItems',
  'unevaluatedProperties',
  'contentSchema',
  '$dynamicRef',
  '$recursiveRef',
]);

/** Bounds the disjunctive form: past this many branches a schema is judged only by equality. */
export const maxBranches = 64;

export function emptyBranch(src: JsonPath): Branch {
  return {
    types: undefined,
    enum: undefined,
    counts: {},
    patterns: [],
    formats: [],
    multipleOf: [],
    uniqueItems: false,
    required: new Set(),
    properties: new Map(),
    additionalProperties: undefined,
    items: undefined,
    prefixItems: undefined,
    hasDefault: false,
    default: undefined,
    opaque: new Map(),
    subschemas: new Map(),
    at: new Map(),
    src,
    origin: [],
    originTitles: [],
  };
}

export const anything = (at: JsonPath): Norm => ({ branches: [emptyBranch(at)], at });
export const nothing = (at: JsonPath): Norm => ({ branches: [], at });

/** Normalizes schemas of one document, each object once (a document's schemas are a graph, possibly cyclic). */
export class SchemaNormalizer {
  private readonly done = new Map<object, Norm>();
  private readonly active = new Set<object>();
  /** Where each schema was first reached: its component's path when a $ref led there. */
  private readonly home = new Map<object, JsonPath>();

  /**
   * `site`: what a client of that direction sees. A readOnly property is required of responses only, a writeOnly one
   * of requests only (OpenAPI 3.0.3 §4.7.24.1: "the required will take effect on the response only"; taken for 3.1
   * too, as the checks do: src/core/read-write-views.ts): on the other side it is optional, still with its schema for
   * when it is sent. A mark counts on the property's schema, its $ref targets and allOf members (read-write-marks.ts). So a readOnly field made required is no
   * change to requests, nor a writeOnly field removed to responses; a pattern added to a readOnly field still narrows
   * requests that carry it.
   */
  constructor(
    private readonly document: unknown,
    private readonly site?: 'request' | 'response',
  ) {}

  /** Whether a property is one this side does not require (see the constructor). */
  private unseen(property: unknown): boolean {
    if (this.site === undefined) return false;
    return carriesMark(this.document, property, this.site === 'request' ? 'readOnly' : 'writeOnly');
  }

  normalize(schema: unknown, at: JsonPath): Norm {
    if (schema === true || schema === undefined) return anything(at);
    if (schema === false) return nothing(at);
    if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return anything(at);
    const cached = this.done.get(schema);
    if (cached) return cached;
    if (this.active.has(schema)) {
      // A recursive schema: the recursion point is judged by name (the enclosing comparison covers its content).
      const branch = emptyBranch(at);
      // Named by where the schema is (the component a $ref reaches), not where the cut fell: that depends on the
      // order properties are walked in, and a spec with its keys reordered called the two cuts a change.
      branch.opaque.set('$recursive', pathToPointer(this.home.get(schema) ?? at));
      const whole = schema;
      branch.resolve = () => this.done.get(whole);
      return { branches: [branch], at };
    }
    this.active.add(schema);
    if (!this.home.has(schema)) this.home.set(schema, at);
    try {
      const norm = this.build(schema as Record<string, unknown>, at);
      this.done.set(schema, norm);
      return norm;
    } finally {
      this.active.delete(schema);
    }
  }

  private build(schema: Record<string, unknown>, at: JsonPath): Norm {
    const own = this.ownBranch(schema, at);
    let norm: Norm = { branches: own ? [own] : [], at };
    if (typeof schema.$ref === 'string') {
      const targetPath = pointerToPath(schema.$ref);
      const target = resolvePointer(this.document, schema.$ref);
      norm = conjoin(norm, this.normalize(target, targetPath), at);
    }
    if (Array.isArray(schema.allOf)) {
      schema.allOf.forEach((part, index) => {
        norm = conjoin(norm, this.normalize(part, [...at, 'allOf', index]), at);
      });
    }
    for (const keyword of ['anyOf', 'oneOf'] as const) {
      const parts = schema[keyword];
      if (!Array.isArray(parts)) continue;
      const alternatives: Branch[] = [];
      let undecided: string | undefined;
      parts.forEach((part, index) => {
        const path = [...at, keyword, index];
        const choice = this.normalize(part, path);
        undecided ??= choice.undecided;
        const title = branchName(this.document, part) ?? `${keyword}[${index}]`;
        for (const branch of choice.branches) {
          alternatives.push({
            ...branch,
            origin: [...branch.origin, pathToPointer(path)],
            originTitles: [...branch.originTitles, title],
          });
        }
      });
      const union: Norm = { branches: alternatives, at, ...(undecided ? { undecided } : {}) };
      if (
        keyword === 'oneOf' &&
        !pairwiseDisjoint(parts.map((part, index) => this.normalize(part, [...at, keyword, index])))
      ) {
        // "exactly one" equals "at least one" only when no instance matches two branches.
        union.undecided ??= `oneOf at ${pathToPointer(at)} (its branches may overlap)`;
      }
      norm = conjoin(norm, union, at);
    }
    return splitByType(norm);
  }

  /** The branch of a schema's own keywords (no composition); undefined when they contradict (accept nothing). */
  private ownBranch(schema: Record<string, unknown>, at: JsonPath): Branch | undefined {
    const branch = emptyBranch(at);
    const mark = (keyword: string) => branch.at.set(keyword, [...at, keyword]);
    for (const [keyword, value] of Object.entries(schema)) {
      if (annotations.has(keyword) || keyword.startsWith('x-')) continue;
      // A keyword JSON Schema does not define is an annotation (2020-12 section 6.5): a parameter's `in` and `name`
      // where a $ref led to a Parameter Object constrain nothing.
      if (!modelled.has(keyword) && validationKeywords.has(keyword)) {
        branch.opaque.set(keyword, canonical(value));
        mark(keyword);
      }
    }
    if (typeof schema.type === 'string' || Array.isArray(schema.type)) {
      branch.types = (Array.isArray(schema.type) ? schema.type : [schema.type]).filter((t): t is JsonType =>
        jsonTypes.includes(t as JsonType),
      );
      mark('type');
    }
    if (Array.isArray(schema.enum)) {
      branch.enum = [...schema.enum];
      mark('enum');
    }
    if (Array.isArray(schema['x-extensible-enum'])) {
      branch.extensibleEnum = [...(schema['x-extensible-enum'] as unknown[])];
      mark('x-extensible-enum');
    }
    if ('const' in schema) {
      branch.enum = intersectValues(branch.enum, [schema.const]);
      branch.at.set('enum', [...at, 'const']);
    }
    const lower = bound(schema.minimum, schema.exclusiveMinimum, 'lower');
    if (lower) {
      branch.minimum = lower;
      branch.at.set('minimum', [...at, typeof schema.exclusiveMinimum === 'number' ? 'exclusiveMinimum' : 'minimum']);
    }
    const upper = bound(schema.maximum, schema.exclusiveMaximum, 'upper');
    if (upper) {
      branch.maximum = upper;
      branch.at.set('maximum', [...at, typeof schema.exclusiveMaximum === 'number' ? 'exclusiveMaximum' : 'maximum']);
    }
    for (const keyword of countKeywords) {
      if (typeof schema[keyword] === 'number') {
        branch.counts[keyword] = schema[keyword] as number;
        mark(keyword);
      }
    }
    if (typeof schema.pattern === 'string') (branch.patterns = [schema.pattern]), mark('pattern');
    if (typeof schema.format === 'string') (branch.formats = [schema.format]), mark('format');
    if (typeof schema.multipleOf === 'number') (branch.multipleOf = [schema.multipleOf]), mark('multipleOf');
    if (schema.uniqueItems === true) (branch.uniqueItems = true), mark('uniqueItems');
    if ('default' in schema) (branch.hasDefault = true), (branch.default = schema.default), mark('default');
    const properties = (schema.properties ?? {}) as Record<string, unknown>;
    const unseen = new Set(Object.keys(properties).filter((name) => this.unseen(properties[name])));
    if (Array.isArray(schema.required)) {
      schema.required.forEach((name, index) => {
        if (unseen.has(String(name))) return;
        branch.required.add(String(name));
        branch.at.set(`required:${String(name)}`, [...at, 'required', index]);
      });
    }
    if (schema.properties && typeof schema.properties === 'object') {
      for (const [name, property] of Object.entries(schema.properties as Record<string, unknown>)) {
        branch.properties.set(name, this.normalize(property, [...at, 'properties', name]));
      }
    }
    if ('additionalProperties' in schema && schema.additionalProperties !== true) {
      branch.additionalProperties = this.normalize(schema.additionalProperties, [...at, 'additionalProperties']);
      // A property refused because of it is located at `additionalProperties: false`, not at the whole schema.
      mark('additionalProperties');
    }
    if ('items' in schema && schema.items !== true) branch.items = this.normalize(schema.items, [...at, 'items']);
    if (Array.isArray(schema.prefixItems)) {
      branch.prefixItems = schema.prefixItems.map((part, index) => this.normalize(part, [...at, 'prefixItems', index]));
      mark('prefixItems');
    }
    for (const keyword of schemaKeywords) {
      if (keyword in schema) branch.subschemas.set(keyword, this.normalize(schema[keyword], [...at, keyword]));
    }
    for (const keyword of ['dependentSchemas', 'patternProperties'] as const) {
      const map = schema[keyword];
      if (map === null || typeof map !== 'object' || Array.isArray(map)) continue;
      for (const [key, part] of Object.entries(map))
        branch.subschemas.set(`${keyword}/${key}`, this.normalize(part, [...at, keyword, key]));
    }
    if (branch.types?.length === 0 || branch.enum?.length === 0) return undefined;
    return branch;
  }
}

/** Keywords whose value is one schema that this form keeps normalized beside its opaque value (see Branch.subschemas). */
const schemaKeywords = applicatorKeywords;

/**
 * What names an anyOf/oneOf branch across versions: its own title, else the component a `$ref` names (Stripe's
 * `{ $ref: '#/components/schemas/dispute' }`), else that component's title. Only a branch with none of them is known by
 * its position: pairing by position made one branch inserted at the front of Stripe's `balance_transaction.source`
 * compare every branch with its neighbour (4,473 false breaking changes).
 */
function branchName(document: unknown, part: unknown): string | undefined {
  if (part === null || typeof part !== 'object') return undefined;
  const own = part as { title?: unknown; $ref?: unknown };
  if (typeof own.title === 'string') return own.title;
  if (typeof own.$ref !== 'string') return undefined;
  const component = /^#\/components\/schemas\/([^/]+)$/.exec(own.$ref)?.[1];
  if (component !== undefined) return component.replace(/~1/g, '/').replace(/~0/g, '~');
  const target = resolvePointer(document, own.$ref) as { title?: unknown } | undefined;
  return typeof target?.title === 'string' ? target.title : own.$ref;
}

function bound(inclusive: unknown, exclusive: unknown, side: 'lower' | 'upper'): Bound | undefined {
  const candidates: Bound[] = [];
  if (typeof inclusive === 'number') candidates.push({ value: inclusive, exclusive: false });
  if (typeof exclusive === 'number') candidates.push({ value: exclusive, exclusive: true });
  return candidates.reduce<Bound | undefined>(
    (tightest, next) => (tightest ? tighter(tightest, next, side) : next),
    undefined,
  );
}

export function tighter(a: Bound, b: Bound, side: 'lower' | 'upper'): Bound {
  if (a.value === b.value) return a.exclusive ? a : b;
  return side === 'lower' ? (a.value > b.value ? a : b) : a.value < b.value ? a : b;
}

/** allOf of two normal forms: every pair of branches merged, contradictions dropped. */
export function conjoin(left: Norm, right: Norm, at: JsonPath): Norm {
  const undecided = left.undecided ?? right.undecided;
  if (left.branches.length * right.branches.length > maxBranches) {
    const branch = emptyBranch(at);
    branch.opaque.set('$tooManyBranches', pathToPointer(at));
    return {
      branches: [branch],
      at,
      undecided: `the composition at ${pathToPointer(at)} (more than ${maxBranches} combinations)`,
    };
  }
  const branches: Branch[] = [];
  for (const a of left.branches) {
    for (const b of right.branches) {
      const merged = mergeBranches(a, b);
      if (merged) branches.push(merged);
    }
  }
  return { branches, at, ...(undecided ? { undecided } : {}) };
}

function mergeBranches(a: Branch, b: Branch): Branch | undefined {
  const types = a.types === undefined ? b.types : b.types === undefined ? a.types : intersectTypes(a.types, b.types);
  const enumValues = a.enum === undefined ? b.enum : b.enum === undefined ? a.enum : intersectValues(a.enum, b.enum);
  if (types?.length === 0 || enumValues?.length === 0) return undefined;
  const counts: Branch['counts'] = { ...a.counts };
  for (const keyword of countKeywords) {
    const other = b.counts[keyword];
    if (other === undefined) continue;
    const mine = counts[keyword];
    counts[keyword] =
      mine === undefined ? other : keyword.startsWith('min') ? Math.max(mine, other) : Math.min(mine, other);
  }
  const properties = new Map(a.properties);
  for (const [name, schema] of b.properties) {
    const mine = properties.get(name);
    properties.set(
      name,
      mine
        ? conjoin(mine, schema, mine.at)
        : a.additionalProperties
          ? conjoin(a.additionalProperties, schema, schema.at)
          : schema,
    );
  }
  for (const [name, schema] of a.properties) {
    if (!b.properties.has(name) && b.additionalProperties)
      properties.set(name, conjoin(schema, b.additionalProperties, schema.at));
  }
  const both = (x: Norm | undefined, y: Norm | undefined) => (x && y ? conjoin(x, y, x.at) : (x ?? y));
  const minimum = a.minimum && b.minimum ? tighter(a.minimum, b.minimum, 'lower') : (a.minimum ?? b.minimum);
  const maximum = a.maximum && b.maximum ? tighter(a.maximum, b.maximum, 'upper') : (a.maximum ?? b.maximum);
  // The later (more specific) schema's locations win only where the earlier said nothing; a bound or a count is
  // where the one in force is written.
  const at = new Map([...b.at, ...a.at]);
  const from = (keyword: string) => {
    const place = b.at.get(keyword);
    if (place) at.set(keyword, place);
  };
  if (minimum && minimum === b.minimum) from('minimum');
  if (maximum && maximum === b.maximum) from('maximum');
  for (const keyword of countKeywords)
    if (b.counts[keyword] !== a.counts[keyword] && counts[keyword] === b.counts[keyword]) from(keyword);
  return {
    types,
    enum: enumValues,
    ...(a.extensibleEnum || b.extensibleEnum ? { extensibleEnum: a.extensibleEnum ?? b.extensibleEnum } : {}),
    ...(minimum ? { minimum } : {}),
    ...(maximum ? { maximum } : {}),
    counts,
    patterns: unique([...a.patterns, ...b.patterns]),
    formats: unique([...a.formats, ...b.formats]),
    multipleOf: unique([...a.multipleOf, ...b.multipleOf]),
    uniqueItems: a.uniqueItems || b.uniqueItems,
    required: new Set([...a.required, ...b.required]),
    properties,
    additionalProperties: both(a.additionalProperties, b.additionalProperties),
    items: both(a.items, b.items),
    ...(a.prefixItems || b.prefixItems ? { prefixItems: mergePrefixItems(a, b) } : { prefixItems: undefined }),
    ...mergedDefault(a, b),
    ...mergeOpaque(a, b),
    at,
    src: a.src,
    origin: [...a.origin, ...b.origin],
    originTitles: [...a.originTitles, ...b.originTitles],
    ...mergedResolve(a, b),
  };
}

/**
 * allOf parts that each give a default: one value when they agree; when they differ, none of them is the default (a
 * validator collects both as annotations), and taking the first made the order of allOf a change (Microsoft Graph's
 * `@odata.type`: 35 "default changed" on the spec against itself reordered).
 */
function mergedDefault(a: Branch, b: Branch): Pick<Branch, 'hasDefault' | 'default'> {
  if (!a.hasDefault) return { hasDefault: b.hasDefault, default: b.default };
  if (!b.hasDefault || canonical(a.default) === canonical(b.default)) return { hasDefault: true, default: a.default };
  return { hasDefault: false, default: undefined };
}

/**
 * A recursion point merged with another branch stands for its schema with that branch's keywords: `{ $ref, type,
 * description }` beside a cut is still the schema it names (dropped, the cut lost its properties and a spec with its
 * keys reordered, cut elsewhere, showed them "removed"). Built once, so the comparison's memo knows it.
 */
function mergedResolve(a: Branch, b: Branch): Pick<Branch, 'resolve'> {
  const point = a.resolve ? a : b.resolve ? b : undefined;
  if (!point || (a.resolve && b.resolve)) return {};
  const other = point === a ? b : a;
  if (constrainsNothing(other)) return { resolve: point.resolve };
  let merged: Norm | undefined | null = null;
  return {
    resolve: () => {
      if (merged === null) {
        const whole = point.resolve!();
        merged = whole && conjoin(whole, { branches: [other], at: other.src }, whole.at);
      }
      return merged;
    },
  };
}

/** allOf of two tuples: each position holds both sides' schema for it (a side's `items` past its own prefix). */
function mergePrefixItems(a: Branch, b: Branch): Norm[] {
  const length = Math.max(a.prefixItems?.length ?? 0, b.prefixItems?.length ?? 0);
  return Array.from({ length }, (_, index) => {
    const mine = positionSchema(a, index);
    const other = positionSchema(b, index);
    return mine && other ? conjoin(mine, other, mine.at) : (mine ?? other ?? anything(a.src));
  });
}

/** The schema an array's item at `index` must meet; undefined: anything. */
export function positionSchema(branch: Branch, index: number): Norm | undefined {
  return branch.prefixItems?.[index] ?? branch.items;
}

/**
 * The opaque keywords of two allOf parts. One keyword set differently by both is kept as both values, compared by
 * equality only (its sub-schemas dropped): either value alone would claim the merge accepts more than it does.
 */
function mergeOpaque(a: Branch, b: Branch): Pick<Branch, 'opaque' | 'subschemas'> {
  const opaque = new Map([...a.opaque, ...b.opaque]);
  const subschemas = new Map([...a.subschemas, ...b.subschemas]);
  for (const [keyword, value] of a.opaque) {
    const other = b.opaque.get(keyword);
    if (other === undefined || other === value) continue;
    opaque.set(keyword, `[${[value, other].sort().join(',')}]`);
    for (const key of subschemas.keys()) if (key === keyword || key.startsWith(`${keyword}/`)) subschemas.delete(key);
  }
  return { opaque, subschemas };
}

/** A branch that accepts anything (no keyword of its own). */
export function constrainsNothing(branch: Branch): boolean {
  return (
    branch.resolve === undefined &&
    branch.types === undefined &&
    branch.enum === undefined &&
    Object.keys(branch.counts).length === 0 &&
    branch.patterns.length === 0 &&
    branch.formats.length === 0 &&
    branch.multipleOf.length === 0 &&
    !branch.uniqueItems &&
    branch.required.size === 0 &&
    branch.properties.size === 0 &&
    branch.additionalProperties === undefined &&
    branch.items === undefined &&
    branch.prefixItems === undefined &&
    branch.opaque.size === 0
  );
}

function intersectTypes(a: JsonType[], b: JsonType[]): JsonType[] {
  const out = new Set<JsonType>();
  for (const t of a) {
    if (b.includes(t)) out.add(t);
    else if (t === 'number' && b.includes('integer')) out.add('integer');
    else if (t === 'integer' && b.includes('number')) out.add('integer');
  }
  return [...out];
}

function intersectValues(a: unknown[] | undefined, b: unknown[]): unknown[] {
  if (a === undefined) return b;
  const keys = new Set(b.map(canonical));
  return a.filter((value) => keys.has(canonical(value)));
}

/** One branch per JSON type, so a union of types on one side meets a union of branches on the other. */
function splitByType(norm: Norm): Norm {
  const branches: Branch[] = [];
  for (const branch of norm.branches) {
    const types = branch.enum
      ? unique(branch.enum.map(typeOfValue)).filter((t) => branch.types === undefined || typeCovers(branch.types, t))
      : branch.types;
    if (types === undefined || types.length <= 1) {
      if (types?.length === 0) continue;
      // Enum values of another type than the branch's are refused by `type` (`enum: ['a', null]` beside
      // `type: string` accepts "a" only): kept, they made the enum's order matter.
      const values = types && branch.enum?.filter((value) => typeCovers(types, typeOfValue(value)));
      branches.push(types ? { ...branch, types, enum: values } : branch);
      continue;
    }
    for (const type of types) {
      branches.push({
        ...branch,
        types: [type],
        enum: branch.enum?.filter((value) => typeCovers([type], typeOfValue(value))),
      });
    }
  }
  return { ...norm, branches };
}

export function typeCovers(types: readonly JsonType[], type: JsonType): boolean {
  return types.includes(type) || (type === 'integer' && types.includes('number'));
}

export function typeOfValue(value: unknown): JsonType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  if (typeof value === 'object') return 'object';
  return typeof value === 'boolean' ? 'boolean' : 'string';
}

/** A oneOf is exact as an anyOf when no two branches can hold the same instance (different types, or a discriminating const). */
function pairwiseDisjoint(parts: Norm[]): boolean {
  for (let i = 0; i < parts.length; i++) {
    for (let j = i + 1; j < parts.length; j++) {
      for (const a of parts[i]!.branches) for (const b of parts[j]!.branches) if (!disjoint(a, b)) return false;
    }
  }
  return true;
}

function disjoint(a: Branch, b: Branch): boolean {
  if (a.types && b.types && intersectTypes(a.types, b.types).length === 0) return true;
  if (a.enum && b.enum && intersectValues(a.enum, b.enum).length === 0) return true;
  for (const name of a.required) {
    if (!b.required.has(name)) continue;
    const x = a.properties.get(name)?.branches;
    const y = b.properties.get(name)?.branches;
    if (x && y && x.every((p) => y.every((q) => p.enum && q.enum && intersectValues(p.enum, q.enum).length === 0)))
      return true;
  }
  return false;
}

function unique<T>(values: T[]): T[] {
  return [...new Set(values)];
}

/** JSON with sorted keys: equal values, equal strings. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
