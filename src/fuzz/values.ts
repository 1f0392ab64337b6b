// Values drawn from one schema, without randomness: the smallest valid one, the edges worth trying, and the ways
// to break it by exactly one keyword. Which of them the spec allows is decided by the validators, not here.
import { maxGeneratedItems, maxGeneratedLength, mergeAll, patternSample } from './schema-arbitrary.js';
import { deref, typesOf } from './request-model.js';
import { formatBreaks, formatSamples } from './format-arbitrary.js';
import { patternEdges } from './pattern-edges.js';

type Schema = Record<string, unknown>;

const buildable = (length: number) => Number.isFinite(length) && length >= 0 && length <= maxGeneratedLength;
const clampLength = (length: unknown, fallback: number) => {
  const n = Number(length ?? fallback);
  return Number.isFinite(n) ? Math.min(Math.max(n, 0), maxGeneratedLength) : fallback;
};

export function resolved(document: unknown, raw: unknown): Schema {
  const found = deref(document, raw);
  // A boolean schema in its object form: `false` admits nothing (a property that must be absent), `true` anything.
  if (found === false) return { not: {} };
  if (found === null || typeof found !== 'object' || Array.isArray(found)) return {};
  const schema = found as Schema;
  return Array.isArray(schema.allOf) ? mergeAll(document, schema) : schema;
}

/** The smallest value the schema is meant to accept: required fields only, first enum value, shortest string. */
/** Most nodes a smallest value may hold (see minimalValue). */
export const maxMinimalNodes = 10_000;

export function minimalValue(
  document: unknown,
  raw: unknown,
  depth = 0,
  nodes: { left: number } = { left: maxMinimalNodes },
): unknown {
  // A schema whose every value is huge (wide objects of required arrays with minItems, nested) would make a huge
  // smallest value, in time to match: past the bound, null stands in, and the validators refuse the request.
  if (--nodes.left < 0) return null;
  const schema = resolved(document, raw);
  if ('const' in schema) return schema.const;
  // `enum: []` admits no value: null stands in, for the validators to refuse (see schemaArbitrary).
  if (Array.isArray(schema.enum)) return schema.enum.length > 0 ? schema.enum[0] : null;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  const alternatives = (schema.anyOf ?? schema.oneOf) as unknown[] | undefined;
  if (Array.isArray(alternatives)) return minimalValue(document, alternatives[0], depth + 1, nodes);
  const type = typesOf(schema)[0] ?? (schema.properties ? 'object' : 'string');
  switch (type) {
    case 'string':
      return (
        patternSample(schema.pattern) ??
        formatSample(schema) ??
        'a'.repeat(Math.max(1, clampLength(schema.minLength, 1)))
      );
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number'
        ? schema.minimum
        : typeof schema.maximum === 'number' && schema.maximum < 1
          ? schema.maximum
          : 1;
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'array':
      return Array.from({ length: Math.min(clampLength(schema.minItems, 0), maxGeneratedItems) }, () =>
        minimalValue(document, schema.items ?? {}, depth + 1, nodes),
      );
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, unknown>;
      const required = (schema.required ?? []) as string[];
      return depth > 8
        ? {}
        : Object.fromEntries(
            required
              .filter((name) => Object.hasOwn(properties, name))
              .map((name) => [name, minimalValue(document, properties[name], depth + 1, nodes)]),
          );
    }
    default:
      return null;
  }
}

const printableAscii = /^[\x21-\x7e]*$/;
/** A NUL inside a string: PostgreSQL refuses it in text, and a server that passes it on answers 500 or dies. */
export const nulString = 'a\u0000b';
export const unicodeSamples = ['é', '日本語', '😀', 'Ω≈ç√', '\u200b', '\ud83d\ude00\u0301'];
const headerSamples = ['a b', '*/*', '"', '%00', ';;'];
const int64Edges = [2 ** 31 - 1, 2 ** 31, -(2 ** 31) - 1, Number.MAX_SAFE_INTEGER, -(2 ** 63), 2 ** 63 - 1];
/**
 * Whether a number goes on the wire as the integer it is: past 2^53 a JavaScript number is written rounded
 * (-(2 ** 63) as "-9223372036854776000", 2 ** 63 - 1 as 2 ** 63), a decimal outside int64 that a server rightly
 * refuses while our validators, reading it back as the same double, would call it valid.
 */
const writtenExactly = (value: number) => Number.isSafeInteger(value) || BigInt(String(value)) === BigInt(value);

/**
 * Edge values of one schema: each enum value, lengths and bounds and ±1, int64 edges, empty, unicode, very long.
 * What the schema declares comes first (its enum, examples, lengths and bounds ±1), then the edges any value of its
 * type has: a --max-examples budget cuts the list from the end, so it cuts the generic edges, not the declared ones.
 */
export function boundaryValues(document: unknown, raw: unknown, header = false): unknown[] {
  const schema = resolved(document, raw);
  const declared: unknown[] = [];
  const generic: unknown[] = [];
  if ('const' in schema) declared.push(schema.const);
  if (Array.isArray(schema.enum)) declared.push(...(schema.enum as unknown[]));
  if (Array.isArray(schema.examples)) declared.push(...(schema.examples as unknown[]));
  const alternatives = (schema.anyOf ?? schema.oneOf) as unknown[] | undefined;
  if (Array.isArray(alternatives))
    for (const branch of alternatives) declared.push(...boundaryValues(document, branch, header));
  for (const type of typesOf(schema)) {
    if (type === 'string') {
      const min = Number(schema.minLength ?? 0);
      const max = typeof schema.maxLength === 'number' ? schema.maxLength : undefined;
      const matching = patternSample(schema.pattern);
      // The pattern's quantifier edges (pattern-edges.ts): `{3,8}` gives lengths 3 and 8, and 2 and 9 to refuse.
      if (matching !== undefined) declared.push(matching, ...patternEdges(schema.pattern));
      // A format's plain value and its edges (a leap day, an IPv6 with an IPv4 tail); a pattern wins over them. A
      // header carries printable ASCII only: `bücher.de` is an idn-hostname's edge, not a header's.
      else declared.push(...formatSamples(schema.format).filter((sample) => !header || printableAscii.test(sample)));
      if (min > 0 && buildable(min)) declared.push('a'.repeat(min), 'a'.repeat(min - 1));
      if (max !== undefined && buildable(max + 1)) declared.push('a'.repeat(max), 'a'.repeat(max + 1));
      // Empty, a NUL and very long first: the edges that break servers most often.
      if (header) generic.push('', 'x'.repeat(256), ...headerSamples, 'a');
      else generic.push('', nulString, 'x'.repeat(4096), ...unicodeSamples, 'a');
    } else if (type === 'integer' || type === 'number') {
      for (const key of ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum']) {
        if (typeof schema[key] === 'number')
          declared.push(schema[key], (schema[key] as number) - 1, (schema[key] as number) + 1);
      }
      // For format int64 only the edges written exactly: the others are not the int64 values they stand for.
      generic.push(0, 1, -1, ...(schema.format === 'int64' ? int64Edges.filter(writtenExactly) : int64Edges));
      if (type === 'number') generic.push(0.5, -0.5, 1e308);
    } else if (type === 'boolean') {
      generic.push(true, false);
    } else if (type === 'null') {
      generic.push(null);
    } else if (type === 'array') {
      // The items' own edges are the edges of the body field inside it (body-fields.ts), at any depth.
      const item = minimalValue(document, schema.items ?? {});
      generic.push([], [item], [item, item]);
    } else if (type === 'object') {
      generic.push({});
    }
  }
  const values = [...declared, ...generic];
  return dedupe(values);
}

export interface Mutation {
  note: string;
  value: unknown;
}

/** One value per keyword of the schema, each breaking only that keyword (type, enum, length, bounds). */
export function breakingValues(document: unknown, raw: unknown, wire: boolean): Mutation[] {
  const schema = resolved(document, raw);
  const types = typesOf(schema);
  const out: Mutation[] = [];
  if (Array.isArray(schema.enum)) {
    const first = String(schema.enum[0]);
    out.push({
      note: 'a value outside the enum',
      value: /^\d+(\.\d+)?$/.test(first) ? String((Number(first) * 10 - 1) / 10) : `${first}x`,
    });
  }
  // A string the pattern refuses (if it takes this one too, the validators say so and the case is not sent).
  if (typeof schema.pattern === 'string' && types.includes('string'))
    out.push({ note: `not matching the pattern ${schema.pattern.slice(0, 60)}`, value: '!~' });
  // Each format's invalid values, for the formats the validators check (format-arbitrary.ts).
  out.push(...formatBreaks(schema.format, types));
  if (typeof schema.maxLength === 'number' && buildable(schema.maxLength + 1))
    out.push({ note: `longer than maxLength ${schema.maxLength}`, value: 'a'.repeat(schema.maxLength + 1) });
  if (typeof schema.minLength === 'number' && schema.minLength > 0 && buildable(schema.minLength))
    out.push({ note: `shorter than minLength ${schema.minLength}`, value: 'a'.repeat(schema.minLength - 1) });
  if (typeof schema.maximum === 'number')
    out.push({ note: `over maximum ${schema.maximum}`, value: schema.maximum + 1 });
  if (typeof schema.minimum === 'number')
    out.push({ note: `under minimum ${schema.minimum}`, value: schema.minimum - 1 });
  if (types.length > 0) {
    // On the wire every parameter is text: only a type that text cannot take can be broken there.
    if (wire) {
      if (types.includes('integer') || types.includes('number')) out.push({ note: 'not a number', value: 'abc' });
      if (types.includes('integer') && !types.includes('number')) out.push({ note: 'not an integer', value: '1.5' });
      if (types.includes('boolean')) out.push({ note: 'not a boolean', value: 'yes' });
    } else {
      const wrong = types.includes('string')
        ? 123
        : types.includes('array') || types.includes('object')
          ? 'text'
          : 'text';
      out.push({ note: `wrong type (${typeof wrong} for ${types.join('|')})`, value: wrong });
      if (types.includes('array') && schema.items) {
        const item = resolved(document, schema.items);
        if (typesOf(item).includes('string')) out.push({ note: 'an item of the wrong type', value: [1] });
      }
    }
  }
  return out;
}

/** The plainest sample of the schema's format that its lengths allow, if it has a format with samples. */
function formatSample(schema: Schema): string | undefined {
  const min = Number(schema.minLength ?? 0);
  const max = Number(schema.maxLength ?? Number.POSITIVE_INFINITY);
  return formatSamples(schema.format).find((sample) => sample.length >= min && sample.length <= max);
}

function dedupe(values: unknown[]): unknown[] {
  const seen = new Set<string>();
  return values.filter((value) => {
    const key = JSON.stringify(value) ?? 'undefined';
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
