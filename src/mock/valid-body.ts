// A body a mock may serve for one response media type: one the spec's own schema accepts. A Media Type Object's
// `example`/`examples` SHOULD match its schema (OpenAPI 3.1 section 4.8.14) but need not, and a generator can miss a
// keyword, so everything here is a proposal: the contract's compiled validator, the one every check uses, judges
// each, and the first it accepts is the answer. Nothing accepted within the bound: undefined, never a guess.
import fc from 'fast-check';
import type { CompiledMediaType, Contract } from '../core/compile-contract.js';
import { deref, typesOf } from '../core/request-model.js';
import { resolvePointer } from '../core/source-locator.js';
import { pathToPointer } from '../core/source-locator.js';
import { mergeAll, schemaArbitrary } from '../fuzz/schema-arbitrary.js';
import { minimalValue } from '../fuzz/values.js';

export interface ValidBodyOptions {
  /** Bodies made elsewhere (Prism's dynamic mode), tried after the examples and before generation. */
  candidates?: readonly unknown[];
  /**
   * A body that failed the schema (the one being replaced): its values stand in, in generated proposals, where the
   * schema names a `format` (Prism's samples of dates, e-mails and uuids are valid ones).
   */
  hint?: unknown;
  /** Seed of the random proposals, so a mock answers the same way each run. */
  seed?: number;
  /** Random proposals tried at most (each also blended with the hint). */
  proposals?: number;
  /** Leave the media type's examples out (Prism's `Prefer: dynamic=true`): generated values only. */
  generatedOnly?: boolean;
}

/** Random proposals tried by default: enough for every schema of the unit table, bounded for any schema. */
export const defaultProposals = 200;

/** Random proposals made at a time. */
const batch = 8;

type Schema = Record<string, unknown>;

/** A value `media`'s schema accepts, or undefined when none was found within the bound (or it has no schema). */
export function validBody(
  contract: Contract,
  media: CompiledMediaType,
  options: ValidBodyOptions = {},
): { value: unknown } | undefined {
  const validate = media.validate;
  if (validate === undefined || media.schemaPath === undefined) return undefined;
  const document = contract.spec.document;
  const accepts = (value: unknown) => {
    const result = contract.check(validate, value);
    return result.errors.length === 0 && result.stoppedAfter === undefined;
  };
  const mediaObject = resolvePointer(document, '#' + pathToPointer(media.schemaPath.slice(0, -1)));
  if (!options.generatedOnly)
    for (const example of examplesOf(document, mediaObject)) if (accepts(example)) return { value: example };
  for (const candidate of options.candidates ?? []) if (accepts(candidate)) return { value: candidate };
  const schema = resolvePointer(document, '#' + pathToPointer(media.schemaPath));
  const hinted = (value: unknown) => blend(document, schema, value, options.hint, 0);
  // The proposal with the refused answer's format values kept first: the answer changes no more than it must.
  const tryOne = (proposal: unknown) => {
    if (options.hint !== undefined) {
      const blended = hinted(proposal);
      if (accepts(blended)) return { value: blended };
    }
    return accepts(proposal) ? { value: proposal } : undefined;
  };
  // Random values first (a mock's answer should look like data), in small batches: most schemas take one.
  const arbitrary = schemaArbitrary(document, schema);
  const total = options.proposals ?? defaultProposals;
  for (let done = 0; done < total; done += batch) {
    const numRuns = Math.min(batch, total - done);
    for (const sample of fc.sample(arbitrary, { numRuns, seed: (options.seed ?? 1) + done })) {
      const found = tryOne(sample);
      if (found) return found;
    }
  }
  // The schema's smallest value last: a bare one, but often valid where random values are not (a long `minItems`).
  return tryOne(minimalValue(document, schema));
}

/** The media type's `example`, then each of its `examples` (Example Objects, `$ref`s followed), in order. */
function examplesOf(document: unknown, mediaObject: unknown): unknown[] {
  if (mediaObject === null || typeof mediaObject !== 'object') return [];
  const found: unknown[] = [];
  const media = mediaObject as Schema;
  if (Object.hasOwn(media, 'example')) found.push(media.example);
  const examples = media.examples;
  if (examples !== null && typeof examples === 'object' && !Array.isArray(examples)) {
    for (const entry of Object.values(examples)) {
      const example = deref(document, entry);
      if (example !== null && typeof example === 'object' && Object.hasOwn(example, 'value'))
        found.push((example as Schema).value);
    }
  }
  return found;
}

/**
 * `generated` with the hint's value wherever the schema names a format and the hint has a string there: generation
 * may not know a format, and the answer being replaced often has a valid value of it. Only a proposal.
 */
function blend(document: unknown, raw: unknown, generated: unknown, hint: unknown, depth: number): unknown {
  if (hint === undefined || depth > 16) return generated;
  const found = deref(document, raw);
  if (found === null || typeof found !== 'object' || Array.isArray(found)) return generated;
  const schema = Array.isArray((found as Schema).allOf) ? mergeAll(document, found as Schema) : (found as Schema);
  const types = typesOf(schema);
  if (typeof schema.format === 'string' && typeof hint === 'string' && (types.length === 0 || types.includes('string')))
    return hint;
  if (Array.isArray(generated)) {
    const items = Array.isArray(hint) ? hint : [];
    return generated.map((item, index) => blend(document, schema.items, item, items[index] ?? items[0], depth + 1));
  }
  if (generated === null || typeof generated !== 'object') return generated;
  const properties = (schema.properties ?? {}) as Schema;
  const from = hint !== null && typeof hint === 'object' ? (hint as Schema) : {};
  const out: Schema = {};
  for (const [key, value] of Object.entries(generated as Schema)) {
    const sub = Object.hasOwn(properties, key) ? properties[key] : undefined;
    const result = sub === undefined ? value : blend(document, sub, value, from[key], depth + 1);
    Object.defineProperty(out, key, { value: result, enumerable: true, writable: true, configurable: true });
  }
  return out;
}
