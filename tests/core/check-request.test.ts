import { beforeAll, describe, expect, it } from 'vitest';
import { checkRequest, splitTarget, type RequestRecord } from '../../src/core/check-request.js';
import { compileContract, type Contract } from '../../src/core/compile-contract.js';
import { loadSpec } from '../../src/core/load-spec.js';
import { specFile } from '../helpers/paths.js';

const contracts: Record<string, Contract> = {};
beforeAll(async () => {
  contracts.session = compileContract(await loadSpec(specFile('client-session')));
  contracts.hooks = compileContract(await loadSpec(specFile('repository-webhooks')));
});

const secretKey = 'sk-live-very-secret-1234';
const sessionHeaders = { 'x-api-key': secretKey, 'x-api-version': '2.4' };
const request = (
  method: string,
  target: string,
  headers: Record<string, string> = {},
  body?: unknown,
): RequestRecord => ({
  method,
  ...splitTarget(target),
  headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
  body: body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body),
});
const hookBody = { config: { url: 'https://example.com/hook', content_type: 'json' } };

interface Case {
  contract: string;
  given: RequestRecord;
  want: { check: string; severity?: string; message: RegExp; instancePath?: string }[];
}

const cases: [string, Case][] = [
  [
    'passes a request that carries the key, version 2.4 and no body',
    { contract: 'session', given: request('GET', '/client-session?clientToken=t', sessionHeaders), want: [] },
  ],
  [
    'reports a missing X-API-KEY as request_security_conformance',
    {
      contract: 'session',
      given: request('GET', '/client-session', { 'x-api-version': '2.4' }),
      want: [{ check: 'request_security_conformance', message: /header X-API-KEY \(scheme apiKey\)/ }],
    },
  ],
  [
    'reports an empty X-API-KEY as missing',
    {
      contract: 'session',
      given: request('GET', '/client-session', { 'x-api-key': ' ', 'x-api-version': '2.4' }),
      want: [{ check: 'request_security_conformance', message: /lacks the credential/ }],
    },
  ],
  [
    'reports X-API-VERSION 2.3 against the enum',
    {
      contract: 'session',
      given: request('GET', '/client-session', { ...sessionHeaders, 'x-api-version': '2.3' }),
      want: [
        {
          check: 'request_parameters_conformance',
          message: /header parameter X-API-VERSION must be one of the allowed values \("2\.4"\): got "2\.3"/,
        },
      ],
    },
  ],
  [
    'reports a missing required X-API-VERSION',
    {
      contract: 'session',
      given: request('GET', '/client-session', { 'x-api-key': secretKey }),
      want: [
        { check: 'request_parameters_conformance', message: /required header parameter X-API-VERSION is missing/ },
      ],
    },
  ],
  [
    'reports per_page over 100',
    {
      contract: 'hooks',
      given: request('GET', '/repos/o/r/hooks?per_page=101'),
      want: [
        { check: 'request_parameters_conformance', message: /query parameter per_page must be <= 100: got "101"/ },
      ],
    },
  ],
  [
    'reports a per_page that is not an integer',
    {
      contract: 'hooks',
      given: request('GET', '/repos/o/r/hooks?per_page=ten'),
      want: [{ check: 'request_parameters_conformance', message: /per_page must be integer/ }],
    },
  ],
  [
    'reports a hook_id that is not an integer',
    {
      contract: 'hooks',
      given: request('GET', '/repos/o/r/hooks/abc'),
      want: [{ check: 'request_parameters_conformance', message: /path parameter hook_id must be integer/ }],
    },
  ],
  [
    'passes per_page 100 and hook 42',
    { contract: 'hooks', given: request('GET', '/repos/o/r/hooks/42/deliveries?per_page=100'), want: [] },
  ],
  [
    'passes a valid create body',
    { contract: 'hooks', given: request('POST', '/repos/o/r/hooks', {}, hookBody), want: [] },
  ],
  [
    'reports a missing required body',
    {
      contract: 'hooks',
      given: request('POST', '/repos/o/r/hooks'),
      want: [{ check: 'request_body_conformance', message: /required request body is missing/ }],
    },
  ],
  [
    'reports a field the strict request schema does not allow',
    {
      contract: 'hooks',
      given: request('PATCH', '/repos/o/r/hooks/42/config', {}, { url: 'https://x.example', colour: 'red' }),
      want: [{ check: 'request_body_conformance', message: /does not allow: "colour"/ }],
    },
  ],
  [
    'reports a body in an undocumented media type',
    {
      contract: 'hooks',
      given: request('POST', '/repos/o/r/hooks', { 'content-type': 'text/plain' }, 'hi'),
      want: [{ check: 'request_body_conformance', message: /media type text\/plain is not documented/ }],
    },
  ],
  [
    'reports a body that is not JSON',
    {
      contract: 'hooks',
      given: request('POST', '/repos/o/r/hooks', {}, '{"config":'),
      want: [{ check: 'request_body_conformance', message: /not valid JSON/ }],
    },
  ],
  [
    'reports a body sent to an operation that documents none as a warning',
    {
      contract: 'hooks',
      given: request('GET', '/repos/o/r/hooks', {}, { a: 1 }),
      want: [{ check: 'request_body_conformance', severity: 'warning', message: /documents no request body/ }],
    },
  ],
  [
    'reports a body too large to keep as a warning, not a failure',
    {
      contract: 'hooks',
      given: { ...request('POST', '/repos/o/r/hooks', {}, ''), body: '', bodyTooLarge: 10 },
      want: [{ check: 'request_body_conformance', severity: 'warning', message: /over 10 bytes: not checked/ }],
    },
  ],
  [
    'reports a request that matches no operation',
    {
      contract: 'hooks',
      given: request('GET', '/nowhere'),
      want: [{ check: 'operation_matching', message: /GET \/nowhere matches no operation/ }],
    },
  ],
];

describe('checkRequest', () => {
  it.each(cases)('%s', (_name, { contract, given, want }) => {
    const result = checkRequest(contracts[contract]!, given);
    expect(
      result.findings.map((finding) => ({
        check: finding.check,
        severity: finding.severity,
        message: finding.message,
      })),
    ).toEqual(
      want.map((wanted) => ({
        check: wanted.check,
        severity: wanted.severity ?? 'error',
        message: expect.stringMatching(wanted.message),
      })),
    );
  });

  it('never puts the credential of a security scheme in a finding, even when it breaks a parameter schema', () => {
    const result = checkRequest(
      contracts.session!,
      request('GET', '/client-session', { 'x-api-key': secretKey, 'x-api-version': secretKey }),
    );
    expect(result.findings).toHaveLength(1);
    expect(JSON.stringify(result)).toContain('X-API-VERSION');
    // X-API-VERSION is not a credential, so its (bad) value is shown; X-API-KEY's never is.
    const clean = checkRequest(contracts.session!, request('GET', '/client-session', { 'x-api-key': secretKey }));
    expect(JSON.stringify(clean)).not.toContain(secretKey);
  });

  it('lists the applied checks, each passed unless a finding names it', () => {
    const result = checkRequest(contracts.hooks!, request('POST', '/repos/o/r/hooks', {}, hookBody));
    expect(result.operationId).toBe('createWebhook');
    expect(result.applied).toEqual(['request_parameters_conformance', 'request_body_conformance']);
  });
});

describe('a body sent to an operation that documents no requestBody', () => {
  it('is a warning (OpenAPI is silent about it), and the request passes', () => {
    expect(checkRequest(contracts.hooks!, request('GET', '/repos/o/r/hooks', {}, { a: 1 }))).toEqual({
      operationId: 'listWebhooks',
      applied: ['request_parameters_conformance', 'request_body_conformance'],
      findings: [
        {
          check: 'request_body_conformance',
          severity: 'warning',
          operation: 'listWebhooks',
          instancePath: '',
          message: 'listWebhooks documents no request body, and one was sent',
        },
      ],
    });
  });
});
