import { describe, expect, it } from 'vitest';
import { compareChanges, diffSpecs } from '../../src/core/diff/diff-specs.js';
import type { SpecChange } from '../../src/core/diff/spec-change.js';
import { diffRules, type DiffLevel, type DiffRuleId } from '../../src/core/diff/diff-rules.js';
import { getItems, load, object, params, placement, request, response, spec } from './spec-pairs.js';

type Want = [DiffRuleId, DiffLevel][];
type Case = [string, { base: string; head: string; want: Want }];

const str = { type: 'string' };
const ok = { description: 'ok' };
const apiKey = { components: { securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'X-KEY' } } } };
const twoKeys = {
  components: {
    securitySchemes: {
      key: { type: 'apiKey', in: 'header', name: 'X-KEY' },
      other: { type: 'apiKey', in: 'header', name: 'X-OTHER' },
    },
  },
};
const query = (name: string, more: Record<string, unknown> = {}) => ({ name, in: 'query', schema: str, ...more });
const body = (content: Record<string, unknown>, required = true) =>
  spec({
    '/items': { post: { operationId: 'addItem', requestBody: { required, content }, responses: { '204': ok } } },
  });
const responses = (map: Record<string, unknown>) => getItems({ responses: map });
const hook = (schema: unknown) => ({
  post: { requestBody: { content: { 'application/json': { schema } } }, responses: { '200': ok } },
});
const withHeaders = (headers: Record<string, unknown>) => ({ description: 'ok', headers });
const json = { schema: str };
const pl = (places: string[], style?: 'allOf' | 'flat') => {
  const { schema, components } = placement(places, style);
  return { response: response(schema, { components }), request: request(schema, { components }) };
};

const cases: Case[] = [
  // Paths and operations
  [
    'a path removed',
    {
      base: spec({ '/a': { get: { responses: { '200': ok } } }, '/b': { get: { responses: { '200': ok } } } }),
      head: spec({ '/a': { get: { responses: { '200': ok } } } }),
      want: [['path-removed', 'error']],
    },
  ],
  [
    'a path with no operation removed (parameters only: nothing a client could call)',
    {
      base: spec({ '/a': { get: { responses: { '200': ok } } }, '/b': { parameters: [query('q')] } }),
      head: spec({ '/a': { get: { responses: { '200': ok } } } }),
      want: [],
    },
  ],
  [
    'an operation removed from a path that remains',
    {
      base: spec({ '/a': { get: { responses: { '200': ok } }, post: { responses: { '200': ok } } } }),
      head: spec({ '/a': { get: { responses: { '200': ok } } } }),
      want: [['operation-removed', 'error']],
    },
  ],
  [
    'an operation added',
    {
      base: spec({ '/a': { get: { responses: { '200': ok } } } }),
      head: spec({ '/a': { get: { responses: { '200': ok } } }, '/b': { get: { responses: { '200': ok } } } }),
      want: [['operation-added', 'info']],
    },
  ],
  [
    'a path parameter renamed is the same path',
    {
      base: spec({ '/a/{id}': { get: { responses: { '200': ok } } } }),
      head: spec({ '/a/{item_id}': { get: { responses: { '200': ok } } } }),
      want: [],
    },
  ],
  [
    'a declared path parameter renamed is the same parameter, its schema still compared',
    {
      base: spec({
        '/books/{bookId}': {
          parameters: [{ name: 'bookId', in: 'path', required: true, schema: str }],
          get: { responses: { '200': ok } },
        },
      }),
      head: spec({
        '/books/{id}': {
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', maxLength: 8 } }],
          get: { responses: { '200': ok } },
        },
      }),
      want: [['request-max-lowered', 'error']],
    },
  ],
  [
    'operationId changed',
    { base: getItems(), head: getItems({ operationId: 'getItems' }), want: [['operation-id-changed', 'warning']] },
  ],
  // Security
  [
    'a security requirement added',
    {
      base: getItems({}, apiKey),
      head: getItems({ security: [{ key: [] }] }, apiKey),
      want: [['request-security-added', 'error']],
    },
  ],
  [
    'a security requirement removed',
    {
      base: getItems({ security: [{ key: [] }] }, apiKey),
      head: getItems({}, apiKey),
      want: [['request-security-removed', 'info']],
    },
  ],
  [
    'a scope added to the security of every operation (global security)',
    {
      base: getItems({}, { ...apiKey, security: [{ key: ['read'] }] }),
      head: getItems({}, { ...apiKey, security: [{ key: ['read', 'write'] }] }),
      want: [['request-security-added', 'error']],
    },
  ],
  [
    'a second way to authenticate offered',
    {
      base: getItems({ security: [{ key: [] }] }, apiKey),
      head: getItems({ security: [{ key: [] }, { other: [] }] }, apiKey),
      want: [['request-security-removed', 'info']],
    },
  ],
  [
    'two schemes required together where one was enough',
    {
      base: getItems({ security: [{ key: [] }] }, apiKey),
      head: getItems({ security: [{ key: [], other: [] }] }, apiKey),
      want: [['request-security-added', 'error']],
    },
  ],
  [
    'the same security written at the operation instead of globally',
    {
      base: getItems({}, { ...apiKey, security: [{ key: [] }] }),
      head: getItems({ security: [{ key: [] }] }, apiKey),
      want: [],
    },
  ],
  // Parameters
  [
    'a required query parameter added',
    {
      base: params(),
      head: params(query('q', { required: true })),
      want: [['request-required-parameter-added', 'error']],
    },
  ],
  [
    'a required header added',
    {
      base: params(),
      head: params({ name: 'X-Trace', in: 'header', required: true, schema: str }),
      want: [['request-required-parameter-added', 'error']],
    },
  ],
  [
    'an optional parameter added',
    { base: params(), head: params(query('q')), want: [['request-optional-parameter-added', 'info']] },
  ],
  [
    'a parameter became required',
    {
      base: params(query('q')),
      head: params(query('q', { required: true })),
      want: [['request-parameter-became-required', 'error']],
    },
  ],
  [
    'a parameter removed',
    { base: params(query('q')), head: params(), want: [['request-parameter-removed', 'warning']] },
  ],
  [
    'a parameter moved from query to header',
    {
      base: params(query('q')),
      head: params({ name: 'q', in: 'header', schema: str }),
      want: [['request-parameter-moved', 'error']],
    },
  ],
  [
    'a header parameter renamed only in case is the same header',
    {
      base: params({ name: 'X-Trace', in: 'header', schema: str }),
      head: params({ name: 'x-trace', in: 'header', schema: str }),
      want: [],
    },
  ],
  [
    'a parameter maximum lowered',
    {
      base: params(query('per_page', { schema: { type: 'integer', maximum: 100 } })),
      head: params(query('per_page', { schema: { type: 'integer', maximum: 50 } })),
      want: [['request-max-lowered', 'error']],
    },
  ],
  [
    'a parameter default changed',
    {
      base: params(query('n', { schema: { type: 'integer', default: 10 } })),
      head: params(query('n', { schema: { type: 'integer', default: 20 } })),
      want: [['request-default-changed', 'warning']],
    },
  ],
  // Request bodies
  [
    'a request body became required',
    {
      base: body({ 'application/json': json }, false),
      head: body({ 'application/json': json }),
      want: [['request-body-became-required', 'error']],
    },
  ],
  [
    'a request media type removed',
    {
      base: body({ 'application/json': json, 'text/plain': json }),
      head: body({ 'application/json': json }),
      want: [['request-media-type-removed', 'error']],
    },
  ],
  [
    'a request media type added',
    {
      base: body({ 'application/json': json }),
      head: body({ 'application/json': json, 'text/plain': json }),
      want: [['request-media-type-added', 'info']],
    },
  ],
  [
    'a required body field added',
    {
      base: request(object({ a: str })),
      head: request(object({ a: str, b: str }, { required: ['b'] })),
      want: [['request-property-required-added', 'error']],
    },
  ],
  [
    'an existing body field made required',
    {
      base: request(object({ a: str })),
      head: request(object({ a: str }, { required: ['a'] })),
      want: [['request-property-required-added', 'error']],
    },
  ],
  [
    'an optional body field added',
    {
      base: request(object({ a: str })),
      head: request(object({ a: str, b: str })),
      want: [['request-property-added', 'info']],
    },
  ],
  [
    'an optional body field added to a closed object',
    {
      base: request(object({ a: str }, { additionalProperties: false })),
      head: request(object({ a: str, b: str }, { additionalProperties: false })),
      want: [['request-property-added', 'info']],
    },
  ],
  [
    'a body field removed from a closed object',
    {
      base: request(object({ a: str, b: str }, { additionalProperties: false })),
      head: request(object({ a: str }, { additionalProperties: false })),
      want: [['request-property-rejected', 'error']],
    },
  ],
  [
    'a body field removed from an open object',
    {
      base: request(object({ a: str, b: str })),
      head: request(object({ a: str })),
      want: [['request-property-undocumented', 'warning']],
    },
  ],
  [
    'a body field type narrowed',
    {
      base: request(object({ a: { type: ['string', 'integer'] } })),
      head: request(object({ a: str })),
      want: [['request-type-narrowed', 'error']],
    },
  ],
  [
    'a body field type swapped',
    {
      base: request(object({ a: { type: 'integer' } })),
      head: request(object({ a: str })),
      want: [['request-type-narrowed', 'error']],
    },
  ],
  [
    'a request enum value removed',
    {
      base: request(object({ a: { enum: ['x', 'y'] } })),
      head: request(object({ a: { enum: ['x'] } })),
      want: [['request-enum-value-removed', 'error']],
    },
  ],
  [
    'a request maxLength lowered',
    {
      base: request(object({ a: { type: 'string', maxLength: 10 } })),
      head: request(object({ a: { type: 'string', maxLength: 5 } })),
      want: [['request-max-lowered', 'error']],
    },
  ],
  [
    'a request minimum raised',
    {
      base: request(object({ a: { type: 'integer', minimum: 0 } })),
      head: request(object({ a: { type: 'integer', minimum: 1 } })),
      want: [['request-min-raised', 'error']],
    },
  ],
  [
    'a request minLength added',
    {
      base: request(object({ a: str })),
      head: request(object({ a: { type: 'string', minLength: 1 } })),
      want: [['request-min-raised', 'error']],
    },
  ],
  // Webhooks: what the API sends. Receivers are their clients.
  // How each kind of difference reads, per side and direction
  [
    'a request body that refused undeclared fields accepts them now',
    {
      base: request(object({ a: str }, { additionalProperties: false })),
      head: request(object({ a: str })),
      want: [['request-constraint-relaxed', 'info']],
    },
  ],
  [
    'a request body field no longer required',
    {
      base: request(object({ a: str, b: str }, { required: ['a', 'b'] })),
      head: request(object({ a: str, b: str }, { required: ['a'] })),
      want: [['request-constraint-relaxed', 'info']],
    },
  ],
  [
    'a request body field given a longer maxLength',
    {
      base: request(object({ a: { type: 'string', maxLength: 5 } })),
      head: request(object({ a: { type: 'string', maxLength: 9 } })),
      want: [['request-constraint-relaxed', 'info']],
    },
  ],
  [
    'a response that refused undeclared fields may carry them now',
    {
      base: response(object({ a: str }, { additionalProperties: false })),
      head: response(object({ a: str })),
      want: [['response-constraint-relaxed', 'warning']],
    },
  ],
  [
    'a field added to a response that refused undeclared fields',
    {
      base: response(object({ a: str }, { additionalProperties: false })),
      head: response(object({ a: str, b: str }, { additionalProperties: false })),
      want: [['response-property-added', 'info']],
    },
  ],
  [
    'a response field given a longer maxLength, and a lower minimum',
    {
      base: response(object({ a: { type: 'string', maxLength: 5 }, n: { type: 'integer', minimum: 3 } })),
      head: response(object({ a: { type: 'string', maxLength: 9 }, n: { type: 'integer' } })),
      want: [['response-constraint-relaxed', 'warning']],
    },
  ],
  [
    'a response field given a shorter maxLength, and an enum value removed',
    {
      base: response(object({ a: { type: 'string', maxLength: 9 }, e: { enum: ['x', 'y'] } })),
      head: response(object({ a: { type: 'string', maxLength: 5 }, e: { enum: ['x'] } })),
      want: [['response-constraint-tightened', 'info']],
    },
  ],
  [
    'a response field default changed: nothing a client reads',
    {
      base: response(object({ a: { type: 'string', default: 'x' } })),
      head: response(object({ a: { type: 'string', default: 'y' } })),
      want: [],
    },
  ],
  [
    'a webhook removed',
    {
      base: spec(
        {},
        { webhooks: { orderCreated: hook(object({ id: str })), orderDeleted: hook(object({ id: str })) } },
      ),
      head: spec({}, { webhooks: { orderCreated: hook(object({ id: str })) } }),
      want: [['webhook-removed', 'error']],
    },
  ],
  [
    'a webhook method removed from a webhook that stays',
    {
      base: spec(
        {},
        { webhooks: { orderCreated: { ...hook(object({ id: str })), put: hook(object({ id: str })).post } } },
      ),
      head: spec({}, { webhooks: { orderCreated: hook(object({ id: str })) } }),
      want: [['webhook-removed', 'error']],
    },
  ],
  [
    'a webhook payload reached through a $ref to a path item, a field added',
    {
      base: spec(
        {},
        {
          webhooks: { orderCreated: { $ref: '#/components/pathItems/order' } },
          components: { pathItems: { order: hook(object({ id: str }, { required: ['id'] })) } },
        },
      ),
      head: spec(
        {},
        {
          webhooks: { orderCreated: { $ref: '#/components/pathItems/order' } },
          components: { pathItems: { order: hook(object({ id: str, note: str }, { required: ['id'] })) } },
        },
      ),
      want: [['response-property-added', 'info']],
    },
  ],
  [
    'a webhook added',
    {
      base: spec({}, { webhooks: { orderCreated: hook(object({ id: str })) } }),
      head: spec(
        {},
        { webhooks: { orderCreated: hook(object({ id: str })), orderDeleted: hook(object({ id: str })) } },
      ),
      want: [['webhook-added', 'info']],
    },
  ],
  [
    'a required field removed from a webhook payload (as from a response)',
    {
      base: spec(
        {},
        { webhooks: { orderCreated: hook(object({ id: str, total: str }, { required: ['id', 'total'] })) } },
      ),
      head: spec({}, { webhooks: { orderCreated: hook(object({ id: str }, { required: ['id'] })) } }),
      want: [['response-property-removed', 'error']],
    },
  ],
  // 2020-12 keywords that can only narrow: added, they narrow; removed, they widen; changed, undecided.
  [
    'contains added to a request array',
    {
      base: request({ type: 'array', items: str }),
      head: request({ type: 'array', items: str, contains: { const: 'a' } }),
      want: [['request-constraint-added', 'error']],
    },
  ],
  [
    'dependentRequired removed from a request object',
    {
      base: request(object({ a: str, b: str }, { dependentRequired: { a: ['b'] } })),
      head: request(object({ a: str, b: str })),
      want: [['request-constraint-relaxed', 'info']],
    },
  ],
  [
    'contains changed: compared by what its schema accepts (["a"] refused now, ["b"] accepted)',
    {
      base: request({ type: 'array', items: str, contains: { const: 'a' } }),
      head: request({ type: 'array', items: str, contains: { const: 'b' } }),
      want: [
        ['request-constraint-added', 'error'],
        ['request-constraint-relaxed', 'info'],
      ],
    },
  ],
  [
    'contains with an upper count changed: neither direction follows, undecided',
    {
      base: request({ type: 'array', items: str, contains: { const: 'a' }, maxContains: 2 }),
      head: request({ type: 'array', items: str, contains: { minLength: 1 }, maxContains: 2 }),
      want: [['schema-change-undecided', 'warning']],
    },
  ],
  [
    'minContains raised in a request',
    {
      base: request({ type: 'array', items: str, contains: { const: 'a' } }),
      head: request({ type: 'array', items: str, contains: { const: 'a' }, minContains: 2 }),
      want: [['request-constraint-added', 'error']],
    },
  ],
  [
    'maxContains raised in a response: at most 2 matching items was a promise',
    {
      base: response({ type: 'array', items: str, contains: { const: 'a' }, maxContains: 2 }),
      head: response({ type: 'array', items: str, contains: { const: 'a' }, maxContains: 3 }),
      want: [['response-guarantee-removed', 'error']],
    },
  ],
  [
    'contains removed from a response: no item is promised to match any more',
    {
      base: response({ type: 'array', items: str, contains: { const: 'a' } }),
      head: response({ type: 'array', items: str }),
      want: [['response-guarantee-removed', 'error']],
    },
  ],
  [
    'dependentRequired removed from a response: b may now be missing beside a',
    {
      base: response(object({ a: str, b: str }, { dependentRequired: { a: ['b'] } })),
      head: response(object({ a: str, b: str })),
      want: [['response-guarantee-removed', 'error']],
    },
  ],
  [
    'dependentRequired changed in a request: a needs c beside b now',
    {
      base: request(object({ a: str, b: str, c: str }, { dependentRequired: { a: ['b'] } })),
      head: request(object({ a: str, b: str, c: str }, { dependentRequired: { a: ['b', 'c'] } })),
      want: [['request-constraint-added', 'error']],
    },
  ],
  [
    'dependentRequired of a name the schema requires anyway: no change',
    {
      base: request(object({ a: str, b: str }, { required: ['b'] })),
      head: request(object({ a: str, b: str }, { required: ['b'], dependentRequired: { a: ['b'] } })),
      want: [],
    },
  ],
  [
    'a dependentSchemas key added to a request',
    {
      base: request(object({ a: str })),
      head: request(object({ a: str }, { dependentSchemas: { a: { required: ['b'] } } })),
      want: [['request-constraint-added', 'error']],
    },
  ],
  [
    'a dependentSchemas schema tightened in place',
    {
      base: request(object({ a: str }, { dependentSchemas: { a: { properties: { b: { maxLength: 10 } } } } })),
      head: request(object({ a: str }, { dependentSchemas: { a: { properties: { b: { maxLength: 5 } } } } })),
      want: [['request-constraint-added', 'error']],
    },
  ],
  [
    'propertyNames tightened in a request (minLength 1 → 3)',
    {
      base: request({ type: 'object', propertyNames: { minLength: 1 } }),
      head: request({ type: 'object', propertyNames: { minLength: 3 } }),
      want: [['request-constraint-added', 'error']],
    },
  ],
  [
    'then tightened under the same if',
    {
      base: request({ type: 'object', if: { required: ['a'] }, then: { required: ['b'] } }),
      head: request({ type: 'object', if: { required: ['a'] }, then: { required: ['b', 'c'] } }),
      want: [['request-constraint-added', 'error']],
    },
  ],
  [
    'then changed under another if: undecided',
    {
      base: request({ type: 'object', if: { required: ['a'] }, then: { required: ['b'] } }),
      head: request({ type: 'object', if: { required: ['c'] }, then: { required: ['b', 'c'] } }),
      want: [['schema-change-undecided', 'warning']],
    },
  ],
  [
    'a patternProperties pattern added to an open request object',
    {
      base: request(object({ name: str })),
      head: request(object({ name: str }, { patternProperties: { '^x-': str } })),
      want: [['request-constraint-added', 'error']],
    },
  ],
  [
    'a patternProperties pattern removed from a response: x- keys may now hold anything',
    {
      base: response(object({ name: str }, { patternProperties: { '^x-': str } })),
      head: response(object({ name: str })),
      want: [['response-guarantee-removed', 'error']],
    },
  ],
  [
    'prefixItems added beside items: the first item changes type (one type change, said where it hurts)',
    {
      base: request({ type: 'array', items: str }),
      head: request({ type: 'array', items: str, prefixItems: [{ type: 'integer' }] }),
      want: [['request-type-narrowed', 'error']],
    },
  ],
  [
    'prefixItems added where items said nothing: a response promises its first item',
    {
      base: response({ type: 'array', prefixItems: [{ type: 'integer' }] }),
      head: response({ type: 'array' }),
      want: [['response-type-changed', 'error']],
    },
  ],
  [
    'prefixItems unchanged, written inside allOf: no change',
    {
      base: request({ type: 'array', prefixItems: [{ type: 'integer' }], items: str }),
      head: request({ allOf: [{ type: 'array' }, { prefixItems: [{ type: 'integer' }], items: str }] }),
      want: [],
    },
  ],
  [
    'a response const changed: it promised one value',
    {
      base: response(object({ kind: { type: 'string', const: 'card' } }, { required: ['kind'] })),
      head: response(object({ kind: { type: 'string', const: 'bank' } }, { required: ['kind'] })),
      want: [
        ['response-guarantee-removed', 'error'],
        ['response-constraint-tightened', 'info'],
      ],
    },
  ],
  [
    'a oneOf whose two parts both fit every old body: "exactly one" refuses them all',
    {
      base: request(object({ foo: str, bar: str }, { required: ['foo', 'bar'] })),
      head: request({
        oneOf: [
          object({ foo: str, bar: str }, { required: ['foo'] }),
          object({ foo: str, bar: str }, { required: ['bar'] }),
        ],
      }),
      want: [
        ['request-composition-narrowed', 'error'],
        ['schema-change-undecided', 'warning'],
      ],
    },
  ],
  [
    'an XML request body object → string: XML is text, a string body reads what the object was',
    {
      base: body({ 'application/xml': { schema: object({ name: str }) } }),
      head: body({ 'application/xml': { schema: str } }),
      want: [['request-property-undocumented', 'warning']],
    },
  ],
  [
    'an XML response object → string: the same text on the wire',
    {
      base: responses({ '200': { description: 'ok', content: { 'text/xml': { schema: object({ name: str }) } } } }),
      head: responses({ '200': { description: 'ok', content: { 'text/xml': { schema: str } } } }),
      want: [['response-optional-property-removed', 'warning']],
    },
  ],
  [
    'a JSON request body object → string: a type change all the same',
    {
      base: body({ 'application/json': { schema: object({ name: str }) } }),
      head: body({ 'application/json': { schema: str } }),
      want: [['request-type-narrowed', 'error']],
    },
  ],
  [
    'an XML request body string → integer: numerals only, still narrower',
    {
      base: body({ 'application/xml': { schema: str } }),
      head: body({ 'application/xml': { schema: { type: 'integer' } } }),
      want: [['request-type-narrowed', 'error']],
    },
  ],
  [
    'an x-extensible-enum value removed from a request',
    {
      base: request(object({ kind: { type: 'string', 'x-extensible-enum': ['a', 'b'] } })),
      head: request(object({ kind: { type: 'string', 'x-extensible-enum': ['a'] } })),
      want: [['request-enum-value-removed', 'error']],
    },
  ],
  [
    'an x-extensible-enum value added to a response: clients of an open set expect it',
    {
      base: response(object({ kind: { type: 'string', 'x-extensible-enum': ['a'] } })),
      head: response(object({ kind: { type: 'string', 'x-extensible-enum': ['a', 'b'] } })),
      want: [],
    },
  ],
  [
    'patternProperties added (beside additionalProperties: false it may accept more): undecided',
    {
      base: request(object({ a: str }, { additionalProperties: false })),
      head: request(object({ a: str }, { additionalProperties: false, patternProperties: { '^x-': str } })),
      want: [['schema-change-undecided', 'warning']],
    },
  ],
  // Parameters compared as the server reads them off the wire: text.
  [
    'a query parameter number → string: every numeral is a string on the wire',
    {
      base: params(query('n', { schema: { type: 'number' } })),
      head: params(query('n', { schema: str })),
      want: [['request-constraint-relaxed', 'info']],
    },
  ],
  [
    'a query parameter scalar → form array of it: one value is an array of one',
    {
      base: params(query('token', { schema: { type: ['string', 'integer'] } })),
      head: params(query('token', { schema: { type: 'array', items: str } })),
      want: [['request-constraint-relaxed', 'info']],
    },
  ],
  [
    'a query parameter string → number: text that is no numeral is refused',
    {
      base: params(query('n', { schema: str })),
      head: params(query('n', { schema: { type: 'number' } })),
      want: [['request-type-narrowed', 'error']],
    },
  ],
  [
    'a query parameter given an enum: a constraint added, not a type narrowed',
    {
      base: params(query('n', { schema: str })),
      head: params(query('n', { schema: { type: 'string', enum: ['a', 'b'] } })),
      want: [['request-constraint-added', 'error']],
    },
  ],
  // Patterns compared by the strings they accept (finite automata, refa), not by their text.
  [
    'a request pattern widened to any non-empty line',
    {
      base: request(object({ a: { type: 'string', pattern: '^[a-z]+$' } })),
      head: request(object({ a: { type: 'string', pattern: '.+' } })),
      want: [['request-constraint-relaxed', 'info']],
    },
  ],
  [
    'a request pattern that accepts anything (empty)',
    {
      base: request(object({ a: { type: 'string', pattern: '^\\w+$' } })),
      head: request(object({ a: { type: 'string', pattern: '' } })),
      want: [['request-constraint-relaxed', 'info']],
    },
  ],
  [
    'a request pattern narrowed (a smaller character class)',
    {
      base: request(object({ a: { type: 'string', pattern: '^[a-z]+$' } })),
      head: request(object({ a: { type: 'string', pattern: '^[a-c]+$' } })),
      want: [['request-pattern-added', 'error']],
    },
  ],
  [
    'a request pattern anchored (matching anywhere, now the whole string)',
    {
      base: request(object({ a: { type: 'string', pattern: 'abc' } })),
      head: request(object({ a: { type: 'string', pattern: '^abc$' } })),
      want: [['request-pattern-added', 'error']],
    },
  ],
  [
    'a request pattern the automata cannot read (a word boundary): undecided, not breaking',
    {
      base: request(object({ a: { type: 'string', pattern: '\\bfoo' } })),
      head: request(object({ a: { type: 'string', pattern: 'foo\\b' } })),
      want: [['schema-change-undecided', 'warning']],
    },
  ],
  [
    'a request pattern added',
    {
      base: request(object({ a: str })),
      head: request(object({ a: { type: 'string', pattern: '^[a-z]+$' } })),
      want: [['request-pattern-added', 'error']],
    },
  ],
  [
    'a request format added',
    {
      base: request(object({ a: str })),
      head: request(object({ a: { type: 'string', format: 'email' } })),
      want: [['request-constraint-added', 'error']],
    },
  ],
  [
    'a request body field default changed',
    {
      base: request(object({ a: { type: 'boolean', default: true } })),
      head: request(object({ a: { type: 'boolean', default: false } })),
      want: [['request-default-changed', 'warning']],
    },
  ],
  [
    'a request maxLength raised',
    {
      base: request(object({ a: { type: 'string', maxLength: 5 } })),
      head: request(object({ a: { type: 'string', maxLength: 10 } })),
      want: [['request-constraint-relaxed', 'info']],
    },
  ],
  [
    'a request enum value added',
    {
      base: request(object({ a: { enum: ['x'] } })),
      head: request(object({ a: { enum: ['x', 'y'] } })),
      want: [['request-constraint-relaxed', 'info']],
    },
  ],
  [
    'a type dropped from a request anyOf',
    {
      base: request({ anyOf: [{ type: 'string' }, { type: 'integer' }] }),
      head: request({ anyOf: [{ type: 'string' }] }),
      want: [['request-type-narrowed', 'error']],
    },
  ],
  [
    'a type added to a request anyOf',
    {
      base: request({ anyOf: [{ type: 'string' }] }),
      head: request({ anyOf: [{ type: 'string' }, { type: 'integer' }] }),
      want: [['request-constraint-relaxed', 'info']],
    },
  ],
  [
    'a readOnly field made required: required of responses only',
    {
      base: request(object({ id: { type: 'string', readOnly: true }, name: str }, { required: ['name'] })),
      head: request(object({ id: { type: 'string', readOnly: true }, name: str }, { required: ['name', 'id'] })),
      want: [],
    },
  ],
  [
    'a field readOnly through an allOf member made required: required of responses only',
    {
      base: request(object({ id: { allOf: [{ type: 'string', readOnly: true }] }, name: str }, { required: ['name'] })),
      head: request(
        object({ id: { allOf: [{ type: 'string', readOnly: true }] }, name: str }, { required: ['name', 'id'] }),
      ),
      want: [],
    },
  ],
  [
    'a writeOnly field removed from a response schema: responses never carried it',
    {
      base: response(
        object({ secret: { type: 'string', writeOnly: true }, name: str }, { required: ['name', 'secret'] }),
      ),
      head: response(object({ name: str }, { required: ['name'] })),
      want: [['response-optional-property-removed', 'warning']],
    },
  ],
  [
    'a readOnly field made required, in a response: required there',
    {
      base: response(object({ id: { type: 'string', readOnly: true }, name: str }, { required: ['name'] })),
      head: response(object({ id: { type: 'string', readOnly: true }, name: str }, { required: ['name', 'id'] })),
      want: [['response-constraint-tightened', 'info']],
    },
  ],
  [
    'the request body removed',
    {
      base: body({ 'application/json': json }, false),
      head: spec({ '/items': { post: { operationId: 'addItem', responses: { '204': ok } } } }),
      want: [['request-body-removed', 'error']],
    },
  ],
  // Responses
  [
    'a required response header removed',
    {
      base: responses({ '200': withHeaders({ 'X-Rate-Limit': { required: true, schema: str } }) }),
      head: responses({ '200': ok }),
      want: [['response-header-removed', 'error']],
    },
  ],
  [
    'an optional response header removed',
    {
      base: responses({ '200': withHeaders({ 'X-Trace': { schema: str } }) }),
      head: responses({ '200': ok }),
      want: [['response-optional-header-removed', 'warning']],
    },
  ],
  [
    'a required response header became optional',
    {
      base: responses({ '200': withHeaders({ 'X-Rate-Limit': { required: true, schema: str } }) }),
      head: responses({ '200': withHeaders({ 'X-Rate-Limit': { schema: str } }) }),
      want: [['response-header-became-optional', 'error']],
    },
  ],
  [
    'a response header added',
    {
      base: responses({ '200': ok }),
      head: responses({ '200': withHeaders({ 'X-Trace': { schema: str } }) }),
      want: [['response-header-added', 'info']],
    },
  ],
  [
    'a response header whose name changed case only is the same header',
    {
      base: responses({ '200': withHeaders({ 'X-Rate-Limit': { required: true, schema: str } }) }),
      head: responses({ '200': withHeaders({ 'x-rate-limit': { required: true, schema: str } }) }),
      want: [],
    },
  ],
  [
    'a response header that may now be any string',
    {
      base: responses({ '200': withHeaders({ 'X-Count': { schema: { type: 'integer' } } }) }),
      head: responses({ '200': withHeaders({ 'X-Count': { schema: str } }) }),
      want: [['response-type-changed', 'error']],
    },
  ],
  [
    'a response status removed',
    {
      base: responses({ '200': ok, '404': ok }),
      head: responses({ '200': ok }),
      want: [['response-status-removed', 'error']],
    },
  ],
  [
    'a response status added',
    {
      base: responses({ '200': ok }),
      head: responses({ '200': ok, '404': ok }),
      want: [['response-status-added', 'info']],
    },
  ],
  [
    'a response media type removed',
    {
      base: responses({ '200': { description: 'ok', content: { 'application/json': json, 'text/plain': json } } }),
      head: responses({ '200': { description: 'ok', content: { 'application/json': json } } }),
      want: [['response-media-type-removed', 'error']],
    },
  ],
  [
    'a response media type added',
    {
      base: responses({ '200': { description: 'ok', content: { 'application/json': json } } }),
      head: responses({ '200': { description: 'ok', content: { 'application/json': json, 'text/plain': json } } }),
      want: [['response-media-type-added', 'info']],
    },
  ],
  [
    'a required response field removed',
    {
      base: response(object({ a: str, b: str }, { required: ['a', 'b'] })),
      head: response(object({ a: str }, { required: ['a'] })),
      want: [['response-property-removed', 'error']],
    },
  ],
  [
    'an optional response field removed',
    {
      base: response(object({ a: str, b: str })),
      head: response(object({ a: str })),
      want: [['response-optional-property-removed', 'warning']],
    },
  ],
  [
    'a response field made optional',
    {
      base: response(object({ a: str }, { required: ['a'] })),
      head: response(object({ a: str })),
      want: [['response-property-became-optional', 'error']],
    },
  ],
  [
    'a response field made nullable',
    {
      base: response(object({ a: str })),
      head: response(object({ a: { type: ['string', 'null'] } })),
      want: [['response-property-became-nullable', 'error']],
    },
  ],
  [
    'a response field made nullable with anyOf',
    {
      base: response(object({ a: str })),
      head: response(object({ a: { anyOf: [str, { type: 'null' }] } })),
      want: [['response-property-became-nullable', 'error']],
    },
  ],
  [
    'a response field type changed',
    {
      base: response(object({ a: { type: 'integer' } })),
      head: response(object({ a: str })),
      want: [['response-type-changed', 'error']],
    },
  ],
  [
    'a response enum value added',
    {
      base: response(object({ a: { enum: ['x'] } })),
      head: response(object({ a: { enum: ['x', 'y'] } })),
      want: [['response-enum-value-added', 'warning']],
    },
  ],
  [
    'a response maxLength raised',
    {
      base: response(object({ a: { type: 'string', maxLength: 5 } })),
      head: response(object({ a: { type: 'string', maxLength: 10 } })),
      want: [['response-constraint-relaxed', 'warning']],
    },
  ],
  [
    'a response field added',
    {
      base: response(object({ a: str })),
      head: response(object({ a: str, b: str })),
      want: [['response-property-added', 'info']],
    },
  ],
  [
    'a response enum value removed',
    {
      base: response(object({ a: { enum: ['x', 'y'] } })),
      head: response(object({ a: { enum: ['x'] } })),
      want: [['response-constraint-tightened', 'info']],
    },
  ],
  [
    'a response type widened to a oneOf of string and integer',
    {
      base: response(object({ id: { type: 'integer' } })),
      head: response(object({ id: { oneOf: [{ type: 'integer' }, str] } })),
      want: [['response-type-changed', 'error']],
    },
  ],
  [
    'a response oneOf narrowed to one of its types',
    {
      base: response(object({ id: { oneOf: [{ type: 'integer' }, str] } })),
      head: response(object({ id: { type: 'integer' } })),
      want: [['response-constraint-tightened', 'info']],
    },
  ],
  [
    'a response object given a second shape in an anyOf',
    {
      base: response(object({ a: str }, { required: ['a'] })),
      head: response({ anyOf: [object({ a: str }, { required: ['a'] }), object({ b: str }, { required: ['b'] })] }),
      want: [['response-composition-widened', 'warning']],
    },
  ],
  [
    'a response anyOf reduced to one of its object shapes',
    {
      base: response({ anyOf: [object({ a: str }, { required: ['a'] }), object({ b: str }, { required: ['b'] })] }),
      head: response(object({ a: str }, { required: ['a'] })),
      want: [['response-composition-narrowed', 'info']],
    },
  ],
  [
    'a nullable response field written as type array and as anyOf',
    {
      base: response(object({ a: { type: ['string', 'null'] } })),
      head: response(object({ a: { anyOf: [str, { type: 'null' }] } })),
      want: [],
    },
  ],
  // The placement rule (allOf + anyOf), both directions
  [
    'the placement rule rewritten into an equivalent form',
    { base: pl(['top', 'order']).response, head: pl(['top', 'order'], 'flat').response, want: [] },
  ],
  [
    'the placement rule with its branches reordered',
    { base: pl(['top', 'order']).response, head: pl(['order', 'top']).response, want: [] },
  ],
  [
    'a third accepted place added to a response placement rule',
    {
      base: pl(['top', 'order']).response,
      head: pl(['top', 'customer', 'order']).response,
      want: [['response-composition-widened', 'warning']],
    },
  ],
  [
    'one of the two places removed from a response placement rule',
    {
      base: pl(['top', 'order']).response,
      head: pl(['top']).response,
      want: [['response-composition-narrowed', 'info']],
    },
  ],
  [
    'a third accepted place added to a request placement rule',
    {
      base: pl(['top', 'order']).request,
      head: pl(['top', 'customer', 'order']).request,
      want: [['request-composition-widened', 'info']],
    },
  ],
  [
    'one of the two places removed from a request placement rule',
    {
      base: pl(['top', 'order']).request,
      head: pl(['top']).request,
      want: [['request-composition-narrowed', 'error']],
    },
  ],
  [
    'a currency added to the enum inside the placement rule',
    {
      base: pl(['top', 'order']).response,
      head: pl(['top', 'order']).response.replace('"USD"', '"USD", "GBP"'),
      want: [['response-enum-value-added', 'warning']],
    },
  ],
  // What cannot be decided is said, not guessed
  [
    'a branch added to a oneOf whose branches overlap',
    {
      base: response({ oneOf: [object({ a: str }, { required: ['a'] }), object({ b: str }, { required: ['b'] })] }),
      head: response({
        oneOf: [
          object({ a: str }, { required: ['a'] }),
          object({ b: str }, { required: ['b'] }),
          object({ c: str }, { required: ['c'] }),
        ],
      }),
      want: [['schema-change-undecided', 'warning']],
    },
  ],
  [
    'a `not` changed: compared the other way round ("x" may come now, "y" no longer)',
    {
      base: response(object({ a: { type: 'string', not: { const: 'x' } } })),
      head: response(object({ a: { type: 'string', not: { const: 'y' } } })),
      want: [
        ['response-guarantee-removed', 'error'],
        ['response-constraint-tightened', 'info'],
      ],
    },
  ],
  [
    'only descriptions and examples changed',
    {
      base: response(object({ a: { type: 'string', description: 'one', examples: ['x'] } })),
      head: response(object({ a: { type: 'string', description: 'two', examples: ['y'] } })),
      want: [],
    },
  ],
  // Where each change points, and what is no change at all: the shapes a spec may take that the diff must walk past.
  [
    'a path item, a response, headers or a header that is null: nothing to compare',
    {
      base: spec({
        '/a': { get: { responses: { '200': null, '201': { description: 'x', headers: null } } } },
        '/b': null,
        '/c': { get: { responses: { '200': { description: 'x', headers: { 'X-A': null } } } } },
      }),
      head: spec({
        '/a': { get: { responses: { '200': null, '201': { description: 'x', headers: null } } } },
        '/b': null,
        '/c': { get: { responses: { '200': { description: 'x', headers: { 'X-A': null } } } } },
      }),
      want: [],
    },
  ],
  [
    'content that is no map of media types',
    {
      base: getItems({ responses: { '200': { description: 'x', content: 'ab' } } }),
      head: getItems({ responses: { '200': { description: 'x', content: 'abc' } } }),
      want: [],
    },
  ],
  [
    'a request body that is null is no body removed',
    {
      base: spec({
        '/a': {
          post: { requestBody: { content: { 'application/json': { schema: str } } }, responses: { '200': ok } },
        },
      }),
      head: spec({ '/a': { post: { requestBody: null, responses: { '200': ok } } } }),
      want: [],
    },
  ],
  [
    'a required request body added where there was none',
    {
      base: spec({ '/a': { post: { responses: { '200': ok } } } }),
      head: spec({
        '/a': {
          post: {
            requestBody: { required: true, content: { 'application/json': { schema: str } } },
            responses: { '200': ok },
          },
        },
      }),
      want: [['request-body-became-required', 'error']],
    },
  ],
  [
    'a webhook that is null, and one whose payload is no longer documented',
    {
      base: spec({}, { webhooks: { gone: hook(object({ id: str })) } }),
      head: spec({}, { webhooks: { gone: { post: { responses: { '200': ok } } }, added: null } }),
      want: [],
    },
  ],
  [
    'a webhook payload with a field added: located in HEAD',
    {
      base: spec({}, { webhooks: { orderCreated: hook(object({ id: str })) } }),
      head: spec({}, { webhooks: { orderCreated: hook(object({ id: str, total: { type: 'integer' } })) } }),
      want: [['response-property-added', 'info']],
    },
  ],
  [
    'a path with an empty segment is another path than one with a parameter there',
    {
      base: spec({ '/a/{id}': { get: { responses: { '200': ok } } } }),
      head: spec({ '/a/': { get: { responses: { '200': ok } } } }),
      want: [
        ['path-removed', 'error'],
        ['operation-added', 'info'],
      ],
    },
  ],
  [
    'two templates of one path: the same template paired first, the other removed',
    {
      base: spec({
        '/r/{a}': { get: { parameters: [query('qa')], responses: { '200': ok } } },
        '/r/{b}': { get: { parameters: [query('qb')], responses: { '200': ok } } },
      }),
      head: spec({ '/r/{b}': { get: { parameters: [query('qb')], responses: { '200': ok } } } }),
      want: [['operation-removed', 'error']],
    },
  ],
  [
    'two templates of one path, both renamed: paired in template order',
    {
      base: spec({
        '/r/{b}': { get: { parameters: [query('qb')], responses: { '200': ok } } },
        '/r/{a}': { get: { parameters: [query('qa')], responses: { '200': ok } } },
      }),
      head: spec({
        '/r/{c}': { get: { parameters: [query('qa')], responses: { '200': ok } } },
        '/r/{d}': { get: { parameters: [query('qb')], responses: { '200': ok } } },
      }),
      want: [],
    },
  ],
  [
    'a second template of a path with its own operation',
    {
      base: spec({ '/r/{a}': { get: { responses: { '200': ok } } } }),
      head: spec({
        '/r/{a}': { get: { responses: { '200': ok } } },
        '/r/{b}': { get: { responses: { '200': ok } } },
      }),
      want: [['operation-added', 'info']],
    },
  ],
  [
    'security: one alternative of two kept is no security removed',
    {
      base: getItems({ security: [{ key: [] }, { other: [] }] }, twoKeys),
      head: getItems({ security: [{ key: [] }] }, twoKeys),
      want: [['request-security-added', 'error']],
    },
  ],
  [
    'security: a client with none must now meet one of two alternatives',
    {
      base: getItems({}, apiKey),
      head: getItems({ security: [{ key: [] }, { other: [] }] }, twoKeys),
      want: [['request-security-added', 'error']],
    },
  ],
  [
    'parameters with no name or no place are none',
    {
      base: params({ in: 'query', schema: str }, { name: 'x', schema: str }, { name: 1, in: 'query' }),
      head: params(),
      want: [],
    },
  ],
  [
    'a query parameter’s enum narrowed: located in BASE',
    {
      base: params(query('q', { schema: { type: 'string', enum: ['a', 'b'] } })),
      head: params(query('q', { schema: { type: 'string', enum: ['a'] } })),
      want: [['request-enum-value-removed', 'error']],
    },
  ],
  [
    'two path parameters, the first narrowed',
    {
      base: spec({
        '/a/{x}/{y}': {
          get: {
            parameters: [
              { name: 'x', in: 'path', required: true, schema: { type: 'string', maxLength: 5 } },
              { name: 'y', in: 'path', required: true, schema: str },
            ],
            responses: { '200': ok },
          },
        },
      }),
      head: spec({
        '/a/{x}/{y}': {
          get: {
            parameters: [
              { name: 'x', in: 'path', required: true, schema: { type: 'string', maxLength: 3 } },
              { name: 'y', in: 'path', required: true, schema: str },
            ],
            responses: { '200': ok },
          },
        },
      }),
      want: [['request-max-lowered', 'error']],
    },
  ],
  [
    'a response header’s const promise dropped: located in BASE',
    {
      base: responses({ '200': withHeaders({ 'X-Mode': { schema: { const: 'a' } } }) }),
      head: responses({ '200': withHeaders({ 'X-Mode': { schema: { enum: ['a', 'b'] } } }) }),
      want: [['response-guarantee-removed', 'error']],
    },
  ],
  [
    'a response header’s schema dropped on one side: not compared',
    {
      base: responses({ '200': withHeaders({ 'X-Mode': { schema: { const: 'a' } } }) }),
      head: responses({ '200': withHeaders({ 'X-Mode': { description: 'the mode' } }) }),
      want: [],
    },
  ],
  [
    'one component in a body and a header: one change, under its shorter message',
    {
      base: getItems(
        {
          responses: {
            '200': {
              description: 'ok',
              headers: { 'X-Id': { schema: { $ref: '#/components/schemas/Id' } } },
              content: { 'application/json': { schema: object({ id: { $ref: '#/components/schemas/Id' } }) } },
            },
          },
        },
        { components: { schemas: { Id: { type: 'string', maxLength: 5 } } } },
      ),
      head: getItems(
        {
          responses: {
            '200': {
              description: 'ok',
              headers: { 'X-Id': { schema: { $ref: '#/components/schemas/Id' } } },
              content: { 'application/json': { schema: object({ id: { $ref: '#/components/schemas/Id' } }) } },
            },
          },
        },
        { components: { schemas: { Id: { type: 'string', maxLength: 9 } } } },
      ),
      want: [['response-constraint-relaxed', 'warning']],
    },
  ],
  [
    'a writeOnly field dropped from a response is no required field removed',
    {
      base: response(object({ id: str, secret: { type: 'string', writeOnly: true } }, { required: ['id', 'secret'] })),
      head: response(object({ id: str }, { required: ['id'] })),
      want: [['response-optional-property-removed', 'warning']],
    },
  ],
];

const key = ([rule, level]: [string, string]) => `${rule}:${level}`;

describe('contracts diff rules', () => {
  it.each(cases)('classifies %s', (_name, { base, head, want }) => {
    const changes = diffSpecs(load('base.json', base), load('head.json', head));
    const got = [...new Set(changes.map((c) => key([c.rule, c.level])))].sort();
    expect(got).toEqual([...new Set(want.map(key))].sort());
  });

  // Each change whole, as reports and GitHub annotations show it: rule, level, message, the operations it touches,
  // which side and where (file, line, column, path), in the order given. Reviewed when written
  // (tests/diff/__snapshots__/diff-rules.test.ts.snap); a change to any of it shows as a diff there.
  it.each(cases)('says whole what changed: %s', (_name, { base, head }) => {
    expect(diffSpecs(load('base.json', base), load('head.json', head))).toMatchSnapshot();
  });

  it('has at least one table-driven case for every rule in the table', () => {
    const covered = new Set(cases.flatMap(([, { want }]) => want.map(([rule]) => rule)));
    expect(diffRules.map((rule) => rule.id).filter((id) => !covered.has(id))).toEqual([]);
  });

  it("states each case's levels as the rule table does", () => {
    const levels = new Map(diffRules.map((rule) => [rule.id, rule.level]));
    for (const [, { want }] of cases)
      for (const [rule, level] of want) expect(`${rule}:${level}`).toBe(`${rule}:${levels.get(rule)}`);
  });

  it('locates a change in HEAD, and what was removed in BASE', () => {
    const base = load('base.json', response(object({ a: str, b: str }, { required: ['a', 'b'] })));
    const head = load('head.json', response(object({ a: { enum: ['x'] } }, { required: ['a'] })).replace('"x"', '"x"'));
    const changes = diffSpecs(base, head);
    const removed = changes.find((c) => c.rule === 'response-property-removed')!;
    expect([removed.file, removed.side]).toEqual(['base.json', 'base']);
    expect(base.source.split('\n')[removed.line - 1]).toContain('"b"');
  });
});

describe('composition verdicts show their evidence', () => {
  const message = (base: string, head: string) =>
    diffSpecs(load('base.json', base), load('head.json', head)).map((c) => c.message);

  it('shows an instance the real validators accept in HEAD and refuse in BASE for a new branch', () => {
    const { schema, components } = placement(['top', 'order']);
    const widened = placement(['top', 'customer', 'order']);
    expect(
      message(response(schema, { components }), response(widened.schema, { components: widened.components })),
    ).toEqual([
      'response body: "customer" of the anyOf at /paths/~1items/get/responses/200/content/application~1json/schema/allOf/1 is new: clients may meet a shape they never saw, e.g. {"customer":{"paymentMethod":{}}} (refused before, accepted now)',
    ]);
  });

  it('shows an instance accepted before and refused now for a branch that is gone', () => {
    const { schema, components } = placement(['top', 'order']);
    const narrowed = placement(['top']);
    expect(
      message(request(schema, { components }), request(narrowed.schema, { components: narrowed.components }))[0],
    ).toMatch(
      /^request body: "order" of the anyOf at .* is gone: bodies only it accepted are refused now, e.g. \{"order":\{"paymentMethod":\{\}\}\} \(accepted before, refused now\)$/,
    );
  });

  it('shows no example when the validators do not confirm it', () => {
    const one = object({ a: str }, { required: ['a'] });
    const notEmpty = object({ c: { type: 'string', not: { const: '' } } }, { required: ['c'] });
    const [only] = message(response({ anyOf: [one] }), response({ anyOf: [one, notEmpty] }));
    expect(only).toMatch(/is new: clients may meet a shape they never saw$/);
  });
});

describe('composition verdicts deep inside a value', () => {
  it('shows the new branch inside a whole instance that HEAD accepts and BASE refuses', () => {
    const shapes = [object({ card: str }, { required: ['card'] }), object({ iban: str }, { required: ['iban'] })];
    const wallet = object({ wallet: str }, { required: ['wallet'] });
    const base = response(
      object({ id: { type: 'integer' }, method: { anyOf: shapes } }, { required: ['id', 'method'] }),
    );
    const head = response(
      object({ id: { type: 'integer' }, method: { anyOf: [...shapes, wallet] } }, { required: ['id', 'method'] }),
    );
    const changes = diffSpecs(load('base.json', base), load('head.json', head));
    expect(changes.map((c) => [c.rule, c.message])).toEqual([
      [
        'response-composition-widened',
        expect.stringMatching(
          /^response body \/method: .* is new: .*, e\.g\. \{"id":0,"method":\{"wallet":""\}\} \(refused before, accepted now\)$/,
        ),
      ],
    ]);
  });
});

describe('changes reported once, in order', () => {
  // One component, reached from two operations' responses and from a request body.
  const shared = (properties: Record<string, unknown>, required: string[]) =>
    spec(
      {
        '/a': {
          get: {
            operationId: 'getA',
            responses: {
              '200': {
                description: 'ok',
                content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } },
              },
            },
          },
        },
        '/b': {
          get: {
            operationId: 'getB',
            responses: {
              '200': {
                description: 'ok',
                content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } },
              },
            },
          },
          post: {
            operationId: 'postB',
            requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } },
            responses: { '204': { description: 'ok' } },
          },
        },
      },
      { components: { schemas: { Thing: object(properties, { required }) } } },
    );

  it('merges the same change at the same place into one, with every operation it touches', () => {
    const changes = diffSpecs(
      load('base.json', shared({ a: str, b: str }, ['a', 'b'])),
      load('head.json', shared({ a: str }, ['a'])),
    );
    expect(changes.map(({ rule, level, side, operations, path }) => ({ rule, level, side, operations, path }))).toEqual(
      [
        {
          rule: 'response-property-removed',
          level: 'error',
          side: 'base',
          operations: ['GET /a → 200 (application/json)', 'GET /b → 200 (application/json)'],
          path: ['components', 'schemas', 'Thing', 'required', 1],
        },
        {
          rule: 'request-property-undocumented',
          level: 'warning',
          side: 'base',
          operations: ['POST /b (application/json)'],
          path: ['components', 'schemas', 'Thing', 'properties', 'b'],
        },
        {
          rule: 'request-constraint-relaxed',
          level: 'info',
          side: 'head',
          operations: ['POST /b (application/json)'],
          path: ['paths', '/b', 'post', 'requestBody', 'content', 'application/json', 'schema'],
        },
      ],
    );
  });

  it('orders changes by level, then file, then line, then rule', () => {
    const at = (
      level: 'error' | 'warning' | 'info',
      file: string,
      line: number,
      rule: 'path-removed' | 'operation-added',
    ): SpecChange => ({ rule, level, message: '', operations: [], side: 'head', file, line, column: 1, path: [] });
    const sorted = [
      at('info', 'a', 1, 'operation-added'),
      at('error', 'b', 1, 'path-removed'),
      at('warning', 'a', 2, 'path-removed'),
      at('error', 'a', 9, 'path-removed'),
      at('error', 'a', 2, 'path-removed'),
      at('error', 'a', 2, 'operation-added'),
    ].sort(compareChanges);
    expect(sorted.map((c) => `${c.level} ${c.file}:${c.line} ${c.rule}`)).toEqual([
      'error a:2 operation-added',
      'error a:2 path-removed',
      'error a:9 path-removed',
      'error b:1 path-removed',
      'warning a:2 path-removed',
      'info a:1 operation-added',
    ]);
  });

  it('matches a parameter moved by its name only, not another parameter of the new place', () => {
    const changes = diffSpecs(
      load('base.json', params(query('q'), query('r'))),
      load('head.json', params({ name: 'q', in: 'header', schema: str }, query('r'))),
    );
    expect(changes.map(({ rule, message, path }) => ({ rule, message, path }))).toEqual([
      {
        rule: 'request-parameter-moved',
        message: 'parameter q moved from query to header',
        path: ['paths', '/items', 'get', 'parameters', 0, 'in'],
      },
    ]);
  });
});
