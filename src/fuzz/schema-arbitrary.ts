// fast-check arbitraries from the subset of JSON Schema 2020-12 the specs' request schemas use: type (one or a
// list), enum, const, string lengths, number bounds, items, properties/required, anyOf/oneOf, allOf (merged), and
// an empty schema (anything). What it makes is a proposal: the request is kept only if the compiled ajv validators
// accept it (see request-model.ts), so a keyword this misses can cost a discarded case, never a false finding.
import fc from 'fast-check';
import { deref, typesOf } from './request-model.js';

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

export function schemaArbitrary(
  document: unknown,
  raw: unknown,
  options: ArbitraryOptions = {},
  depth = 0,
): fc.Arbitrary<unknown> {
  const schema = (deref(document, raw) ?? {}) as Schema;
  if (depth > 8) return fc.constant(null);
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  const alternatives = (schema.anyOf ?? schema.oneOf) as unknown[] | undefined;
  if (Array.isArray(alternatives))
    return fc.oneof(...alternatives.map((branch) => schemaArbitrary(document, branch, options, depth + 1)));
  if (Array.isArray(schema.allOf)) return schemaArbitrary(document, mergeAll(document, schema), options, depth + 1);
  const types = typesOf(schema);
  if (types.length === 0) return schema.properties ? objectArbitrary(document, schema, options, depth) : anyJson;
  return fc.oneof(...types.map((type) => typed(document, schema, type, options, depth)));
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
): fc.Arbitrary<unknown> {
  switch (type) {
    case 'string': {
      const matching = patternArbitrary(schema.pattern, options.header);
      if (matching) return matching;
      const minLength = Math.min(Math.max(Number(schema.minLength ?? 0), options.nonEmpty ? 1 : 0), maxGeneratedLength);
      const maxLength = Math.max(minLength, Math.min(Number(schema.maxLength ?? Infinity), options.maxString ?? 24));
      if (options.header) return fc.string({ unit: headerChar, minLength, maxLength });
      return fc.oneof(fc.string({ minLength, maxLength }), fc.string({ unit: 'grapheme', minLength, maxLength }));
    }
    case 'integer':
      return fc.integer({
        min: bound(schema.minimum, schema.exclusiveMinimum, 1, -(2 ** 31)),
        max: bound(schema.maximum, schema.exclusiveMaximum, -1, 2 ** 31 - 1),
      });
    case 'number':
      return fc.double({
        noNaN: true,
        noDefaultInfinity: true,
        min: Number(schema.minimum ?? -1e9),
        max: Number(schema.maximum ?? 1e9),
      });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const items = schemaArbitrary(document, schema.items ?? {}, options, depth + 1);
      const minLength = Math.min(Number(schema.minItems ?? 0), maxGeneratedItems);
      return fc.array(items, { minLength, maxLength: Math.max(minLength, Math.min(Number(schema.maxItems ?? 4), 4)) });
    }
    case 'object':
      return objectArbitrary(document, schema, options, depth);
    default:
      return anyJson;
  }
}

function objectArbitrary(
  document: unknown,
  schema: Schema,
  options: ArbitraryOptions,
  depth: number,
): fc.Arbitrary<unknown> {
  const properties = (schema.properties ?? {}) as Record<string, unknown>;
  const required = (schema.required ?? []) as string[];
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, sub] of Object.entries(properties))
    model[name] = schemaArbitrary(document, sub, options, depth + 1);
  // Undeclared properties are never proposed: where the schema allows them they add nothing, and where it
  // refuses them they are the negative phase's job.
  return fc.record(model, { requiredKeys: required.filter((name) => name in model) });
}

/** allOf of object schemas as one: properties and required united (ajv judges the result anyway). */
export function mergeAll(document: unknown, schema: Schema): Schema {
  const merged: Schema = { ...schema };
  delete merged.allOf;
  for (const raw of schema.allOf as unknown[]) {
    const part = deref(document, raw) as Schema;
    const flat = Array.isArray(part.allOf) ? mergeAll(document, part) : part;
    for (const [key, value] of Object.entries(flat)) {
      if (key === 'properties')
        merged.properties = { ...(merged.properties as Schema | undefined), ...(value as Schema) };
      else if (key === 'required')
        merged.required = [...new Set([...((merged.required as string[] | undefined) ?? []), ...(value as string[])])];
      else if (!(key in merged)) merged[key] = value;
    }
  }
  return merged;
}

function bound(inclusive: unknown, exclusive: unknown, step: number, fallback: number): number {
  if (typeof exclusive === 'number') return exclusive + step;
  if (typeof inclusive === 'number') return inclusive;
  return fallback;
}
