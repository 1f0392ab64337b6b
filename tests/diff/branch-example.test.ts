// The evidence a composition verdict shows: a small instance of one branch of a normalized schema, each kind of
// branch with the value it gives, and on generated simple schemas a value the validators accept whenever one is given.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createAjv } from '../../src/core/create-ajv.js';
import { exampleOfBranch } from '../../src/core/diff/branch-example.js';
import { SchemaNormalizer } from '../../src/core/diff/schema-branches.js';

const example = (schema: unknown) => {
  const norm = new SchemaNormalizer({ schema }).normalize(schema, ['schema']);
  return norm.branches.map((branch) => exampleOfBranch(branch));
};

describe('exampleOfBranch', () => {
  it.each([
    ['null', { type: 'null' }, [null]],
    ['a boolean', { type: 'boolean' }, [false]],
    ['an enum: its first value', { enum: ['b', 'a'] }, ['b']],
    ['an integer', { type: 'integer' }, [0]],
    ['an integer at least 3', { type: 'integer', minimum: 3 }, [3]],
    ['an integer over 3', { type: 'integer', exclusiveMinimum: 3 }, [4]],
    ['a number over 3', { type: 'number', exclusiveMinimum: 3 }, [3.5]],
    ['an integer at most -2', { type: 'integer', maximum: -2 }, [-2]],
    ['an integer under -2', { type: 'integer', exclusiveMaximum: -2 }, [-3]],
    ['a number under 0', { type: 'number', exclusiveMaximum: 0 }, [-0.5]],
    ['an integer over 0', { type: 'integer', exclusiveMinimum: 0 }, [1]],
    ['an integer from -5 to 5: zero', { type: 'integer', minimum: -5, maximum: 5 }, [0]],
    ['a string', { type: 'string' }, ['']],
    ['a string of at least 3', { type: 'string', minLength: 3 }, ['xxx']],
    ['a date', { type: 'string', format: 'date' }, ['2024-01-01']],
    ['a format it has no example of', { type: 'string', format: 'iri' }, [undefined]],
    ['a string with a pattern: none', { type: 'string', pattern: '^a' }, [undefined]],
    ['an array', { type: 'array', items: { type: 'integer' } }, [[]]],
    ['an array of at least 2', { type: 'array', minItems: 2, items: { type: 'integer', minimum: 7 } }, [[7, 7]]],
    [
      'an array of at least 1 of what has no example',
      { type: 'array', minItems: 1, items: { type: 'string', pattern: 'a' } },
      [undefined],
    ],
    ['an object', { type: 'object' }, [{}]],
    [
      'an object with its required properties',
      {
        type: 'object',
        required: ['a', 'b'],
        properties: { a: { type: 'integer', minimum: 2 }, c: { type: 'string' } },
        additionalProperties: { type: 'boolean' },
      },
      [{ a: 2, b: false }],
    ],
    [
      'an object whose required property has no example',
      { type: 'object', required: ['a'], properties: { a: { type: 'string', pattern: 'x' } } },
      [undefined],
    ],
    ['a required property of no schema', { type: 'object', required: ['a'] }, [{ a: {} }]],
    [
      'a required property with the first branch that has one',
      {
        type: 'object',
        required: ['a'],
        properties: { a: { anyOf: [{ type: 'string', pattern: 'x' }, { type: 'null' }] } },
      },
      [{ a: null }],
    ],
    ['an untyped branch: an object', {}, [{}]],
    // Zero is kept whenever the bounds allow it: an exclusive bound below or above it moves nothing.
    ['an integer over -3: zero', { type: 'integer', exclusiveMinimum: -3 }, [0]],
    ['an integer under 3: zero', { type: 'integer', exclusiveMaximum: 3 }, [0]],
    [
      'a number from -3 exclusive to 3 exclusive: zero',
      { type: 'number', exclusiveMinimum: -3, exclusiveMaximum: 3 },
      [0],
    ],
    [
      'a string of two formats: none',
      { allOf: [{ type: 'string', format: 'date' }, { format: 'email' }] },
      [undefined],
    ],
    [
      'an empty array even when its items have no example',
      { type: 'array', items: { type: 'string', pattern: 'a' } },
      [[]],
    ],
  ])('%s', (_name, schema, examples) => {
    expect(example(schema)).toEqual(examples);
  });

  it('gives up past 16 levels of nesting, through properties or items', () => {
    const nest = (levels: number, wrap: (inner: unknown) => unknown) => {
      let schema: unknown = { type: 'integer' };
      for (let level = 0; level < levels; level++) schema = wrap(schema);
      return schema;
    };
    const property = (inner: unknown) => ({ type: 'object', required: ['a'], properties: { a: inner } });
    const item = (inner: unknown) => ({ type: 'array', minItems: 1, items: inner });
    // The leaf at depth 16 still has its value; at 17 there is none.
    expect(JSON.stringify(example(nest(16, property)))).toBe(`[${'{"a":'.repeat(16)}0${'}'.repeat(16)}]`);
    expect(example(nest(17, property))).toEqual([undefined]);
    expect(JSON.stringify(example(nest(16, item)))).toBe(`[${'['.repeat(16)}0${']'.repeat(16)}]`);
    expect(example(nest(17, item))).toEqual([undefined]);
  });

  it('gives, for simple generated schemas, only values the validators accept', () => {
    const ajv = createAjv({ allErrors: false });
    const bound = fc.integer({ min: -4, max: 4 });
    // Satisfiable ones (an example of a contradiction is no claim: the caller keeps one only when the validators agree).
    const numbers = fc
      .tuple(fc.constantFrom('integer', 'number'), bound, fc.nat(4), fc.boolean(), fc.boolean())
      .map(([type, low, span, openLow, openHigh]) => ({
        type,
        [openLow ? 'exclusiveMinimum' : 'minimum']: low,
        [openHigh ? 'exclusiveMaximum' : 'maximum']: low + span + 2,
      }));
    const simple = fc.oneof(
      numbers,
      fc.record(
        { type: fc.constant('string'), minLength: fc.nat(4), format: fc.constantFrom('date', 'email', 'uuid', 'ipv4') },
        { requiredKeys: ['type'] },
      ),
      fc.record(
        {
          type: fc.constant('array'),
          minItems: fc.nat(3),
          items: fc.record({ type: fc.constant('integer'), minimum: bound }),
        },
        { requiredKeys: ['type'] },
      ),
    );
    fc.assert(
      fc.property(simple, (schema) => {
        for (const value of example(schema))
          if (value !== undefined)
            expect({ schema, value, valid: ajv.validate(schema, value) }).toEqual({ schema, value, valid: true });
      }),
      { numRuns: 300, seed: 20261124 },
    );
  });
});
