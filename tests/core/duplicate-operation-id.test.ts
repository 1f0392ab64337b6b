// Two operations sharing an operationId (OpenAPI 3.1 section 4.8.10 says it MUST be unique): each one's traffic is
// judged against its own schemas; the later one goes by `METHOD /path`, and a warning says so.
import { describe, expect, it } from 'vitest';
import { checkExchange } from '../../src/core/check-exchange.js';
import { checkRequest, splitTarget } from '../../src/core/check-request.js';
import { compileContract } from '../../src/core/compile-contract.js';
import { parseSpec } from '../../src/core/load-spec.js';
import { duplicateOperationIdWarnings } from '../../src/core/operation-index.js';

const object = (name: string, type: string) => ({
  type: 'object',
  required: [name],
  properties: { [name]: { type } },
});
const operation = (name: string, type: string) => ({
  operationId: 'getThing',
  parameters: [{ name: 'q', in: 'query', schema: { type } }],
  responses: { '200': { description: 'ok', content: { 'application/json': { schema: object(name, type) } } } },
});
const spec = {
  openapi: '3.1.0',
  info: { title: 'duplicates', version: '1' },
  paths: { '/a': { get: operation('a', 'string') }, '/b': { get: operation('b', 'integer') } },
};
const contract = compileContract(parseSpec('duplicates.json', JSON.stringify(spec)));
const respond = (path: string, body: unknown) =>
  checkExchange(contract, {
    method: 'GET',
    path,
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('two operations with one operationId', () => {
  it("judges a response to the first one's path by the first one's schema", () => {
    expect(respond('/a', { a: 'x' })).toEqual({
      operationId: 'getThing',
      applied: [
        'status_code_conformance',
        'content_type_conformance',
        'response_body_wellformed',
        'response_schema_conformance',
      ],
      findings: [],
    });
  });

  it("judges the later one's traffic by its own schema, under METHOD /path", () => {
    expect(respond('/b', { a: 'x' })).toEqual({
      operationId: 'GET /b',
      applied: [
        'status_code_conformance',
        'content_type_conformance',
        'response_body_wellformed',
        'response_schema_conformance',
      ],
      findings: [
        {
          check: 'response_schema_conformance',
          severity: 'error',
          operation: 'GET /b',
          instancePath: '',
          schemaPath: '/required',
          message: 'body must have required property "b"',
          actual: '{"a":"x"}',
        },
      ],
    });
  });

  it('checks a request to each by its own parameters', () => {
    expect(checkRequest(contract, { method: 'GET', ...splitTarget('/a?q=x'), headers: {}, body: '' })).toEqual({
      operationId: 'getThing',
      applied: ['request_parameters_conformance'],
      findings: [],
    });
    expect(checkRequest(contract, { method: 'GET', ...splitTarget('/b?q=x'), headers: {}, body: '' }).findings).toEqual(
      [
        {
          check: 'request_parameters_conformance',
          severity: 'error',
          operation: 'GET /b',
          instancePath: '',
          schemaPath: '/type',
          message: 'query parameter q must be integer: got "x"',
          actual: 'x',
        },
      ],
    );
  });

  it('says which operation the operationId means and what the other is called', () => {
    expect(duplicateOperationIdWarnings(contract.operations)).toEqual([
      'operationId "getThing" is on GET /a and GET /b (it must be unique, OpenAPI 3.1 section 4.8.10): "getThing" means GET /a; GET /b is reported as "GET /b"',
    ]);
  });
});
