// The request check reads each parameter as OpenAPI 3.1 section 4.8.12 says it crosses the wire: its style and
// explode (form lists, simple-style path arrays and header objects, deepObject), cookies, `content`-typed parameters,
// and allowReserved. Each row is a request and its findings, whole.
import { describe, expect, it } from 'vitest';
import { checkRequest, splitTarget, type RequestRecord } from '../../src/core/check-request.js';
import { compileContract } from '../../src/core/compile-contract.js';
import { parseSpec } from '../../src/core/load-spec.js';
import type { Finding } from '../../src/core/finding.js';

const ok = { description: 'ok' };
const spec = {
  openapi: '3.1.0',
  info: { title: 'styles', version: '1' },
  paths: {
    '/items': {
      get: {
        operationId: 'listItems',
        parameters: [
          {
            name: 'ids',
            in: 'query',
            style: 'form',
            explode: false,
            schema: { type: 'array', items: { type: 'string' }, maxItems: 2 },
          },
          { name: 'nums', in: 'query', explode: false, schema: { type: 'array', items: { type: 'integer' } } },
          {
            name: 'filter',
            in: 'query',
            style: 'deepObject',
            schema: {
              type: 'object',
              properties: { min: { type: 'integer' }, max: { type: 'integer' } },
              additionalProperties: false,
            },
          },
          {
            name: 'coords',
            in: 'query',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['lat', 'long'],
                  properties: { lat: { type: 'number' }, long: { type: 'number' } },
                },
              },
            },
          },
          { name: 'q', in: 'query', schema: { type: 'string' } },
          { name: 'next', in: 'query', allowReserved: true, schema: { type: 'string' } },
          {
            name: 'X-Point',
            in: 'header',
            explode: true,
            schema: {
              type: 'object',
              required: ['x', 'y'],
              properties: { x: { type: 'integer' }, y: { type: 'integer' } },
            },
          },
          { name: 'lang', in: 'cookie', required: true, schema: { type: 'string', enum: ['en', 'fr'] } },
        ],
        responses: { '200': ok },
      },
    },
    '/shapes/{ids}': {
      get: {
        operationId: 'getShapes',
        parameters: [
          { name: 'ids', in: 'path', required: true, schema: { type: 'array', items: { type: 'integer' } } },
        ],
        responses: { '200': ok },
      },
    },
    '/colors/{color}': {
      get: {
        operationId: 'getColor',
        parameters: [
          {
            name: 'color',
            in: 'path',
            required: true,
            style: 'matrix',
            explode: true,
            schema: { type: 'array', items: { type: 'string', enum: ['blue', 'black'] } },
          },
        ],
        responses: { '200': ok },
      },
    },
  },
};
const contract = compileContract(parseSpec('styles.json', JSON.stringify(spec)));

const withCookie = { cookie: 'lang=en' };
const request = (target: string, headers: Record<string, string> = withCookie): RequestRecord => ({
  method: 'GET',
  ...splitTarget(target),
  headers,
  body: '',
});
const finding = (operation: string, fields: Partial<Finding> & { message: string }): Finding => ({
  check: 'request_parameters_conformance',
  severity: 'error',
  operation,
  instancePath: '',
  ...fields,
});

const rows: [string, RequestRecord, Finding[]][] = [
  [
    'a form list of three where two at most are allowed (`?ids=a,b,c`, explode false)',
    request('/items?ids=a,b,c'),
    [
      finding('listItems', {
        message: 'query parameter ids must NOT have more than 2 items: got "a,b,c"',
        schemaPath: '/maxItems',
        actual: 'a,b,c',
      }),
    ],
  ],
  ['a form list of two (`?ids=1,2`)', request('/items?ids=1,2'), []],
  ['a form list of integers (`?nums=1,2`), each item typed', request('/items?nums=1,2'), []],
  ['a form list with an item carrying its comma encoded (`?ids=a%2Cb,c`)', request('/items?ids=a%2Cb,c'), []],
  ['a simple-style path array of integers', request('/shapes/1,2,3'), []],
  [
    'a simple-style path array with an item that is no integer',
    request('/shapes/1,x'),
    [
      finding('getShapes', {
        message: 'path parameter ids/1 must be integer: got "1,x"',
        schemaPath: '/items/type',
        actual: '1,x',
      }),
    ],
  ],
  ['an exploded matrix path array', request('/colors/;color=blue;color=black'), []],
  [
    'a matrix path parameter sent without its ;name',
    request('/colors/blue'),
    [finding('getColor', { message: 'path parameter color is not written in matrix style: got "blue"' })],
  ],
  ['a header object, exploded', request('/items', { ...withCookie, 'x-point': 'x=1,y=2' }), []],
  [
    'a header object whose y is no integer',
    request('/items', { ...withCookie, 'x-point': 'x=1,y=a' }),
    [
      finding('listItems', {
        message: 'header parameter X-Point/y must be integer: got "x=1,y=a"',
        schemaPath: '/properties/y/type',
        actual: 'x=1,y=a',
      }),
    ],
  ],
  ['a deepObject query', request('/items?filter[min]=1&filter[max]=5'), []],
  [
    'a deepObject query with a key its schema does not allow',
    request('/items?filter[min]=1&filter%5Bcolor%5D=red'),
    [
      finding('listItems', {
        message:
          'query parameter filter has a property the schema does not allow: "color": got {"min":1,"color":"red"}',
        schemaPath: '/additionalProperties',
        actual: { min: 1, color: 'red' },
      }),
    ],
  ],
  [
    'a missing required cookie parameter',
    request('/items', {}),
    [finding('listItems', { message: 'the required cookie parameter lang is missing' })],
  ],
  [
    'a cookie parameter outside its enum',
    request('/items', { cookie: 'theme=dark; lang=de' }),
    [
      finding('listItems', {
        message: 'cookie parameter lang must be one of the allowed values ("en", "fr"): got "de"',
        schemaPath: '/enum',
        actual: 'de',
      }),
    ],
  ],
  ['a content-typed JSON query parameter', request('/items?coords=%7B%22lat%22%3A1%2C%22long%22%3A2%7D'), []],
  [
    'a content-typed JSON query parameter missing a required property',
    request('/items?coords=%7B%22lat%22%3A1%7D'),
    [
      finding('listItems', {
        message: 'query parameter coords must have required property "long": got "{\\"lat\\":1}"',
        schemaPath: '/required',
        actual: '{"lat":1}',
      }),
    ],
  ],
  [
    'a content-typed JSON query parameter that is no JSON',
    request('/items?coords=lat'),
    [finding('listItems', { message: 'query parameter coords is not application/json: got "lat"' })],
  ],
  [
    'a reserved character sent raw where allowReserved is false: a warning (a SHOULD)',
    request('/items?q=a/b'),
    [
      finding('listItems', {
        severity: 'warning',
        message: 'query parameter q carries "/" not percent-encoded, and its allowReserved is false',
      }),
    ],
  ],
  ['the same character percent-encoded', request('/items?q=a%2Fb'), []],
  ['a reserved character sent raw where allowReserved is true', request('/items?next=/a?b=c'), []],
];

describe('request parameters read by their style', () => {
  it.each(rows)('%s', (_name, given, want) => {
    expect(checkRequest(contract, given).findings).toEqual(want);
  });
});
