// validBody: whatever it returns, the contract's own validator accepts (the mock's guarantee), over a table of
// schemas with the keywords specs use; and it finds one for each of them.
import { describe, expect, it } from 'vitest';
import { compileContract, type Contract } from '../../src/core/compile-contract.js';
import { parseSpec } from '../../src/core/load-spec.js';
import { validBody } from '../../src/mock/valid-body.js';

/** A 3.0 spec with one operation answering 200 with `schema` (and `media` beside it: example, examples). */
function contractOf(schema: unknown, media: Record<string, unknown> = {}, version = '3.0.3'): Contract {
  const document = {
    openapi: version,
    info: { title: 't', version: '1' },
    paths: {
      '/thing': {
        get: {
          operationId: 'getThing',
          responses: { '200': { description: 'ok', content: { 'application/json': { schema, ...media } } } },
        },
      },
    },
    components: {
      schemas: {
        Line: {
          type: 'object',
          required: ['sku', 'quantity'],
          properties: {
            sku: { type: 'string', pattern: '^[A-Z]-[0-9]{2,4}$' },
            quantity: { type: 'integer', minimum: 1, maximum: 99 },
          },
        },
      },
    },
  };
  return compileContract(parseSpec('spec.json', JSON.stringify(document)));
}

const mediaOf = (contract: Contract) => contract.byOperationId.get('getThing')!.responses[0]!.mediaTypes[0]!;

function accepted(contract: Contract, value: unknown): boolean {
  const result = contract.check(mediaOf(contract).validate!, value);
  return result.errors.length === 0 && result.stoppedAfter === undefined;
}

// Each row: a schema, and the answer being mended when the row needs one (what Prism's static mode serves).
const schemas: [string, { schema: unknown; hint?: unknown }][] = [
  ['a pattern', { schema: { type: 'string', pattern: '^[A-Z]{2}-[0-9]{4}$' } }],
  ['an enum', { schema: { type: 'string', enum: ['open', 'closed'] } }],
  ['an integer with a minimum', { schema: { type: 'integer', minimum: 1000, maximum: 1005 } }],
  ['a number with an exclusive bound', { schema: { type: 'number', exclusiveMinimum: true, minimum: 0 } }],
  ['a date, with the answer being mended', { schema: { type: 'string', format: 'date' }, hint: '2019-08-24' }],
  [
    'a date-time, with the answer being mended',
    { schema: { type: 'string', format: 'date-time' }, hint: '2019-08-24T14:15:22Z' },
  ],
  ['an email, with the answer being mended', { schema: { type: 'string', format: 'email' }, hint: 'user@example.com' }],
  [
    'a uuid, with the answer being mended',
    { schema: { type: 'string', format: 'uuid' }, hint: '095be615-a8ad-4c33-8e9b-e9c2c8fe7dd5' },
  ],
  ['nullable (3.0)', { schema: { type: 'string', nullable: true, pattern: '^x+$' } }],
  [
    'allOf',
    {
      schema: {
        allOf: [
          { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1 } } },
          { type: 'object', required: ['code'], properties: { code: { type: 'string', pattern: '^[a-f]{3}$' } } },
        ],
      },
    },
  ],
  [
    'oneOf of overlapping branches',
    {
      schema: {
        oneOf: [
          { type: 'integer', multipleOf: 3 },
          { type: 'integer', multipleOf: 5 },
        ],
      },
    },
  ],
  [
    'a nested object and array, with a date inside',
    {
      schema: {
        type: 'object',
        required: ['code', 'due', 'lines'],
        properties: {
          code: { type: 'string', pattern: '^[A-Z]{2}-[0-9]{4}$' },
          due: { type: 'string', format: 'date' },
          lines: { type: 'array', minItems: 1, items: { $ref: '#/components/schemas/Line' } },
        },
      },
      hint: { code: 'string', due: '2019-08-24', lines: [{ sku: 'string', quantity: 1 }] },
    },
  ],
  [
    'an array with uniqueItems and minItems',
    { schema: { type: 'array', minItems: 3, uniqueItems: true, items: { type: 'integer', minimum: 0, maximum: 9 } } },
  ],
];

describe('validBody', () => {
  it.each(schemas)('makes a body its schema accepts for %s', (_name, { schema, hint }) => {
    const contract = contractOf(schema);
    const made = validBody(contract, mediaOf(contract), hint === undefined ? {} : { hint });
    expect(made).toBeDefined();
    expect(accepted(contract, made!.value)).toBe(true);
  });

  it('serves a valid example as it is', () => {
    const example = { code: 'AB-1234' };
    const contract = contractOf(
      { type: 'object', properties: { code: { type: 'string', pattern: '^[A-Z]{2}-[0-9]{4}$' } } },
      { example },
    );
    expect(validBody(contract, mediaOf(contract))).toEqual({ value: example });
  });

  it('passes over an invalid example for a valid one of the examples', () => {
    const contract = contractOf(
      { type: 'string', pattern: '^[A-Z]{2}$' },
      { examples: { wrong: { value: 'lost' }, right: { value: 'OK' } } },
    );
    expect(validBody(contract, mediaOf(contract))).toEqual({ value: 'OK' });
  });

  it('never serves an invalid example, even when it is the only one', () => {
    const contract = contractOf({ type: 'integer', minimum: 1 }, { example: 0 });
    const made = validBody(contract, mediaOf(contract));
    expect(made).toBeDefined();
    expect(made!.value).not.toBe(0);
    expect(accepted(contract, made!.value)).toBe(true);
  });

  it('tries a candidate made elsewhere (Prism dynamic mode) after the examples, and only if it is valid', () => {
    const contract = contractOf({ type: 'string', format: 'date' });
    expect(validBody(contract, mediaOf(contract), { candidates: ['yesterday', '2026-01-31'] })).toEqual({
      value: '2026-01-31',
    });
  });

  it('says it found none, rather than guess, for a schema nothing satisfies', () => {
    const contract = contractOf({ type: 'string', minLength: 3, maxLength: 2 });
    expect(validBody(contract, mediaOf(contract))).toBeUndefined();
  });
});
