// Small OpenAPI 3.1 documents for the diff rule table: one operation, one schema or parameter at a time.
import { parseSpec, type LoadedSpec } from '../../src/core/load-spec.js';

type Json = Record<string, unknown>;

export function spec(paths: Json, extra: Json = {}): string {
  return JSON.stringify({ openapi: '3.1.0', info: { title: 't', version: '1' }, paths, ...extra }, null, 2);
}

export function load(name: string, source: string): LoadedSpec {
  return parseSpec(name, source);
}

const ok = { description: 'ok' };

/** GET /items with extra operation fields. */
export const getItems = (operation: Json = {}, extra: Json = {}) =>
  spec({ '/items': { get: { operationId: 'listItems', responses: { '200': ok }, ...operation } } }, extra);

/** GET /items answering 200 with this JSON schema. */
export const response = (schema: unknown, extra: Json = {}) =>
  getItems({ responses: { '200': { description: 'ok', content: { 'application/json': { schema } } } } }, extra);

/** POST /items taking this JSON body. */
export const request = (schema: unknown, extra: Json = {}) =>
  spec(
    {
      '/items': {
        post: {
          operationId: 'addItem',
          requestBody: { required: true, content: { 'application/json': { schema } } },
          responses: { '204': ok },
        },
      },
    },
    extra,
  );

/** GET /items with these parameters. */
export const params = (...parameters: Json[]) => getItems({ parameters });

export const object = (properties: Json, more: Json = {}) => ({ type: 'object', properties, ...more });

/** The placement rule of the client-session spec, in small: paymentMethod at the top, under order, or both. */
export const placement = (places: string[], style: 'allOf' | 'flat' = 'allOf') => {
  const pm = { $ref: '#/components/schemas/PaymentMethod' };
  const branch = (place: string) =>
    place === 'top'
      ? { title: 'top', type: 'object', required: ['paymentMethod'], properties: { paymentMethod: pm } }
      : {
          title: place,
          type: 'object',
          required: [place],
          properties: { [place]: { type: 'object', required: ['paymentMethod'], properties: { paymentMethod: pm } } },
        };
  const fields = { $ref: '#/components/schemas/Fields' };
  const schema =
    style === 'allOf'
      ? { allOf: [fields, { anyOf: places.map(branch) }] }
      : { anyOf: places.map((place) => ({ title: place, allOf: [fields, branch(place)] })) };
  return {
    schema,
    components: {
      schemas: {
        PaymentMethod: object({ vaultOnSuccess: { type: 'boolean' } }),
        Fields: object({
          currencyCode: { type: 'string', enum: ['EUR', 'USD'] },
          order: object({ paymentMethod: pm }),
          customer: object({}),
        }),
      },
    },
  };
};
