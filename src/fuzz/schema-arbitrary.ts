// fast-check arbitraries from the subset of JSON Schema 2020-12 the specs' request schemas use: type (one or a
// list), enum, const, string lengths, number bounds, items, properties/required, anyOf/oneOf, allOf (merged), and
// an empty schema (anything). What it makes is a proposal: the request is kept only if the compiled ajv validators
// accept it (see request-model.ts), so a keyword this misses can cost a discarded case, never a false finding.
import fc from 'fast-check';
import { deref, typesOf } from './request-model.js';
import { minimalValue, nulString, unicodeSamples } from './values.js';
import { formatArbitrary, formatSamples, numberFormat } from './format-arbitrary.js';
import { discriminatorTags } from '../core/discriminator.js';
import { setOwn } from '../core/own-key.js';

/** Longest string and longest array any generator builds. A schema's `maxLength: 2147483647` (AWS) or `minLength` of
 * 100 MB is an edge of the spec, not of the API: a value past these bounds is not built (its case is left out), so a
 * run's memory stays bounded whatever the spec declares. */
export const maxGeneratedLength = 65_536;
export const maxGeneratedItems = 256;

export interface ArbitraryOptions {
  /** Strings are header values: printable ASCII, nothing HTTP would trim or refuse. */
  header?: boolean;
  /** Longest string generated (a schema's maxLength lower than this wins). */
  maxString?: number;
  /** Strings have at least one character (a path parameter: an empty segment is another route). */
  nonEmpty?: boolean;
}

type Schema = Record<string, unknown>;

const headerChar = fc.integer({ min: 0x21, max: 0x7e }).map((code) => String.fromCharCode(code));
const anyJson = fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.boolean(), fc.constant(null));

/**
 * About how many values (properties, items, scalars) one generated value may hold. Each object shares its budget
 * among its properties and each array among its items, so the whole value stays near this size: without it, a
 * schema of wide objects nested in arrays (AWS Kafka Connect's) made values of millions of nodes, and one took
 * minutes to generate, deaf to Ctrl-C. Below one node, the schema's smallest value stands in (or null, when even that
 * is big: the validators then drop the case).
 */
export const maxGeneratedNodes = 2000;

export function schemaArbitrary(
  document: unknown,
  raw: unknown,
  options: ArbitraryOptions = {},
  depth = 0,
  budget = maxGeneratedNodes,
): fc.Arbitrary<unknown> {
  const generated = drawnArbitrary(document, raw, options, depth, budget);
  // The spec's own examples of this value, now and then, beside generated ones elsewhere: a business rule that
  // refuses random strings ("flexibleRollout" is a strategy's name) lets a request with the example through, to the
  // code behind it. What an example breaks, the validators refuse, as any proposal.
  const examples = examplesOf(deref(document, raw)).filter(
    (value) =>
      !(options.nonEmpty && value === '') &&
      // A header carries printable ASCII only, as every header value drawn here (headerChar).
      !(options.header && !/^[\x20-\x7e]*$/.test(typeof value === 'string' ? value : (JSON.stringify(value) ?? ''))),
  );
  if (examples.length === 0) return generated;
  return fc.oneof({ arbitrary: generated, weight: 2 }, { arbitrary: fc.constantFrom(...examples), weight: 1 });
}

/** A schema's `examples` (JSON Schema 2020-12 §9.5) and its `example` (OpenAPI 3.1 §4.8.24, deprecated), at most 8. */
export function examplesOf(schema: unknown): unknown[] {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return [];
  const record = schema as Schema;
  const listed = Array.isArray(record.examples) ? record.examples : [];
  const single = Object.hasOwn(record, 'example') && record.example !== undefined ? [record.example] : [];
  return [...listed, ...single].slice(0, 8);
}

function drawnArbitrary(
  document: unknown,
  raw: unknown,
  options: ArbitraryOptions,
  depth: number,
  budget: number,
): fc.Arbitrary<unknown> {
  const found = deref(document, raw);
  // A boolean schema: `false` admits nothing (the validators drop the case), `true` anything.
  if (found === false) return fc.constant(null);
  const schema = (found !== null && typeof found === 'object' && !Array.isArray(found) ? found : {}) as Schema;
  if (depth > 8) return fc.constant(null);
  if (budget < 1) return smallest(document, schema);
  if ('const' in schema) return fc.constant(schema.const);
  // `enum: []` admits no value (JSON Schema 2020-12 §6.1.2): null stands in, the validators refuse it, and the
  // operation is reported as one no valid request could be made for (valid-requests.ts), not as an internal error.
  if (Array.isArray(schema.enum)) return schema.enum.length > 0 ? fc.constantFrom(...schema.enum) : fc.constant(null);
  const alternatives = (schema.anyOf ?? schema.oneOf) as unknown[] | undefined;
  if (Array.isArray(alternatives)) {
    const tagged = branchTagger(schema, alternatives);
    return fc.oneof(
      ...alternatives.map((branch, index) => {
        const arbitrary = schemaArbitrary(document, branch, options, depth + 1, budget);
        return tagged ? arbitrary.map((value) => tagged(value, index)) : arbitrary;
      }),
    );
  }
  if (Array.isArray(schema.allOf))
    return schemaArbitrary(document, mergeAll(document, schema), options, depth + 1, budget);
  const types = typesOf(schema);
  if (types.length === 0) {
    if (schema.properties) return objectArbitrary(document, schema, options, depth, budget);
    // A format with no type constrains strings alone (JSON Schema 2020-12 §7.1): strings of the format.
    return formatArbitrary(schema.format, options.header) ?? anyJson;
  }
  return fc.oneof(...types.map((type) => typed(document, schema, type, options, depth, budget)));
}

/**
 * For a discriminated oneOf/anyOf (the checks judge a value by the branch its discriminator property names,
 * src/core/discriminator.ts): a generated object gets a name of the branch it was made from, unless it has one.
 */
function branchTagger(
  schema: Schema,
  alternatives: unknown[],
): ((value: unknown, index: number) => unknown) | undefined {
  if (alternatives !== (Array.isArray(schema.oneOf) ? schema.oneOf : schema.anyOf)) return undefined;
  const known = discriminatorTags(schema, alternatives);
  if (!known || known.tags.size === 0) return undefined;
  const first = new Map<number, string>();
  for (const [tag, index] of known.tags) if (!first.has(index)) first.set(index, tag);
  return (value, index) => {
    const tag = first.get(index);
    if (tag === undefined || value === null || typeof value !== 'object' || Array.isArray(value)) return value;
    const current = Object.hasOwn(value, known.propertyName)
      ? (value as Record<string, unknown>)[known.propertyName]
      : undefined;
    if (typeof current === 'string' && known.tags.get(current) === index) return value;
    return { ...value, [known.propertyName]: tag };
  };
}

const patternCache = new Map<string, fc.Arbitrary<string> | null>();

/**
 * Strings that match a schema's `pattern` (fast-check's stringMatching, on the pattern as a JavaScript regular
 * expression), or undefined when it cannot make them (a pattern JavaScript does not parse, a feature stringMatching
 * does not support). Lengths are not forced: the validators drop a string of the wrong length, so nothing here loops.
 */
export function patternArbitrary(pattern: unknown, header = false): fc.Arbitrary<string> | undefined {
  if (typeof pattern !== 'string' || pattern.length > 1000) return undefined;
  const key = `${header ? 'h' : 'b'}${pattern}`;
  if (!patternCache.has(key)) {
    let made: fc.Arbitrary<string> | null = null;
    try {
      let regex: RegExp;
      try {
        regex = new RegExp(pattern, 'u');
      } catch {
        regex = new RegExp(pattern);
      }
      const arbitrary = fc.stringMatching(regex, { size: 'xsmall' });
      // A header value must stay printable ASCII: anything else is not what a header can carry.
      made = header ? arbitrary.map((text) => text.replace(/[^\x21-\x7e]/g, 'a')) : arbitrary;
      fc.sample(made, { numRuns: 1, seed: 1 });
    } catch {
      made = null;
    }
    if (patternCache.size > 10_000) patternCache.clear();
    patternCache.set(key, made);
  }
  return patternCache.get(key) ?? undefined;
}

/** One string matching `pattern`, always the same, for the smallest valid request; undefined as patternArbitrary. */
export function patternSample(pattern: unknown): string | undefined {
  const arbitrary = patternArbitrary(pattern);
  if (!arbitrary) return undefined;
  const samples = fc.sample(arbitrary, { numRuns: 20, seed: 1 });
  return (
    [...samples].sort((a, b) => a.length - b.length || (a < b ? -1 : 1)).find((text) => text.length > 0) ?? samples[0]
  );
}

function typed(
  document: unknown,
  schema: Schema,
  type: string,
  options: ArbitraryOptions,
  depth: number,
  budget: number,
): fc.Arbitrary<unknown> {
  switch (type) {
    case 'string': {
      // A pattern wins over a format (the validators drop a value that breaks either); an unknown format, or one
      // of any string (password, binary), draws plain strings.
      const matching = patternArbitrary(schema.pattern, options.header) ?? formatted(schema.format, options);
      if (matching) return matching;
      const minLength = Math.min(Math.max(Number(schema.minLength ?? 0), options.nonEmpty ? 1 : 0), maxGeneratedLength);
      const maxLength = Math.max(minLength, Math.min(Number(schema.maxLength ?? Infinity), options.maxString ?? 24));
      if (options.header) return fc.string({ unit: headerChar, minLength, maxLength });
      // Now and then an edge string (a NUL, characters outside the BMP, a zero-width space) at whatever depth the
      // string sits: a server that breaks on one inside an array item is reached by random requests too.
      const edges = [nulString, ...unicodeSamples].filter(
        (text) => text.length >= minLength && text.length <= maxLength,
      );
      return fc.oneof(
        { arbitrary: fc.string({ minLength, maxLength }), weight: 4 },
        { arbitrary: fc.string({ unit: 'grapheme', minLength, maxLength }), weight: 4 },
        ...(edges.length > 0 ? [{ arbitrary: fc.constantFrom(...edges), weight: 1 }] : []),
      );
    }
    case 'integer':
      return formatIntegers(schema, numberFormat(schema.format) ?? int32);
    case 'number': {
      const range = numberFormat(schema.format);
      if (range?.integer) return formatIntegers(schema, range);
      // A bound alone sets the other one a billion away from it, never across it (fast-check refuses min > max).
      const declaredMin = typeof schema.minimum === 'number' ? schema.minimum : undefined;
      const declaredMax = typeof schema.maximum === 'number' ? schema.maximum : undefined;
      // float: never past float's largest magnitude (OpenAPI 3.1 §4.8.5.1's formats, IEEE 754 binary32).
      const min = Math.max(declaredMin ?? Math.min(-1e9, (declaredMax ?? 0) - 1e9), range?.min ?? -Infinity);
      const max = Math.min(declaredMax ?? Math.max(1e9, min + 1e9), range?.max ?? Infinity);
      if (!Number.isFinite(min) || !Number.isFinite(max) || min > max)
        return fc.constant(Number.isFinite(min) ? min : 0);
      return fc.double({ noNaN: true, noDefaultInfinity: true, min, max });
    }
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const minLength = Math.min(Number(schema.minItems ?? 0), maxGeneratedItems);
      const maxLength = Math.max(minLength, Math.min(Number(schema.maxItems ?? 4), 4));
      // The items every value must have already exceed the budget: no value of this schema is small.
      if (minLength > budget) return smallest(document, schema);
      const items = schemaArbitrary(
        document,
        schema.items ?? {},
        options,
        depth + 1,
        (budget - 1) / Math.max(1, maxLength),
      );
      return fc.array(items, { minLength, maxLength });
    }
    case 'object':
      return objectArbitrary(document, schema, options, depth, budget);
    default:
      return anyJson;
  }
}

function objectArbitrary(
  document: unknown,
  schema: Schema,
  options: ArbitraryOptions,
  depth: number,
  budget: number,
): fc.Arbitrary<unknown> {
  const properties = (schema.properties ?? {}) as Record<string, unknown>;
  const required = (schema.required ?? []) as string[];
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  if (required.length > budget) return smallest(document, schema);
  const share = (budget - 1) / Math.max(1, Object.keys(properties).length);
  // A property whose schema is `false` must be absent: never proposed.
  for (const [name, sub] of Object.entries(properties))
    if (deref(document, sub) !== false) setOwn(model, name, schemaArbitrary(document, sub, options, depth + 1, share));
  // Undeclared properties are never proposed: where the schema allows them they add nothing, and where it
  // refuses them they are the negative phase's job.
  return fc.record(model, { requiredKeys: required.filter((name) => Object.hasOwn(model, name)) });
}

/** Where the budget is spent: the schema's smallest value if it is small, else null (the validators drop the case). */
function smallest(document: unknown, schema: Schema): fc.Arbitrary<unknown> {
  const nodes = { left: 64 };
  const value = minimalValue(document, schema, 0, nodes);
  return fc.constant(nodes.left < 0 ? null : value);
}

/** allOf of object schemas as one: properties and required united (ajv judges the result anyway). */
export function mergeAll(document: unknown, schema: Schema): Schema {
  const merged: Schema = { ...schema };
  delete merged.allOf;
  for (const raw of schema.allOf as unknown[]) {
    const part = (deref(document, raw) ?? {}) as Schema;
    const flat = Array.isArray(part.allOf) ? mergeAll(document, part) : part;
    for (const [key, value] of Object.entries(flat)) {
      if (key === 'properties')
        merged.properties = { ...(merged.properties as Schema | undefined), ...(value as Schema) };
      else if (key === 'required')
        merged.required = [...new Set([...((merged.required as string[] | undefined) ?? []), ...(value as string[])])];
      else if (!Object.hasOwn(merged, key)) setOwn(merged, key, value);
    }
  }
  return merged;
}

/**
 * Integers between two schema bounds, drawn within `limits`: 32 bits, or the safe integers for `format: int64`.
 * fast-check's integer() never returns when a bound lies past 2^53 (AWS's `maximum: 9223372036854775807`, int64's
 * largest, spun one core for ever, deaf to Ctrl-C); other values past 32 bits are the boundaries phase's job (int64
 * edges). Bounds that leave no integer within the limits give their own ends; bounds that leave none at all (minimum
 * above maximum) a value the validators will refuse.
 */
function integerArbitrary(min: number, max: number, limits: Range = int32): fc.Arbitrary<number> {
  const low = Math.ceil(min);
  const high = Math.floor(max);
  if (!Number.isFinite(low) || !Number.isFinite(high) || low > high) return fc.constant(Number.isFinite(low) ? low : 0);
  const from = Math.max(low, limits.min);
  const to = Math.min(high, limits.max);
  if (from <= to) return fc.integer({ min: from, max: to });
  return fc.constantFrom(...new Set([low, high]));
}

interface Range {
  min: number;
  max: number;
}

/** Integers within 32 bits, or within an integer format's range (int64: the safe integers). */
const int32: Range = { min: -(2 ** 31), max: 2 ** 31 - 1 };
function formatIntegers(schema: Schema, limits: Range): fc.Arbitrary<number> {
  return integerArbitrary(
    bound(schema.minimum, schema.exclusiveMinimum, 1, limits.min),
    bound(schema.maximum, schema.exclusiveMaximum, -1, limits.max),
    limits,
  );
}

/** Values of a known string format; a path segment never empty (an empty JSON pointer becomes the root's child). */
function formatted(format: unknown, options: ArbitraryOptions): fc.Arbitrary<string> | undefined {
  const values = formatArbitrary(format, options.header);
  if (!values || !options.nonEmpty) return values;
  const fallback = formatSamples(format).find((sample) => sample !== '') ?? 'a';
  return values.map((value) => (value === '' ? fallback : value));
}

function bound(inclusive: unknown, exclusive: unknown, step: number, fallback: number): number {
  if (typeof exclusive === 'number') return exclusive + step;
  if (typeof inclusive === 'number') return inclusive;
  return fallback;
}
