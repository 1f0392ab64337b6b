// What the fuzzer puts on the wire as a form is what the request check reads back (encode-form-body.ts and
// decode-form-body.ts under one plan): a value typed as its schema says survives the trip whole, in both media
// types, styled fields included; and the fuzzer's judge reads a form body as the check does.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileSpec } from '../../../src/core/compile-spec.js';
import { decodeFormBody } from '../../../src/core/form-body/decode-form-body.js';
import { encodeForm } from '../../../src/core/form-body/encode-form-body.js';
import { formPlan } from '../../../src/core/form-body/form-plan.js';
import { parseSpec } from '../../../src/core/load-spec.js';
import { operationModels, violations } from '../../../src/core/request-model.js';

const properties = {
  name: { type: 'string' },
  age: { type: 'integer' },
  price: { type: 'number' },
  admin: { type: 'boolean' },
  tags: { type: 'array', items: { type: 'string' } },
  ids: { type: 'array', items: { type: 'integer' } },
  address: { type: 'object', properties: { city: { type: 'string' }, zip: { type: 'integer' } } },
  filter: { type: 'object', properties: { color: { type: 'string' }, size: { type: 'integer' } } },
  sizes: { type: 'array', items: { type: 'integer' } },
  meta: { type: 'object', properties: { k: { type: 'array', items: { type: 'boolean' } } } },
};
const media = (encoding: Record<string, unknown>) => ({ schema: { type: 'object', properties }, encoding });
const document = {
  openapi: '3.1.0',
  info: { title: 'forms', version: '1' },
  paths: {
    '/form': {
      post: {
        operationId: 'form',
        requestBody: {
          content: {
            'application/x-www-form-urlencoded': media({
              ids: { style: 'form', explode: false },
              filter: { style: 'deepObject', explode: true },
              sizes: { style: 'pipeDelimited', explode: false },
              meta: { contentType: 'application/json' },
            }),
          },
        },
        responses: { '204': { description: 'ok' } },
      },
    },
    '/multipart': {
      post: {
        operationId: 'multipart',
        requestBody: {
          content: { 'multipart/form-data': media({ sizes: { contentType: 'application/json' } }) },
        },
        responses: { '204': { description: 'ok' } },
      },
    },
  },
};
const at = (path: string, type: string) => ['paths', path, 'post', 'requestBody', 'content', type];
const plans = {
  urlencoded: formPlan(
    document,
    'application/x-www-form-urlencoded',
    at('/form', 'application/x-www-form-urlencoded'),
  )!,
  multipart: formPlan(document, 'multipart/form-data', at('/multipart', 'multipart/form-data'))!,
};

const text = fc.string({ maxLength: 8 });
const integer = fc.integer({ min: -1000, max: 1000 });
const value = fc.record(
  {
    name: text,
    age: integer,
    price: fc
      .double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 })
      .map((n) => (Object.is(n, -0) ? 0 : n)),
    admin: fc.boolean(),
    tags: fc.array(text, { minLength: 1, maxLength: 3 }),
    ids: fc.array(integer, { minLength: 1, maxLength: 3 }),
    address: fc.record({ city: text, zip: integer }, { requiredKeys: [] }),
    filter: fc.record({ color: text, size: integer }),
    sizes: fc.array(integer, { minLength: 1, maxLength: 3 }),
    meta: fc.record({ k: fc.array(fc.boolean(), { maxLength: 3 }) }),
  },
  { requiredKeys: [] },
);

describe('a form value through encodeForm and decodeFormBody', () => {
  it.each(Object.entries(plans))('comes back whole as %s', (_kind, plan) => {
    fc.assert(
      fc.property(value, (sent) => {
        const { contentType, body } = encodeForm(plan.multipart, sent, plan);
        const read = decodeFormBody(plan, body, contentType);
        expect(read).toEqual({ value: sent, opaque: [], problems: [] });
      }),
      { seed: 43, numRuns: 300 },
    );
  });

  it('writes the styled fields in their style', () => {
    const sent = { ids: [1, 2], filter: { color: 'red' }, sizes: [3, 4], meta: { k: [true] } };
    expect(encodeForm(false, sent, plans.urlencoded).body).toBe(
      'ids=1,2&filter[color]=red&sizes=3|4&meta=%7B%22k%22%3A%5Btrue%5D%7D',
    );
  });
});

describe("the fuzzer's judge of a form body", () => {
  const spec = parseSpec('forms.json', JSON.stringify(document));
  const compiled = compileSpec(spec);
  const model = operationModels(spec).find((operation) => operation.operationId === 'form')!;
  it.each([
    ['a numeral string for an integer field is an integer on the wire', { age: '42' }, []],
    [
      'letters for an integer field break it on the wire',
      { age: 'x' },
      [{ where: 'body', message: '/age must be integer' }],
    ],
    ['a null for a string field is an empty text on the wire', { name: null }, []],
  ])('%s', (_name, body, want) => {
    expect(violations(model, compiled, { path: {}, query: {}, headers: {}, body })).toEqual(want);
  });
});
