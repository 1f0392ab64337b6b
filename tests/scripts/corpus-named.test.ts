// The named corpus's own checks (scripts/corpus-named.ts): what makes a named spec's check met or not.
import { describe, expect, it } from 'vitest';
import { mockFuzzVerdict, namedSpecs, namedVerdicts } from '../../scripts/corpus-named.js';

const check = 'fuzz against the embedded mock reports no failure';
const twilio = namedSpecs.find((named) => named.name === 'Twilio')!;
const petstore = namedSpecs.find((named) => named.name === "OAI's petstore")!;
const failure = (status: number) => ({
  check: 'status_code_conformance',
  status,
  operation: 'listCalls',
  message: 'x',
});

describe('the named corpus', () => {
  it('lists the ten public descriptions of issue #44, Discord as absent with why', () => {
    expect(namedSpecs.map((named) => named.name)).toEqual([
      'GitHub',
      'Stripe',
      'Twilio',
      'DigitalOcean',
      'Discord',
      'Plaid',
      'Box',
      'Kubernetes',
      'Spotify',
      "OAI's petstore",
    ]);
    expect(namedSpecs.filter((named) => 'absent' in named.from).map((named) => named.name)).toEqual(['Discord']);
    expect(namedSpecs.filter((named) => named.mockFuzzClean).map((named) => named.name)).toEqual([
      'Stripe',
      'Twilio',
      'Kubernetes',
    ]);
  });

  it.each([
    [
      'no failure: met',
      { failures: [], notRun: [], summary: { passed: 12 } },
      true,
      '12 checks passed, 0 not run (--max-time)',
    ],
    [
      'failures: not met, counted by check and status',
      { failures: [failure(401), failure(401)], notRun: [1], summary: { passed: 3 } },
      false,
      '2 failures: 2 × status_code_conformance 401 (e.g. listCalls: x); 3 checks passed, 1 not run (--max-time)',
    ],
    ['no report: not met', undefined, false, 'no JSON report (fuzz exit 2)'],
  ])('judges a mock fuzz report: %s', (_name, report, passed, detail) => {
    const text = report === undefined ? undefined : JSON.stringify(report);
    expect(mockFuzzVerdict('api/twilio.com/api.json', 2, 'ok', text)).toEqual({
      spec: 'api/twilio.com/api.json',
      check,
      passed,
      detail,
    });
  });

  it('does not count a mock fuzz that timed out or never ran as met', () => {
    expect(mockFuzzVerdict('s', null, 'timeout', '{"failures":[]}')).toEqual({
      spec: 's',
      check,
      passed: false,
      detail: 'fuzz ended timeout (exit null)',
    });
    expect(namedVerdicts(twilio, 's', {}, undefined)).toEqual([
      { spec: 's', check, passed: false, detail: 'did not run' },
    ]);
  });

  it('holds petstore to lint exit 0, and to nothing else', () => {
    expect(namedVerdicts(petstore, 'p', { lint: { outcome: 'ok', exitCode: 1 } }, undefined)).toEqual([
      { spec: 'p', check: 'lint exits 0', passed: false, detail: 'ok, exit 1' },
    ]);
    expect(namedVerdicts(petstore, 'p', { lint: { outcome: 'ok', exitCode: 0 } }, undefined)).toEqual([
      { spec: 'p', check: 'lint exits 0', passed: true, detail: 'ok, exit 0' },
    ]);
  });
});
