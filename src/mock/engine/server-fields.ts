// What a server adds to a created resource, read from its representation's schema: the id (in the spec's own type,
// format or pattern, drawn by the fuzzer's generator and unique in its collection), readOnly fields (OpenAPI 3.1
// section 4.8.24 via JSON Schema Validation 2020-12 section 9.4: "managed by the owning authority"), timestamps
// (`format: date-time`, RFC 3339) set to now, a readOnly enum at its first value, and required fields the client left out (the schema's default, else a
// value the schema accepts from the documented answer). writeOnly fields are never stored (section 9.4: "never
// present" in what the authority returns).
import fc from 'fast-check';
import { schemaArbitrary } from '../../fuzz/schema-arbitrary.js';
import { resolved } from '../../fuzz/values.js';

type Schema = Record<string, unknown>;

export interface Representation {
  /** The resource schema's top-level properties, resolved. */
  properties: Map<string, Schema>;
  required: Set<string>;
}

export function representationOf(document: unknown, schema: unknown): Representation {
  const top = resolved(document, schema);
  const properties = new Map<string, Schema>();
  const raw = top.properties;
  if (raw && typeof raw === 'object')
    for (const [name, value] of Object.entries(raw as Record<string, unknown>))
      properties.set(name, resolved(document, value));
  return { properties, required: new Set(Array.isArray(top.required) ? top.required.map(String) : []) };
}

/** A new id for the `field` schema, not in `taken`; undefined when none was found in a bounded number of draws. */
export function newId(
  document: unknown,
  schema: Schema | undefined,
  counter: number,
  taken: (id: string) => boolean,
): string | number | undefined {
  const type = schema?.type;
  if (type === 'integer' || type === 'number') {
    const minimum = typeof schema?.minimum === 'number' ? Math.ceil(schema.minimum) : 1;
    for (let next = Math.max(minimum, 1) + counter, tries = 0; tries < 1000; next++, tries++)
      if (!taken(String(next))) return next;
    return undefined;
  }
  if (schema === undefined || (schema.format === 'uuid' && schema.pattern === undefined) || plainString(schema))
    return globalThis.crypto.randomUUID();
  for (let seed = counter; seed < counter + 50; seed++) {
    const drawn = drawnId(document, schema, seed);
    if ((typeof drawn === 'string' && drawn !== '') || typeof drawn === 'number')
      if (!taken(String(drawn))) return drawn;
  }
  return undefined;
}

/**
 * A string id the schema says nothing more of (no pattern, format, enum or const, a length a UUID fits): a UUID, as
 * a server would make one, rather than a random string a client must percent-encode (`日本語`, a NUL) to read back.
 */
function plainString(schema: Schema): boolean {
  if (schema.type !== 'string') return false;
  const { pattern, format, enum: listed, const: fixed, minLength, maxLength } = schema as Record<string, unknown>;
  if (pattern !== undefined || format !== undefined || listed !== undefined || fixed !== undefined) return false;
  return (typeof minLength !== 'number' || minLength <= 36) && (typeof maxLength !== 'number' || maxLength >= 36);
}

/** Ids drawn per fast-check sample: one sample per create was a tenth of a create's time (its runner's set-up). */
const batch = 64;
/** Batches kept per id schema (each collection counts its own seeds, so a few are in use at once). */
const batchesKept = 8;
const batches = new WeakMap<Schema, Map<number, unknown[]>>();

/** The `seed`th id of the schema: the same for the same seed, drawn `batch` at a time. */
function drawnId(document: unknown, schema: Schema, seed: number): unknown {
  let kept = batches.get(schema);
  if (!kept) batches.set(schema, (kept = new Map()));
  const index = Math.floor(seed / batch);
  let drawn = kept.get(index);
  if (!drawn) {
    if (kept.size >= batchesKept) kept.delete(kept.keys().next().value!);
    drawn = fc.sample(arbitraryOf(document, schema), { numRuns: batch, seed: index });
    kept.set(index, drawn);
  }
  return drawn[seed % batch];
}

/**
 * The id schema's generator, built once per schema (the schema objects are the document's, alive as long as it):
 * building it walks the schema, which a create would otherwise do on every request.
 */
const arbitraries = new WeakMap<Schema, fc.Arbitrary<unknown>>();
function arbitraryOf(document: unknown, schema: Schema): fc.Arbitrary<unknown> {
  let arbitrary = arbitraries.get(schema);
  if (!arbitrary) arbitraries.set(schema, (arbitrary = schemaArbitrary(document, schema)));
  return arbitrary;
}

export interface FillOptions {
  representation: Representation;
  /** What the client sent (its writable fields). */
  sent: Record<string, unknown>;
  /** The id field and its value, when the resource has one. */
  id: { field: string; value: unknown } | undefined;
  /** A whole representation the schema accepts (the documented answer): where required values come from. */
  template: Record<string, unknown> | undefined;
  /** The stored representation this one replaces (its server-made fields are kept). */
  before?: Record<string, unknown>;
  now: string;
}

/** The stored representation: the client's writable fields, and the server's. */
export function fillServerFields(options: FillOptions): Record<string, unknown> {
  const { representation, sent, template, before, now } = options;
  const value: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(sent)) {
    const schema = representation.properties.get(name);
    if (schema?.readOnly === true || schema?.writeOnly === true) continue;
    value[name] = field;
  }
  for (const [name, schema] of representation.properties) {
    if (schema.writeOnly === true) {
      delete value[name];
      continue;
    }
    if (schema.readOnly !== true && Object.hasOwn(value, name)) continue;
    if (before && Object.hasOwn(before, name) && schema.readOnly === true) {
      value[name] = before[name];
      if (isTimestamp(schema) && /^(updated|modified)/i.test(name)) value[name] = now;
      continue;
    }
    if (isTimestamp(schema) && (schema.readOnly === true || representation.required.has(name))) value[name] = now;
    else if (Object.hasOwn(schema, 'default')) value[name] = copied(schema.default);
    else if (schema.type === 'boolean' && schema.readOnly === true) value[name] = false;
    // A state the server manages starts at the first value its enum lists (`[available, borrowed]`, `[open, …]`),
    // as specs order them, rather than at whatever a documented example shows.
    else if (schema.readOnly === true && Array.isArray(schema.enum) && schema.enum.length > 0)
      value[name] = copied(schema.enum[0]);
    else if (representation.required.has(name) && template && Object.hasOwn(template, name))
      value[name] = copied(template[name]);
  }
  if (options.id) value[options.id.field] = options.id.value;
  return value;
}

/** A copy the store may own: a primitive is its own copy (structuredClone of one was a create's costliest call). */
function copied(value: unknown): unknown {
  return value !== null && typeof value === 'object' ? structuredClone(value) : value;
}

function isTimestamp(schema: Schema): boolean {
  return schema.format === 'date-time' && (schema.type === 'string' || schema.type === undefined);
}
