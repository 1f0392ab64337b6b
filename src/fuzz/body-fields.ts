// The fields of a request body a case varies one at a time: every property of its objects and the first item of
// its arrays, nested to a bound, each with the way down to it. An edge value reaches a field inside an array item as
// surely as a top-level one: the Unleash server died on a NUL inside an array item of an export body, a value the
// run had only ever put in top-level fields. Placing a value there fills what the way down needs with the smallest
// valid values (minimalValue), so the rest of the body stays valid and the case varies that one field.
import { isPlainObject } from './fuzz-case.js';
import { deref, typesOf } from './request-model.js';
import { minimalValue, resolved } from './values.js';
import { ownValue, setOwn } from '../core/own-key.js';

/** One step down: a property of an object, or the first item of an array; `schema` is the value's there. */
export interface Step {
  key: string;
  item: boolean;
  schema: unknown;
}

export interface BodyField {
  /** A JSON pointer into the body (RFC 6901), an array's first item as `/0`. */
  pointer: string;
  schema: unknown;
  /** The property is required by its object (an array item is never "missing"). */
  required: boolean;
  steps: readonly Step[];
}

/** How deep the fields go (properties and array items), and how many a body has at most: bounded on any spec. */
export const maxFieldDepth = 5;
export const maxBodyFields = 128;

/** Every field of the body schema, depth first (a field, then the fields inside it), within the bounds above. */
export function bodyFields(document: unknown, raw: unknown): BodyField[] {
  const fields: BodyField[] = [];
  walk(document, raw, [], fields);
  return fields;
}

function walk(document: unknown, raw: unknown, steps: Step[], fields: BodyField[]): void {
  if (steps.length >= maxFieldDepth) return;
  const schema = resolved(document, raw);
  const properties = (schema.properties ?? {}) as Record<string, unknown>;
  const required = (schema.required ?? []) as string[];
  for (const [name, sub] of Object.entries(properties)) {
    if (fields.length >= maxBodyFields) return;
    // A property whose schema is `false` must be absent: no value of it is valid.
    if (deref(document, sub) === false) continue;
    const down = [...steps, { key: name, item: false, schema: sub }];
    fields.push({ pointer: pointerOf(down), schema: sub, required: required.includes(name), steps: down });
    walk(document, sub, down, fields);
  }
  // The items of an array: the first item's value and, inside it, its fields. An array whose values are anything
  // but arrays (`type: [string, array]`) is still reached this way; the validators judge the whole body.
  if (schema.items !== undefined && (typesOf(schema).includes('array') || typesOf(schema).length === 0)) {
    if (fields.length >= maxBodyFields || deref(document, schema.items) === false) return;
    const down = [...steps, { key: '0', item: true, schema: schema.items }];
    fields.push({ pointer: pointerOf(down), schema: schema.items, required: false, steps: down });
    walk(document, schema.items, down, fields);
  }
}

const pointerOf = (steps: readonly Step[]) =>
  steps.map((step) => `/${step.key.replaceAll('~', '~0').replaceAll('/', '~1')}`).join('');

/** A copy of `root` with `value` at the field; what the way down lacks is filled with its smallest valid value. */
export function setField(document: unknown, root: unknown, steps: readonly Step[], value: unknown): unknown {
  return place(document, structuredClone(root), steps, 0, value);
}

function place(document: unknown, node: unknown, steps: readonly Step[], index: number, value: unknown): unknown {
  if (index === steps.length) return value;
  const step = steps[index]!;
  if (step.item) {
    const list = Array.isArray(node) ? [...node] : [];
    const current = list.length > 0 ? list[0] : minimalValue(document, step.schema);
    list[0] = place(document, current, steps, index + 1, value);
    return list;
  }
  const object = isPlainObject(node) ? { ...node } : {};
  const existing = ownValue(object, step.key);
  const current = existing === undefined && index + 1 < steps.length ? minimalValue(document, step.schema) : existing;
  setOwn(object, step.key, place(document, current, steps, index + 1, value));
  return object;
}

/** The value at the field, or undefined when the body has none there. */
export function fieldValue(root: unknown, steps: readonly Step[]): unknown {
  let node = root;
  for (const step of steps) {
    if (step.item) node = Array.isArray(node) ? node[0] : undefined;
    else node = isPlainObject(node) ? ownValue(node, step.key) : undefined;
  }
  return node;
}

/** A copy of `root` without the field (a property; an array item is left as it is). */
export function withoutField(root: unknown, steps: readonly Step[]): unknown {
  const copy = structuredClone(root);
  const parent = fieldValue(copy, steps.slice(0, -1));
  const last = steps.at(-1);
  if (last && !last.item && isPlainObject(parent)) delete parent[last.key];
  return copy;
}
