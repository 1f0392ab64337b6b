// Which documented content key a Content-Type selects, for responses and request bodies (media-type.ts): parameters
// as RFC 9110 section 8.3.1 reads them, ranges by specificity (OpenAPI 3.1 section 4.8.14), +json read as JSON.
// Each record is asserted whole.
import { describe, expect, it } from 'vitest';
import { checkExchange } from '../../src/core/check-exchange.js';
import { checkRequest, splitTarget } from '../../src/core/check-request.js';
import { compileContract } from '../../src/core/compile-contract.js';
import { parseSpec } from '../../src/core/load-spec.js';

const named = { type: 'object', required: ['name'], properties: { name: { type: 'string' } } };
const counted = { type: 'object', required: ['count'], properties: { count: { type: 'integer' } } };
const content = (keys: Record<string, object>) =>
  Object.fromEntries(Object.entries(keys).map(([key, schema]) => [key, { schema }]));
const operation = (operationId: string, keys: Record<string, object>) => ({
  operationId,
  requestBody: { content: content(keys) },
  responses: { '200': { description: 'ok', content: content(keys) } },
});
const spec = {
  openapi: '3.1.0',
  info: { title: 'media types', version: '1' },
  paths: {
    '/charset': { post: operation('charset', { 'application/json; charset=utf-8': named }) },
    '/version': { post: operation('version', { 'application/json; version=1': named }) },
    '/ranges': { post: operation('ranges', { 'application/*': {}, 'application/json': named }) },
    '/problem': { post: operation('problem', { 'application/problem+json': named }) },
    '/params': {
      post: operation('params', { 'application/json': counted, 'application/json; profile="a b"': named }),
    },
  },
};
const contract = compileContract(parseSpec('media.json', JSON.stringify(spec)));

const respond = (path: string, contentType: string, body: unknown) =>
  checkExchange(contract, {
    method: 'POST',
    path,
    status: 200,
    headers: { 'content-type': contentType },
    body: JSON.stringify(body),
  });
const send = (path: string, contentType: string, body: unknown) =>
  checkRequest(contract, {
    method: 'POST',
    ...splitTarget(path),
    headers: { 'content-type': contentType },
    body: JSON.stringify(body),
  });

describe('responses: the documented key a Content-Type selects', () => {
  it('validates a charset=UTF-8 response against the charset=utf-8 key (charset in any case)', () => {
    expect(respond('/charset', 'application/json; charset=UTF-8', { name: 'a' }).findings).toEqual([]);
    expect(respond('/charset', 'application/json;charset="UTF-8"', { name: 1 }).findings).toEqual([
      {
        check: 'response_schema_conformance',
        severity: 'error',
        operation: 'charset',
        instancePath: '/name',
        schemaPath: '/properties/name/type',
        message: '/name must be string, not 1',
        actual: 1,
      },
    ]);
  });

  it('reads a JSON response without a charset as utf-8 (JSON has one encoding)', () => {
    expect(respond('/charset', 'application/json', { name: 'a' }).findings).toEqual([]);
  });

  it('reports a version=2 response to a version=1 key as content_type_conformance, with its parameters', () => {
    expect(respond('/version', 'application/json; version=2', { name: 'a' }).findings).toEqual([
      {
        check: 'content_type_conformance',
        severity: 'error',
        operation: 'version',
        instancePath: '',
        message:
          'content type application/json; version=2 is not documented for status 200 (documented: application/json; version=1)',
        expected: ['application/json; version=1'],
        actual: 'application/json; version=2',
      },
    ]);
    expect(respond('/version', 'application/json; version=1; q=x', { name: 'a' }).findings).toEqual([]);
  });

  it('holds an application/json response to the application/json schema, not to application/*', () => {
    expect(respond('/ranges', 'application/json', { name: 2 }).findings).toEqual([
      {
        check: 'response_schema_conformance',
        severity: 'error',
        operation: 'ranges',
        instancePath: '/name',
        schemaPath: '/properties/name/type',
        message: '/name must be string, not 2',
        actual: 2,
      },
    ]);
    expect(respond('/ranges', 'application/xml', { name: 2 }).findings).toEqual([]);
  });

  it('reads an application/problem+json response as JSON and holds it to its schema', () => {
    expect(respond('/problem', 'application/problem+json', {}).findings).toEqual([
      {
        check: 'response_schema_conformance',
        severity: 'error',
        operation: 'problem',
        instancePath: '',
        schemaPath: '/required',
        actual: '{}',
        message: 'body must have required property "name"',
      },
    ]);
  });

  it('prefers the key that names the parameters the Content-Type has (quoted values unquoted)', () => {
    expect(respond('/params', 'application/json; profile="a b"', { name: 'x' }).findings).toEqual([]);
    expect(respond('/params', 'application/json', { count: 1 }).findings).toEqual([]);
  });
});

describe('request bodies: the documented key a Content-Type selects', () => {
  const bodyFinding = (operation: string, message: string, instancePath = '/name', keyword = 'type') => ({
    check: 'request_body_conformance',
    severity: 'error',
    operation,
    instancePath,
    schemaPath: `${keyword === 'required' ? '' : '/properties/name'}/${keyword}`,
    message,
  });

  it('validates a charset=UTF-8 body against the charset=utf-8 key', () => {
    expect(send('/charset', 'application/json; charset=UTF-8', { name: 'a' }).findings).toEqual([]);
    expect(send('/charset', 'application/json; charset=UTF-8', { name: 1 }).findings).toEqual([
      bodyFinding('charset', 'request /name must be string'),
    ]);
  });

  it('reports a version=2 body to a version=1 key', () => {
    expect(send('/version', 'application/json; version=2', { name: 'a' }).findings).toEqual([
      {
        check: 'request_body_conformance',
        severity: 'error',
        operation: 'version',
        instancePath: '',
        message:
          "the request body's media type application/json; version=2 is not documented (documented: application/json; version=1)",
        expected: ['application/json; version=1'],
        actual: 'application/json; version=2',
      },
    ]);
  });

  it('holds an application/json body to the application/json schema, not to application/*', () => {
    expect(send('/ranges', 'application/json', { name: 2 }).findings).toEqual([
      bodyFinding('ranges', 'request /name must be string'),
    ]);
  });

  it('reads an application/problem+json body as JSON', () => {
    expect(send('/problem', 'application/problem+json', {}).findings).toEqual([
      bodyFinding('problem', 'request body must have required property "name"', '', 'required'),
    ]);
  });
});
