// Swagger 2.0's required formData parameter (Parameter Object, `required`) makes the request body required: a POST
// with no body at all cannot carry it. Read from Spinitron's public description (tests/fixtures/swagger2-public/),
// whose POST /spins form requires `artist` and `song`, and which requires the Bearer apiKey header.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkRequest } from '../../../src/core/check-request.js';
import { compileContract } from '../../../src/core/compile-contract.js';
import { loadSpec } from '../../../src/core/load-spec.js';
import { root } from '../../helpers/paths.js';

const spec = await loadSpec(path.join(root, 'tests/fixtures/swagger2-public/spinitron-2.0.yaml'));
const contract = compileContract(spec);
const post = (body: string, type?: string) =>
  checkRequest(contract, {
    method: 'POST',
    path: '/v2/api/spins',
    query: '',
    headers: { authorization: 'k', ...(type ? { 'content-type': type } : {}) },
    body,
  }).findings.map((finding) => [finding.check, finding.message]);

describe('a Swagger 2.0 operation with a required formData parameter', () => {
  it('refuses a request with no body', () => {
    expect(post('')).toEqual([['request_body_conformance', 'the required request body is missing']]);
  });

  it('accepts a form carrying the required fields', () => {
    expect(post('artist=A&song=S', 'application/x-www-form-urlencoded')).toEqual([]);
  });
});
