// anyOf/oneOf branches known by what they are (their title or the component they name), recursion points compared
// by name, and an equivalent rewrite is no change. On Stripe: one branch inserted at the front of
// balance_transaction.source made 4,473 false breaking changes (branches paired by position); its keys reordered,
// 71,055 changes (a recursion cut on one side faced a whole schema on the other). Now: 0 and 0.
import { describe, expect, it } from 'vitest';
import { diffSpecs } from '../../src/core/diff/diff-specs.js';
import { load } from './spec-pairs.js';

type Json = Record<string, unknown>;
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const expandable = (name: string) => ({ anyOf: [{ type: 'string' }, ref(name)] });
const object = (required: string[], properties: Json) => ({ type: 'object', required, properties });

/** Three schemas that refer to each other (as Stripe's expandable fields do), each the answer of one operation. */
function recursive(options: { reversed?: boolean; cRequired?: string[]; sourceBranches?: string[] } = {}) {
  const reverse = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(reverse)
      : value && typeof value === 'object'
        ? Object.fromEntries(
            Object.entries(value as Json)
              .reverse()
              .map(([key, inner]) => [
                key,
                key === 'anyOf' ? [...(inner as unknown[])].reverse().map(reverse) : reverse(inner),
              ]),
          )
        : value;
  const schemas: Json = {
    a: object(['id', 'created'], {
      id: { type: 'string' },
      created: { type: 'integer' },
      b: expandable('b'),
      c: expandable('c'),
    }),
    b: object(['id', 'created'], {
      id: { type: 'string' },
      created: { type: 'integer' },
      a: expandable('a'),
      c: expandable('c'),
    }),
    c: object(options.cRequired ?? ['id', 'created'], {
      id: { type: 'string' },
      created: { type: 'integer' },
      source: { anyOf: (options.sourceBranches ?? ['a', 'b']).map(ref) },
    }),
    fee: object(['id', 'fee'], { id: { type: 'string' }, fee: { type: 'integer' } }),
  };
  const answer = (name: string) => ({
    get: { responses: { '200': { description: 'ok', content: { 'application/json': { schema: ref(name) } } } } },
  });
  const document = {
    openapi: '3.1.0',
    info: { title: 't', version: '1' },
    paths: { '/a': answer('a'), '/b': answer('b'), '/c': answer('c') },
    components: { schemas },
  };
  return JSON.stringify(options.reversed ? reverse(document) : document);
}

const changes = (base: string, head: string) =>
  diffSpecs(load('base.json', base), load('head.json', head)).map((change) => `${change.rule}:${change.level}`);

describe('anyOf branches and recursion points, by name', () => {
  it('finds no change when the keys and the anyOf branches of recursive schemas are reordered', () => {
    expect(changes(recursive(), recursive({ reversed: true }))).toEqual([]);
  });

  it('calls a branch inserted at the front of a response anyOf a new shape, once, by its name', () => {
    const found = diffSpecs(
      load('base.json', recursive()),
      load('head.json', recursive({ sourceBranches: ['fee', 'a', 'b'] })),
    );
    // One change at one place of the spec, however many response bodies reach it (Stripe: 515 entries before).
    expect(found.map((change) => `${change.rule}:${change.level}`)).toEqual(['response-composition-widened:warning']);
    expect(found[0]!.message).toContain('"fee" of the anyOf at /components/schemas/c/properties/source is new');
    expect(found[0]!.operations.length).toBeGreaterThan(1);
  });

  it('still finds a field made optional inside a recursive schema', () => {
    expect(new Set(changes(recursive(), recursive({ reversed: true, cRequired: ['id'] })))).toEqual(
      new Set(['response-property-became-optional:error']),
    );
  });
});
