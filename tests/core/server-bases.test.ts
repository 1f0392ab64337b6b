// A request under a server's base path is the operation the rest of its path names (OpenAPI 3.1 section 4.8.8):
// captured traffic to https://shop.example/api/v2/items is listItems of a spec served at /api/v2.
import { beforeAll, describe, expect, it } from 'vitest';
import { checkExchange } from '../../src/core/check-exchange.js';
import { checkRequest } from '../../src/core/check-request.js';
import { compileContract, type Contract } from '../../src/core/compile-contract.js';
import type { OpenApiDocument } from '../../src/core/load-spec.js';
import { loadSpec } from '../../src/core/load-spec.js';
import { basePaths, candidatePaths, matchRequest } from '../../src/core/server-bases.js';
import { fixture } from '../helpers/paths.js';

let contract: Contract;
beforeAll(async () => {
  contract = compileContract(await loadSpec(fixture('mock-engine/shop.yaml')));
});

const documentWith = (servers: unknown) => ({ openapi: '3.1.0', servers }) as unknown as OpenApiDocument;

describe('basePaths', () => {
  it.each([
    ['a path under a host', [{ url: 'https://shop.example/api/v2/' }], ['/api/v2']],
    ['a relative url', [{ url: '/v1' }], ['/v1']],
    ['no path', [{ url: 'https://shop.example' }], []],
    [
      'variables by their defaults, longest first',
      [
        { url: '/{version}', variables: { version: { default: 'v1' } } },
        { url: '/api/{version}/x', variables: { version: { default: 'v2' } } },
      ],
      ['/api/v2/x', '/v1'],
    ],
    ['servers that are not a list', { url: '/v1' }, []],
    ['a server without a url', [{ description: 'none' }, null, 7], []],
  ])('reads %s', (_what, servers, bases) => {
    expect(basePaths(documentWith(servers))).toEqual(bases);
  });
});

describe('candidatePaths', () => {
  it('tries the path as sent, then under each base it starts with, and not a base it merely begins like', () => {
    expect(candidatePaths(['/api/v2', '/api'], '/api/v2/items')).toEqual(['/api/v2/items', '/items', '/v2/items']);
    expect(candidatePaths(['/api'], '/apix/items')).toEqual(['/apix/items']);
    expect(candidatePaths(['/api'], '/api')).toEqual(['/api', '/']);
  });
});

describe('matching under a base path', () => {
  it('matches the operation the rest of the path names, with its path parameters', () => {
    const match = matchRequest(contract, 'GET', '/api/v2/items/it_aaaaaa');
    expect(match && { operationId: match.operation.operationId, path: match.path, params: match.pathParams }).toEqual({
      operationId: 'getItem',
      path: '/items/it_aaaaaa',
      params: { id: 'it_aaaaaa' },
    });
    expect(matchRequest(contract, 'GET', '/items')?.path).toBe('/items');
    expect(matchRequest(contract, 'GET', '/api/v3/items')).toBeUndefined();
  });

  it('judges an answer and a request under the base path as their operation, not as matching none', () => {
    const answer = checkExchange(contract, {
      method: 'GET',
      path: '/api/v2/items',
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: '[{"id":"nope","name":"a"}]',
    });
    expect(answer.operationId).toBe('listItems');
    expect(answer.findings.map((finding) => `${finding.check} ${finding.instancePath}`)).toEqual([
      'response_schema_conformance /0/id',
    ]);
    const request = checkRequest(contract, {
      method: 'GET',
      path: '/api/v2/items',
      query: 'limit=0',
      headers: {},
      body: '',
    });
    expect(request.operationId).toBe('listItems');
    expect(request.findings.map((finding) => finding.check)).toEqual(['request_parameters_conformance']);
  });
});
