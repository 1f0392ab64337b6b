// A request body documented under a wildcard key (`*/*`, as Kubernetes' description has every body) and sent as
// JSON is JSON: the key's schema describes it (OpenAPI 3.1 section 4.8.14, the Media Type Object's schema "defining
// the content"), so request_body_conformance judges it, as fuzz's own judge does; any other type is not read.
import { beforeAll, describe, expect, it } from 'vitest';
import { checkRequest } from '../../../src/core/check-request.js';
import { compileContract, type Contract } from '../../../src/core/compile-contract.js';
import { loadSpec } from '../../../src/core/load-spec.js';
import { root } from '../../helpers/paths.js';

let contract: Contract;
beforeAll(async () => {
  contract = compileContract(await loadSpec(`${root}/tests/fixtures/mock-engine/wildcard-body.yaml`));
});

const post = (contentType: string, body: string) =>
  checkRequest(contract, {
    method: 'POST',
    path: '/namespaces',
    query: '',
    headers: { 'content-type': contentType },
    body,
  });

describe('request_body_conformance under a wildcard media type key', () => {
  it('judges a JSON body by the schema', () => {
    expect(post('application/json', '"text"').findings).toEqual([
      {
        check: 'request_body_conformance',
        severity: 'error',
        operation: 'createNamespace',
        instancePath: '',
        schemaPath: '/type',
        message: 'request body must be object',
      },
    ]);
    expect(post('application/merge-patch+json', '{"name":"a"}').findings).toEqual([]);
  });

  it('does not read a body of another type', () => {
    expect(post('text/plain', '"text"').findings).toEqual([]);
  });
});
