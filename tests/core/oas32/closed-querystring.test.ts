// OpenAPI 3.2's querystring parameter (section 4.12.2) whose form says `additionalProperties: false`: a field it does
// not name is refused by the request checks (validate, proxy, sandbox) and by fuzz's own judge of what it generates,
// so fuzz never sends one in a request it calls valid; an open form (no additionalProperties, or patternProperties)
// admits any field, and a query credential is never counted as a field.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkRequest } from '../../../src/core/check-request.js';
import { compileContract } from '../../../src/core/compile-contract.js';
import { compileSpec } from '../../../src/core/compile-spec.js';
import { specFromDocument } from '../../../src/core/document-spec.js';
import { loadSpec } from '../../../src/core/load-spec.js';
import { operationModels, violations } from '../../../src/core/request-model.js';
import { root } from '../../helpers/paths.js';

const fixture = path.join(root, 'tests/fixtures/oas32/streams-3.2.yaml');
const unnamed = (name: string, parameter = 'filter') =>
  `query string field "${name}" is not one the querystring parameter "${parameter}" names (its schema has additionalProperties: false)`;

function search(schema: Record<string, unknown>, security?: unknown) {
  return specFromDocument('doc', {
    openapi: '3.2.0',
    info: { title: 't', version: '1' },
    components: { securitySchemes: { key: { type: 'apiKey', in: 'query', name: 'api_key' } } },
    paths: {
      '/search': {
        get: {
          operationId: 'search',
          ...(security ? { security } : {}),
          parameters: [{ name: 'f', in: 'querystring', content: { 'application/x-www-form-urlencoded': { schema } } }],
          responses: { '200': { description: 'ok' } },
        },
      },
    },
  });
}
const request = (query: string) => ({ method: 'GET', path: '/search', query, headers: {}, body: '' });
const q = { type: 'object', properties: { q: { type: 'string' } } };

describe('a querystring parameter with additionalProperties: false', () => {
  it('is refused by the request checks for each field it does not name, once per name', async () => {
    const contract = compileContract(await loadSpec(fixture));
    const result = checkRequest(contract, request('q=a&extra=1&extra=2&more'));
    expect(result.findings).toEqual([
      { check: 'request_parameters_conformance', severity: 'error', operation: 'searchItems', instancePath: '', message: unnamed('extra') },
      { check: 'request_parameters_conformance', severity: 'error', operation: 'searchItems', instancePath: '', message: unnamed('more') },
    ]); // biome-ignore format: one finding a line
    expect(checkRequest(contract, request('q=a&limit=2')).findings).toEqual([]);
  });

  it.each([
    ['no additionalProperties', q, undefined, 'q=a&other=1', []],
    [
      'patternProperties',
      { ...q, additionalProperties: false, patternProperties: { '^x-': {} } },
      undefined,
      'q=a&x-1=1',
      [],
    ],
    ['a query credential', { ...q, additionalProperties: false }, [{ key: [] }], 'q=a&api_key=k', []],
    ['none of its own', { ...q, additionalProperties: false }, undefined, 'q=a&other=1', [unnamed('other', 'f')]],
  ])('judges the fields it does not name, with %s', (_name, schema, security, query, messages) => {
    const contract = compileContract(search(schema, security));
    const findings = checkRequest(contract, request(query)).findings;
    expect(findings.map((finding) => finding.message)).toEqual(messages);
  });

  it('makes fuzz count a field it does not name as a violation, never a valid request', async () => {
    const spec = await loadSpec(fixture);
    const model = operationModels(spec).find((candidate) => candidate.operationId === 'searchItems')!;
    const compiled = compileSpec(spec);
    const sent = (query: Record<string, string>) => violations(model, compiled, { path: {}, query, headers: {} });
    expect(sent({ q: 'a', limit: '2' })).toEqual([]);
    expect(sent({ q: 'a', extra: '1' })).toEqual([{ where: 'query extra', message: unnamed('extra') }]);
  });
});
