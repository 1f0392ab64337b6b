import { beforeAll, describe, expect, it } from 'vitest';
import { checkExchange } from '../../../src/core/check-exchange.js';
import { compileContract, type Contract } from '../../../src/core/compile-contract.js';
import { loadSpec } from '../../../src/core/load-spec.js';
import { specFile } from '../../helpers/paths.js';

let contract: Contract;
beforeAll(async () => {
  contract = compileContract(await loadSpec(specFile('client-session')));
});

describe('status_code_conformance on a redirect (never followed)', () => {
  const long = `https://elsewhere.example/${'x'.repeat(3000)}`;
  const cases: [string, { status: number; location: string | undefined; want: string }][] = [
    [
      'names where a 302 pointed',
      {
        status: 302,
        location: 'https://elsewhere.example/x',
        want: '; it redirects to https://elsewhere.example/x (not followed)',
      },
    ],
    [
      'names where a 307 pointed',
      { status: 307, location: '/relative', want: '; it redirects to /relative (not followed)' },
    ],
    [
      'gives only the length of a Location too long to read, never a cut one',
      { status: 301, location: long, want: `; it redirects (a Location of ${long.length} characters, not followed)` },
    ],
    [
      'says nothing of a Location on a status that is not a redirect',
      { status: 418, location: 'https://elsewhere.example/x', want: '(documented: 200)' },
    ],
    ['says nothing more for a 3xx without a Location', { status: 304, location: undefined, want: '(documented: 200)' }],
  ];
  it.each(cases)('%s', (_name, { status, location, want }) => {
    const headers = location === undefined ? {} : { Location: location };
    const { findings } = checkExchange(
      contract,
      { method: 'GET', path: '/client-session', status, headers, body: '' },
      { operationId: 'retrieveClientSession' },
    );
    const message = findings.find((f) => f.check === 'status_code_conformance')?.message ?? '';
    expect(message.startsWith(`status ${status} is not documented for retrieveClientSession`)).toBe(true);
    expect(message.endsWith(want)).toBe(true);
  });
});
