// Generated values for a discriminated oneOf name the branch they were made from, so the checks (which judge a value
// by the branch its discriminator property names, src/core/discriminator.ts) accept them.
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { compileSpec } from '../../src/core/compile-spec.js';
import { parseSpec } from '../../src/core/load-spec.js';
import { schemaArbitrary } from '../../src/fuzz/schema-arbitrary.js';

const spec = {
  openapi: '3.1.0',
  info: { title: 'pets', version: '1' },
  paths: {},
  components: {
    schemas: {
      Cat: {
        type: 'object',
        required: ['meows'],
        properties: { petType: { type: 'string' }, meows: { type: 'boolean' } },
      },
      Dog: {
        type: 'object',
        required: ['barks'],
        properties: { petType: { type: 'string' }, barks: { type: 'boolean' } },
      },
      Pet: {
        oneOf: [{ $ref: '#/components/schemas/Cat' }, { $ref: '#/components/schemas/Dog' }],
        discriminator: { propertyName: 'petType', mapping: { kitten: '#/components/schemas/Cat' } },
      },
    },
  },
};

it('generates values of a discriminated oneOf that the checks accept, each naming its branch', () => {
  const loaded = parseSpec('pets.json', JSON.stringify(spec));
  const compiled = compileSpec(loaded);
  const validate = compiled.validatorAt(['components', 'schemas', 'Pet']);
  const values = fc.sample(schemaArbitrary(loaded.document, spec.components.schemas.Pet), { numRuns: 50, seed: 1 });
  const tags = new Set(values.map((value) => (value as { petType: string }).petType));
  expect(tags).toEqual(new Set(['kitten', 'Dog']));
  for (const value of values) expect(compiled.check(validate, value).errors).toEqual([]);
});
