// The client session spec against its seed (tests/fixtures/seeds/client-session-api.md, a copy of shared/seeds).
import { readFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { compileSpec, type CompiledSpec } from '../../src/core/compile-spec.js';
import { loadSpec } from '../../src/core/load-spec.js';
import { fixture, specFile } from '../helpers/paths.js';

const responseSchema = ['paths', '/client-session', 'get', 'responses', '200', 'content', 'application/json', 'schema'];
const paymentMethod = {
  vaultOnSuccess: false,
  vaultOn3DS: false,
  options: { GOOGLE_PAY: { surcharge: { amount: 50 } } },
};

let compiled: CompiledSpec;
let doc: any;
beforeAll(async () => {
  compiled = compileSpec(await loadSpec(specFile('client-session')));
  doc = compiled.spec.document;
});

describe('client-session spec: the paymentMethod placement rule', () => {
  const cases: [string, { given: Record<string, unknown>; want: 'valid' | 'invalid' }][] = [
    [
      'paymentMethod only at the top level (the seed schema)',
      { given: { paymentMethod, orderId: 'o-1' }, want: 'valid' },
    ],
    [
      'paymentMethod only under order (the seed example)',
      { given: { order: { paymentMethod }, orderId: 'o-1' }, want: 'valid' },
    ],
    ['paymentMethod in both places', { given: { paymentMethod, order: { paymentMethod } }, want: 'valid' }],
    ['paymentMethod in neither place', { given: { orderId: 'o-1', order: { lineItems: [] } }, want: 'invalid' }],
    ['an empty body', { given: {}, want: 'invalid' }],
    [
      'order present but paymentMethod missing from it and from the top level',
      { given: { order: {} }, want: 'invalid' },
    ],
  ];

  it.each(cases)('accepts or rejects a body with %s', (_name, { given, want }) => {
    const errors = compiled.validateAt(responseSchema, given);
    expect(errors.length === 0 ? 'valid' : 'invalid').toBe(want);
  });

  it('names both accepted places when neither holds paymentMethod', () => {
    const messages = compiled.validateAt(responseSchema, { orderId: 'o-1' }).map((e) => e.message);
    expect(messages).toContain('body must have required property "paymentMethod"');
    expect(messages).toContain('body must have required property "order"');
  });

  it('documents the rule in the schema with x-payment-method-placement', () => {
    const rule = doc.components.schemas.ClientSession['x-payment-method-placement'];
    expect(rule).toMatchObject({
      rule: 'payment_method_placement',
      accepted: ['/paymentMethod', '/order/paymentMethod'],
    });
  });

  it('carries the seed example with paymentMethod under order, and it is valid against its own schema', () => {
    const example =
      doc.paths['/client-session'].get.responses['200'].content['application/json'].examples.paymentMethodUnderOrder
        .value;
    expect(example.paymentMethod).toBeUndefined();
    expect(example.order.paymentMethod.options).toHaveProperty('PAYMENT_CARD.networks.VISA.surcharge.amount');
    expect(compiled.validateAt(responseSchema, example)).toEqual([]);
  });
});

describe('client-session spec: faithful to the seed', () => {
  it('allows exactly the seed currency codes', async () => {
    const seed = await readFile(fixture('seeds', 'client-session-api.md'), 'utf8');
    const list = /### currencyCode allowed values\s+([A-Z, ]+)/.exec(seed)?.[1] ?? '';
    const seedCodes = list
      .split(',')
      .map((code) => code.trim())
      .filter(Boolean);
    expect(seedCodes.length).toBeGreaterThan(150);
    expect([...doc.components.schemas.CurrencyCode.enum].sort()).toEqual([...seedCodes].sort());
  });

  const fields: [string, { given: Record<string, unknown>; want: 'valid' | 'invalid' }][] = [
    ['customerId of 255 characters', { given: { customerId: 'c'.repeat(255) }, want: 'valid' }],
    ['customerId of 256 characters', { given: { customerId: 'c'.repeat(256) }, want: 'invalid' }],
    ['orderId of 256 characters', { given: { orderId: 'o'.repeat(256) }, want: 'invalid' }],
    ['amount 0', { given: { amount: 0 }, want: 'valid' }],
    ['a negative amount', { given: { amount: -1 }, want: 'invalid' }],
    ['a fractional amount', { given: { amount: 1.5 }, want: 'invalid' }],
    ['a currency code outside the list', { given: { currencyCode: 'XXX' }, want: 'invalid' }],
    ['a lower-case currency code', { given: { currencyCode: 'eur' }, want: 'invalid' }],
    [
      'a field the seed does not list (forward compatibility)',
      { given: { riskScore: 3, order: { paymentMethod, giftWrap: true } }, want: 'valid' },
    ],
    ['metadata with any keys', { given: { metadata: { a: 1, b: [true] } }, want: 'valid' }],
    [
      'a string line item amount',
      { given: { order: { paymentMethod, lineItems: [{ amount: '10' }] } }, want: 'invalid' },
    ],
    ['a non-boolean vaultOnSuccess', { given: { paymentMethod: { vaultOnSuccess: 'no' } }, want: 'invalid' }],
    [
      'a string card network surcharge',
      {
        given: { paymentMethod: { options: { PAYMENT_CARD: { networks: { VISA: { surcharge: { amount: '1' } } } } } } },
        want: 'invalid',
      },
    ],
  ];

  it.each(fields)('judges %s', (_name, { given, want }) => {
    const body = 'paymentMethod' in given || 'order' in given ? given : { paymentMethod, ...given };
    expect(compiled.validateAt(responseSchema, body).length === 0 ? 'valid' : 'invalid').toBe(want);
  });

  it('requires X-API-VERSION with 2.4 as its only value, X-API-KEY as an apiKey scheme, clientToken optional', () => {
    const op = doc.paths['/client-session'].get;
    expect(op.operationId).toBe('retrieveClientSession');
    expect(doc.components.parameters.ApiVersion).toMatchObject({
      name: 'X-API-VERSION',
      in: 'header',
      required: true,
      schema: { enum: ['2.4'] },
    });
    expect(doc.components.parameters.ClientToken).toMatchObject({ name: 'clientToken', in: 'query', required: false });
    expect(doc.components.securitySchemes.apiKey).toEqual(
      expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-API-KEY' }),
    );
    expect(doc.security).toEqual([{ apiKey: [] }]);
    expect(Object.keys(op.responses)).toEqual(['200']);
    expect(op.requestBody).toBeUndefined();
  });
});
