// Where a value carries a property its schema marks for the other direction. OpenAPI 3.0.3 §4.7.24.1 (Schema Object
// fixed fields, https://spec.openapis.org/oas/v3.0.3#fixed-fields-19): a readOnly property "SHOULD NOT be sent as
// part of the request", a writeOnly one "SHOULD NOT be sent as part of the response". A SHOULD NOT: the checks say it
// as a warning. (3.1 makes both annotations, whose validation is the tool's option: nothing is said there.)
//
// Decided at compile time: a walk exists only for a schema from which a marked property can be reached; the walk
// follows the value where the schema describes it (properties, items, $ref, allOf), so its cost is bounded by the
// value, and by maxSteps whatever the value. Under anyOf/oneOf a property counts as marked only when every branch
// that could describe the object marks it: no warning rests on a branch the value may not have matched.
import { shortened } from './compile-spec.js';
import { carriesMark, markedNames, refTarget, type DirectionMark } from './read-write-marks.js';
import { pathToPointer, pointerToPath, resolvePointer, type JsonPath } from './source-locator.js';

export interface MarkedPresence {
  /** Where in the value the marked property is (a JSON pointer). */
  instancePath: string;
  /** Where in the document the mark is written (a JSON pointer, ending in /readOnly or /writeOnly). */
  schemaPath: string;
}

export type PresenceWalk = (value: unknown) => MarkedPresence[];

type Schema = Record<string, unknown>;
interface Located {
  schema: Schema;
  path: JsonPath;
}

/** Schema-and-value steps one walk takes at most, and presences it reports at most. */
const maxSteps = 100_000;
const maxReported = 100;

const isSchema = (value: unknown): value is Schema =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** The walk for the schema at `schemaPath`, or undefined when no property it describes carries the mark. */
export function presenceWalk(document: unknown, schemaPath: JsonPath, mark: DirectionMark): PresenceWalk | undefined {
  const schema = resolvePointer(document, '#' + pathToPointer(schemaPath));
  if (!isSchema(schema) || !reaches(document, schema, mark, new Map())) return undefined;
  const start: Located = { schema, path: schemaPath };
  return (value) => {
    const found: MarkedPresence[] = [];
    walk({ document, mark, found, steps: maxSteps }, value, [start], '');
    return found;
  };
}

/** Whether a marked property can be reached from the schema through properties, items, $ref and composition. */
function reaches(document: unknown, schema: unknown, mark: DirectionMark, memo: Map<Schema, boolean>): boolean {
  if (!isSchema(schema)) return false;
  const known = memo.get(schema);
  if (known !== undefined) return known;
  // A cycle reaches nothing new through itself.
  memo.set(schema, false);
  const children: unknown[] = [refTarget(document, schema), schema.items];
  for (const keyword of ['allOf', 'anyOf', 'oneOf'])
    if (Array.isArray(schema[keyword])) children.push(...(schema[keyword] as unknown[]));
  const properties = isSchema(schema.properties) ? Object.values(schema.properties) : [];
  const answer =
    properties.some((property) => carriesMark(document, property, mark)) ||
    [...properties, ...children].some((child) => reaches(document, child, mark, memo));
  memo.set(schema, answer);
  return answer;
}

interface Walk {
  document: unknown;
  mark: DirectionMark;
  found: MarkedPresence[];
  steps: number;
}

function walk(state: Walk, value: unknown, schemas: Located[], at: string): void {
  if (schemas.length === 0 || state.found.length >= maxReported || --state.steps < 0) return;
  const kind = Array.isArray(value) ? 'array' : isSchema(value) ? 'object' : undefined;
  if (!kind) return;
  const { parts, alternatives } = flatten(state.document, schemas, kind);
  if (Array.isArray(value)) {
    const items = parts.flatMap((part) => (isSchema(part.schema.items) ? [located(part, 'items')] : []));
    if (items.length > 0) value.forEach((item, index) => walk(state, item, items, `${at}/${index}`));
    return;
  }
  if (!isSchema(value)) return;
  const byName = new Map<string, Located[]>();
  for (const part of parts) {
    if (!isSchema(part.schema.properties)) continue;
    for (const [name, property] of Object.entries(part.schema.properties)) {
      if (!Object.hasOwn(value, name) || !isSchema(property)) continue;
      const list = byName.get(name) ?? [];
      list.push({ schema: property, path: [...part.path, 'properties', name] });
      byName.set(name, list);
    }
  }
  const reported = new Set<string>();
  for (const [name, list] of byName) {
    const marked = list.map((property) => markAt(state, property)).find((path) => path !== undefined);
    if (marked) {
      reported.add(name);
      report(state, `${at}/${escape(name)}`, marked);
    }
    walk(state, value[name], list, `${at}/${escape(name)}`);
  }
  for (const group of alternatives) {
    const [first, ...rest] = group.branches.map((branch) => markedNames(state.document, branch, state.mark));
    for (const name of first!)
      if (!reported.has(name) && Object.hasOwn(value, name) && rest.every((names) => names.has(name))) {
        reported.add(name);
        report(state, `${at}/${escape(name)}`, [...group.path, state.mark]);
      }
  }
}

/**
 * The schemas that describe the value as a whole: theirs, their $ref targets' and their allOf members', and the one
 * anyOf/oneOf branch that admits a value of its kind when only one does (3.0's `nullable` becomes such an anyOf).
 * Groups with more such branches are kept apart: a property counts as marked there only if every branch marks it.
 */
function flatten(document: unknown, schemas: Located[], kind: 'object' | 'array') {
  const parts: Located[] = [];
  const alternatives: { path: JsonPath; branches: unknown[] }[] = [];
  const seen = new Set<Schema>();
  const visit = (entry: Located): void => {
    if (seen.has(entry.schema)) return;
    seen.add(entry.schema);
    parts.push(entry);
    const target = refTarget(document, entry.schema);
    if (target) visit({ schema: target, path: pointerToPath(entry.schema.$ref as string) });
    if (Array.isArray(entry.schema.allOf))
      entry.schema.allOf.forEach((member, index) => {
        if (isSchema(member)) visit({ schema: member, path: [...entry.path, 'allOf', index] });
      });
    for (const keyword of ['anyOf', 'oneOf']) {
      const list = entry.schema[keyword];
      if (!Array.isArray(list)) continue;
      const admitting = [...list.entries()].filter(([, branch]) => couldBe(document, branch, kind));
      if (admitting.length === 1 && isSchema(admitting[0]![1]))
        visit({ schema: admitting[0]![1] as Schema, path: [...entry.path, keyword, admitting[0]![0]] });
      else if (admitting.length > 1)
        alternatives.push({ path: [...entry.path, keyword], branches: admitting.map(([, branch]) => branch) });
    }
  };
  for (const entry of schemas) visit(entry);
  return { parts, alternatives };
}

/** Whether a branch admits a value of this kind at all: one whose `type` excludes it cannot have described it. */
function couldBe(document: unknown, branch: unknown, kind: 'object' | 'array'): boolean {
  const schema = isSchema(branch) ? (refTarget(document, branch) ?? branch) : undefined;
  if (!schema) return branch !== false;
  const type = schema.type;
  if (typeof type === 'string') return type === kind;
  if (Array.isArray(type)) return type.includes(kind);
  return true;
}

/** Where the property's mark is written, or undefined when it carries none. */
function markAt(state: Walk, property: Located): JsonPath | undefined {
  if (!carriesMark(state.document, property.schema, state.mark)) return undefined;
  const seen = new Set<Schema>();
  const find = (entry: Located): JsonPath | undefined => {
    if (seen.has(entry.schema)) return undefined;
    seen.add(entry.schema);
    if (entry.schema[state.mark] === true) return [...entry.path, state.mark];
    const target = refTarget(state.document, entry.schema);
    const viaRef = target && find({ schema: target, path: pointerToPath(entry.schema.$ref as string) });
    if (viaRef) return viaRef;
    const members = Array.isArray(entry.schema.allOf) ? entry.schema.allOf : [];
    for (const [index, member] of members.entries()) {
      const viaMember = isSchema(member) && find({ schema: member, path: [...entry.path, 'allOf', index] });
      if (viaMember) return viaMember;
    }
    return undefined;
  };
  return find(property);
}

function report(state: Walk, instancePath: string, markPath: JsonPath): void {
  if (state.found.length < maxReported)
    state.found.push({ instancePath: shortened(instancePath), schemaPath: pathToPointer(markPath) });
}

function located(part: Located, keyword: string): Located {
  return { schema: part.schema[keyword] as Schema, path: [...part.path, keyword] };
}

function escape(name: string): string {
  return name.replace(/~/g, '~0').replace(/\//g, '~1');
}
