// The library entry (`contracts-kit`) as README "As a library" shows it: examples/library.ts, which the README's block
// is a copy of (its `file` directive), run as a real process from this repository's source.
import { spawnSync } from 'node:child_process';
import { expect, it } from 'vitest';
import { root } from '../helpers/paths.js';

it('loads a contract, checks an exchange and a request, starts mocks, sandbox and receiver, diffs two specs', () => {
  const result = spawnSync(process.execPath, ['-C', 'contracts-source', '--import', 'tsx', 'examples/library.ts'], {
    cwd: root,
    encoding: 'utf8',
    timeout: 90_000,
    env: { ...process.env, SCARF_ANALYTICS: 'false' },
  });
  expect(result.stderr).toBe('');
  expect(result.stdout.split('\n')).toEqual([
    'retrieveClientSession [',
    "  'paymentMethod is missing: expected at /paymentMethod (the seed schema) or at /order/paymentMethod (the seed example), or both'",
    ']',
    '[',
    "  'request_security_conformance: the request lacks the credential its security requires: header X-API-KEY (scheme apiKey)',",
    "  'request_parameters_conformance: the required header parameter X-API-VERSION is missing'",
    ']',
    'mock 200',
    'delivery ping 0 findings',
    'error response-property-became-optional response body /name: was required, may now be absent',
    '',
  ]);
  expect(result.status).toBe(0);
});
