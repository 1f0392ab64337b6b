// The diff's schema algebra against the validators: on generated schemas (types, enums, consts, bounds, lengths,
// patterns, formats, items, uniqueItems, properties, property counts, required, additionalProperties, allOf, anyOf)
// and values, the normal form accepts exactly what ajv accepts; and on schemas with oneOf, not and prefixItems too,
// an inclusion A ⊆ B the diff relies on never lets through a value ajv has A accept and B refuse.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createAjv } from '../../src/core/create-ajv.js';
import { exampleOfBranch } from '../../src/core/diff/branch-example.js';
import { SchemaNormalizer } from '../../src/core/diff/schema-branches.js';
import { accepts, includes } from '../../src/core/diff/schema-inclusion.js';

type Schema = Record<string, unknown> | boolean;

const pool = [0, 1, 2, -1, 1.5, 'a', 'b', 'ab', '', null, true, false, [], [1], {}, { a: 1 }];
const small = fc.integer({ min: -3, max: 3 });
const count = fc.integer({ min: 0, max: 3 });
const pattern = fc.constantFrom('^a', 'b$', '^[ab]*$', 'a');

const schema: fc.Arbitrary<Schema> = fc.letrec<{ schema: Schema }>((tie) => ({
  schema: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.record(
      { type: fc.constantFrom('string'), minLength: count, maxLength: count, pattern },
      { requiredKeys: ['type'] },
    ),
    fc.record(
      {
        type: fc.constantFrom('integer', 'number'),
        minimum: small,
        maximum: small,
        exclusiveMinimum: small,
        exclusiveMaximum: small,
        multipleOf: fc.constantFrom(2, 3),
      },
      { requiredKeys: ['type'] },
    ),
    fc.record({ type: fc.constantFrom('boolean', 'null') }),
    fc.record({
      enum: fc.uniqueArray(fc.constantFrom(...pool), {
        minLength: 1,
        maxLength: 4,
        selector: (v) => JSON.stringify(v),
      }),
    }),
    fc.record(
      { type: fc.constant('array'), items: tie('schema'), minItems: count, maxItems: count },
      { requiredKeys: ['type'] },
    ),
    fc.record(
      {
        type: fc.constant('object'),
        properties: fc.dictionary(fc.constantFrom('a', 'b', 'c'), tie('schema'), { maxKeys: 2 }),
        required: fc.uniqueArray(fc.constantFrom('a', 'b'), { maxLength: 2 }),
        additionalProperties: fc.oneof(fc.constant(false), tie('schema')),
      },
      { requiredKeys: ['type'] },
    ),
    fc.record({ type: fc.subarray(['string', 'integer', 'null', 'boolean'], { minLength: 1 }) }),
    fc.record({ const: fc.constantFrom(...pool) }),
    fc.record({ format: fc.constantFrom('date', 'email', 'int32') }),
    fc.record({ uniqueItems: fc.boolean(), minProperties: count, maxProperties: count }),
    fc.record({ anyOf: fc.array(tie('schema'), { minLength: 1, maxLength: 3 }) }),
    fc.record({ allOf: fc.array(tie('schema'), { minLength: 1, maxLength: 2 }) }),
    fc.boolean(),
  ),
})).schema;

// Values as a body arrives: through JSON (no prototype-less objects, `__proto__` an own key as JSON.parse makes it).
/**
 * More keywords, for the inclusion tests: their soundness does not depend on the normal form being exact, so keywords
 * it keeps opaque or over-approximates (oneOf, not, formats, uniqueItems, property counts, prefixItems) belong here.
 */
const richSchema: fc.Arbitrary<Schema> = fc.letrec<{ schema: Schema }>((tie) => ({
  schema: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    schema,
    fc.record({ const: fc.constantFrom(...pool) }),
    fc.record({ type: fc.constant('string'), format: fc.constantFrom('date', 'email', 'uuid') }),
    fc.record(
      {
        type: fc.constant('array'),
        uniqueItems: fc.boolean(),
        prefixItems: fc.array(tie('schema'), { maxLength: 2 }),
        items: tie('schema'),
      },
      { requiredKeys: ['type'] },
    ),
    fc.record({ type: fc.constant('object'), minProperties: count, maxProperties: count }, { requiredKeys: ['type'] }),
    fc.record({ oneOf: fc.array(tie('schema'), { minLength: 1, maxLength: 3 }) }),
    fc.record({ not: tie('schema') }),
    fc.record({ anyOf: fc.array(tie('schema'), { minLength: 1, maxLength: 3 }) }),
    fc.record({ allOf: fc.array(tie('schema'), { minLength: 1, maxLength: 2 }) }),
  ),
})).schema;

const value: fc.Arbitrary<unknown> = fc
  .oneof(
    fc.constantFrom(...pool),
    fc.integer({ min: -5, max: 5 }),
    fc.stringMatching(/^[abc]{0,5}$/),
    fc.dictionary(fc.constantFrom('a', 'b', 'c', 'd'), fc.constantFrom(...pool), { maxKeys: 3 }),
    fc.array(fc.constantFrom(...pool), { maxLength: 4 }),
    fc.jsonValue({ maxDepth: 2 }),
  )
  .map((v) => JSON.parse(JSON.stringify(v)) as unknown);
// One seed: the same cases on every run (CI, mutation testing); change it to explore others.
const seed = 20261124;

const ajv = createAjv({ allErrors: false });
const validator = (s: Schema) => ajv.compile(typeof s === 'boolean' ? s : { ...s });
const norm = (s: Schema) => new SchemaNormalizer({ s }).normalize(s, ['s']);

describe('the diff’s normal form of a schema', () => {
  it('accepts exactly what ajv accepts', () => {
    fc.assert(
      fc.property(schema, fc.array(value, { minLength: 1, maxLength: 8 }), (s, values) => {
        const validate = validator(s);
        const n = norm(s);
        for (const v of [...values, ...n.branches.map((branch) => exampleOfBranch(branch))]) {
          if (v === undefined) continue;
          expect({ schema: s, value: v, accepts: accepts(n, v) }).toEqual({
            schema: s,
            value: v,
            accepts: validate(v),
          });
        }
      }),
      { numRuns: 400, seed },
    );
  });
});

describe('schema inclusion', () => {
  it('never holds where ajv finds a value A accepts and B refuses', () => {
    fc.assert(
      fc.property(richSchema, richSchema, fc.array(value, { maxLength: 8 }), (a, b, values) => {
        const [na, nb] = [norm(a), norm(b)];
        // Known gap: B's normal form over-approximates B when B has a oneOf whose branches may overlap (it is read as
        // an anyOf, and says so in `undecided`); an inclusion into it can hold where B itself refuses a value that
        // matches two of those branches. Left out here, named in the ARCHITECTURE notes on the diff.
        if (nb.undecided || !includes(na, nb).holds) return;
        const [validateA, validateB] = [validator(a), validator(b)];
        const examples = na.branches.map((branch) => exampleOfBranch(branch));
        for (const v of [...values, ...examples]) {
          if (v === undefined || !validateA(v)) continue;
          expect({ a, b, value: v, acceptedByB: validateB(v) }).toEqual({ a, b, value: v, acceptedByB: true });
        }
      }),
      { numRuns: 400, seed },
    );
  });

  it('holds for a schema and itself, and for anything wider built around it', () => {
    fc.assert(
      fc.property(schema, schema, (a, other) => {
        expect(includes(norm(a), norm(a)).holds).toBe(true);
        expect(includes(norm(a), norm({ anyOf: [a, other] })).holds).toBe(true);
        expect(includes(norm({ allOf: [a, other] }), norm(a)).holds).toBe(true);
        expect(includes(norm(a), norm(true)).holds).toBe(true);
        expect(includes(norm(false), norm(a)).holds).toBe(true);
      }),
      { numRuns: 300, seed },
    );
  });

  it('fails with a reason where ajv finds a value A accepts and B refuses', () => {
    fc.assert(
      fc.property(richSchema, richSchema, fc.array(value, { maxLength: 8 }), (a, b, values) => {
        const [validateA, validateB] = [validator(a), validator(b)];
        const witness = values.find((v) => validateA(v) && !validateB(v));
        if (witness === undefined || norm(b).undecided) return;
        const inclusion = includes(norm(a), norm(b));
        expect(inclusion.holds).toBe(false);
        expect(inclusion.reasons.some((reason) => reason.failing)).toBe(true);
      }),
      { numRuns: 400, seed },
    );
  });
});
