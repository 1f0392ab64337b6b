// The core's request checks on a spec of their own, each row a request and its findings whole (check, severity,
// operation, path, schema path, message, actual): security alternatives of every kind, parameters in path, query
// (repeated, arrays) and headers, bodies in media ranges. The records are in __snapshots__/request-findings.test.ts.snap,
// reviewed when written; the check names are asserted here too, so a row says what it is about.
import { describe, expect, it } from 'vitest';
import { checkRequest, splitTarget, type RequestRecord } from '../../src/core/check-request.js';
import { compileContract } from '../../src/core/compile-contract.js';
import { parseSpec } from '../../src/core/load-spec.js';

const ok = { description: 'ok' };
const spec = {
  openapi: '3.1.0',
  info: { title: 'requests', version: '1' },
  components: {
    securitySchemes: {
      key: { type: 'apiKey', in: 'header', name: 'X-Key' },
      token: { type: 'apiKey', in: 'query', name: 'token' },
      session: { type: 'apiKey', in: 'cookie', name: 'sid' },
      bearer: { type: 'http', scheme: 'bearer' },
    },
  },
  security: [{ key: [] }, { token: [], session: [] }, { bearer: [] }],
  paths: {
    '/items/{id}': {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } }],
      get: {
        operationId: 'getItem',
        parameters: [
          { name: 'tags', in: 'query', schema: { type: 'array', items: { type: 'string', enum: ['a', 'b'] } } },
          { name: 'limit', in: 'query', required: true, schema: { type: 'integer', maximum: 10 } },
          { name: 'X-Trace', in: 'header', schema: { type: 'string', maxLength: 4 } },
          { name: 'X-Key', in: 'header', schema: { type: 'string', minLength: 8 } },
          { name: 'ids', in: 'query', schema: { type: 'array', items: { type: 'integer', maximum: 5 } } },
          { name: 'any', in: 'query', schema: { type: 'array' } },
          { name: 'mode', in: 'query', schema: { type: 'string', enum: ['nobody'] } },
        ],
        responses: { '200': ok },
      },
      put: {
        operationId: 'putItem',
        security: [],
        requestBody: {
          required: true,
          content: {
            'application/merge-patch+json': {
              schema: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
            },
            'image/*': { schema: { type: 'string', contentEncoding: 'base64' } },
          },
        },
        responses: { '204': ok },
      },
      patch: {
        operationId: 'patchItem',
        security: [],
        requestBody: { content: { '*/*': {} } },
        responses: { '204': ok },
      },
      delete: { operationId: 'deleteItem', security: [], responses: { '204': ok } },
    },
    '/ping': { get: { operationId: 'ping', security: [], responses: { '204': ok } } },
  },
};
const contract = compileContract(parseSpec('requests.json', JSON.stringify(spec)));

const request = (
  method: string,
  target: string,
  headers: Record<string, string> = {},
  body = '',
  extra: Partial<RequestRecord> = {},
): RequestRecord => ({ method, ...splitTarget(target), headers, body, ...extra });
const keyed = { 'x-key': 'key-12345' };

const cases: [string, RequestRecord, string[]][] = [
  ['a request with the header key', request('GET', '/items/1?limit=1', keyed), []],
  [
    'with the query token and the cookie together',
    request('GET', '/items/1?limit=1&token=t', { cookie: 'a=1; sid=s' }),
    [],
  ],
  ['with a bearer token, any case', request('GET', '/items/1?limit=1', { authorization: 'bEaReR abc' }), []],
  ['with no credential', request('GET', '/items/1?limit=1'), ['request_security_conformance']],
  [
    'with the token but not the cookie',
    request('GET', '/items/1?limit=1&token=t', { cookie: 'sidx=1' }),
    ['request_security_conformance'],
  ],
  [
    'with a blank key',
    request('GET', '/items/1?limit=1', { 'x-key': '  ' }),
    ['request_security_conformance', 'request_parameters_conformance'],
  ],
  [
    'with a Basic authorization',
    request('GET', '/items/1?limit=1', { authorization: 'Basic abc' }),
    ['request_security_conformance'],
  ],
  [
    'with "Bearer" and no token after it',
    request('GET', '/items/1?limit=1', { authorization: 'Bearer' }),
    ['request_security_conformance'],
  ],
  [
    'a path parameter that is no integer',
    request('GET', '/items/x?limit=1', keyed),
    ['request_parameters_conformance'],
  ],
  ['a path parameter below its minimum', request('GET', '/items/0?limit=1', keyed), ['request_parameters_conformance']],
  ['the required query parameter missing', request('GET', '/items/1', keyed), ['request_parameters_conformance']],
  [
    'a query parameter over its maximum',
    request('GET', '/items/1?limit=11', keyed),
    ['request_parameters_conformance'],
  ],
  [
    'a repeated array parameter with one bad item',
    request('GET', '/items/1?limit=1&tags=a&tags=c', keyed),
    ['request_parameters_conformance'],
  ],
  ['a repeated array parameter', request('GET', '/items/1?limit=1&tags=a&tags=b', keyed), []],
  // Each item read off the wire as its items schema says: "3" is the integer 3.
  ['an array of integers', request('GET', '/items/1?limit=1&ids=3&ids=4', keyed), []],
  [
    'an array of integers with one over its maximum',
    request('GET', '/items/1?limit=1&ids=3&ids=9', keyed),
    ['request_parameters_conformance'],
  ],
  ['an array with no items schema: any text', request('GET', '/items/1?limit=1&any=x&any=1', keyed), []],
  [
    'an enum value that holds the word "body": the message keeps it',
    request('GET', '/items/1?limit=1&mode=x', keyed),
    ['request_parameters_conformance'],
  ],
  [
    'a header value exactly as long as a finding shows (100 characters quoted)',
    request('GET', '/items/1?limit=1', { ...keyed, 'x-trace': 'x'.repeat(98) }),
    ['request_parameters_conformance'],
  ],
  [
    'a header parameter too long, its value shown',
    request('GET', '/items/1?limit=1', { ...keyed, 'x-trace': 'abcdef' }),
    ['request_parameters_conformance'],
  ],
  [
    'a very long header value, described by its length and not carried',
    request('GET', '/items/1?limit=1', { ...keyed, 'x-trace': 'x'.repeat(200) }),
    ['request_parameters_conformance'],
  ],
  [
    'a credential header that breaks its schema: the value never shown',
    request('GET', '/items/1?limit=1', { 'x-key': 'short' }),
    ['request_parameters_conformance'],
  ],
  [
    'a merge-patch body that keeps its schema',
    request('PUT', '/items/1', { 'content-type': 'application/merge-patch+json' }, '{"name":"n"}'),
    [],
  ],
  [
    'a merge-patch body that breaks it',
    request('PUT', '/items/1', { 'content-type': 'application/merge-patch+json' }, '{"name":1}'),
    ['request_body_conformance'],
  ],
  [
    'a merge-patch body that is not JSON',
    request('PUT', '/items/1', { 'content-type': 'application/merge-patch+json' }, '{"name"'),
    ['request_body_conformance'],
  ],
  ['an image under image/*', request('PUT', '/items/1', { 'content-type': 'image/png' }, 'PNG'), []],
  [
    'a media type not documented',
    request('PUT', '/items/1', { 'content-type': 'text/plain' }, 'hi'),
    ['request_body_conformance'],
  ],
  ['a body without a content type', request('PUT', '/items/1', {}, 'hi'), ['request_body_conformance']],
  ['the required body missing', request('PUT', '/items/1'), ['request_body_conformance']],
  [
    'a body over the limit: a warning, not checked',
    request('PUT', '/items/1', { 'content-type': 'application/merge-patch+json' }, '', { bodyTooLarge: 1024 }),
    ['request_body_conformance'],
  ],
  ['any body under */*', request('PATCH', '/items/1', { 'content-type': 'application/x-anything' }, 'x'), []],
  ['no body where it is optional', request('PATCH', '/items/1'), []],
  [
    'a body where none is taken',
    request('DELETE', '/items/1', { 'content-type': 'application/json' }, '{}'),
    ['request_body_conformance'],
  ],
  ['a method the path does not have', request('POST', '/items/1', keyed), ['operation_matching']],
];

describe('the request checks, finding by finding', () => {
  it.each(cases)('%s', (_name, given, checks) => {
    const { findings } = checkRequest(contract, given);
    expect([...new Set(findings.map((finding) => finding.check))]).toEqual(checks);
    expect(findings).toMatchSnapshot();
  });

  it('applies the parameter check only where the operation has parameters', () => {
    expect(checkRequest(contract, request('GET', '/ping')).applied).not.toContain('request_parameters_conformance');
    expect(checkRequest(contract, request('DELETE', '/items/1')).applied).toContain('request_parameters_conformance');
  });

  it('never shows a credential parameter’s value', () => {
    const { findings } = checkRequest(contract, request('GET', '/items/1?limit=1', { 'x-key': 'short' }));
    expect(JSON.stringify(findings)).not.toContain('short"');
  });
});
