// checkExchange is the library's door: what a JavaScript caller hands it is checked before any check runs.
import { beforeAll, describe, expect, it } from 'vitest';
import { checkExchange } from '../../src/core/check-exchange.js';
import { compileContract, type Contract } from '../../src/core/compile-contract.js';
import { ContractsError } from '../../src/core/errors.js';
import type { Exchange } from '../../src/core/exchange.js';
import { loadSpec } from '../../src/core/load-spec.js';
import { specFile } from '../helpers/paths.js';

let contract: Contract;
beforeAll(async () => {
  contract = compileContract(await loadSpec(specFile('repository-webhooks')));
});

const good = {
  method: 'GET',
  path: '/repos/o/r/hooks/42',
  status: 404,
  headers: { 'content-type': 'application/json' },
  body: '{"message":"Not Found"}',
};

describe('checkExchange with an exchange that is not one', () => {
  it.each([
    [
      'a content type that is a number',
      { ...good, headers: { 'content-type': 42 } },
      /header "content-type" must be a string, not number/,
    ],
    [
      'a content type that is an array',
      { ...good, headers: { 'content-type': ['application/json'] } },
      /header "content-type" must be a string, not an array/,
    ],
    [
      'an object body',
      { ...good, body: { message: 'Not Found' } },
      /body must be the response's text, not object: pass a parsed body as `json`/,
    ],
    ['no body', { ...good, body: undefined }, /body must be the response's text, not undefined/],
    ['a status as text', { ...good, status: '404' }, /status must be an integer, not string/],
    ['no headers', { ...good, headers: null }, /headers must be an object of strings, not null/],
    ['no method', { ...good, method: undefined }, /method must be a string, not undefined/],
    ['nothing', undefined, /the exchange must be an object, not undefined/],
  ])('%s throws a ContractsError INVALID_EXCHANGE naming the field, not a TypeError', (_name, given, message) => {
    let thrown: unknown;
    try {
      checkExchange(contract, given as unknown as Exchange);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ContractsError);
    expect((thrown as ContractsError).code).toBe('INVALID_EXCHANGE');
    expect((thrown as ContractsError).message).toMatch(message);
  });

  it('judges a parsed body passed as `json` beside its text', () => {
    const result = checkExchange(contract, { ...good, json: { message: 'Not Found' } });
    expect(result.operationId).toBeDefined();
    expect(result.findings.filter((finding) => finding.check !== 'status_code_conformance')).toEqual([]);
  });
});
