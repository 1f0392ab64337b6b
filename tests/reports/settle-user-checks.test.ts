// At a run's end, a user check that ran on no exchange: failed as not exercised, unless the user's choices left its
// operation out (the core's checks of that operation were skipped, and the reason is theirs).
import { describe, expect, it } from 'vitest';
import type { UserCheckName } from '../../src/core/finding.js';
import { ResultCollector } from '../../src/reports/results.js';
import { settleUserChecks } from '../../src/reports/settle-user-checks.js';

const name = (text: string) => text as UserCheckName;
const check = () => undefined;

describe('settling the user checks of a run', () => {
  it('fails a check that ran on nothing, per operation it was for, and leaves one that ran alone', () => {
    const results = new ResultCollector();
    results.markSkipped('orders', 'getOrder', 'status_code_conformance', '--read-only');
    const ran = new Set<string>(['judged']);
    settleUserChecks(results, 'orders', {
      checks: [
        { name: name('judged'), run: check },
        { name: name('anywhere'), run: check },
        { name: name('scoped'), operations: new Set(['createOrder', 'getOrder']), run: check },
      ],
      ran,
    });
    const reason = 'no exchange of its operations was judged';
    const failed = (operation: string, check: string) => ({
      api: 'orders',
      operation,
      check,
      status: 'failed',
      reason,
      durationMs: 0,
      findings: [
        { check, severity: 'error', operation, instancePath: '', message: `could not be exercised: ${reason}` },
      ],
    });
    expect(results.all()).toEqual([
      {
        api: 'orders',
        operation: 'getOrder',
        check: 'status_code_conformance',
        status: 'skipped',
        reason: '--read-only',
        durationMs: 0,
        findings: [],
      },
      failed('*', 'anywhere'),
      failed('createOrder', 'scoped'),
      {
        api: 'orders',
        operation: 'getOrder',
        check: 'scoped',
        status: 'skipped',
        reason: '--read-only',
        durationMs: 0,
        findings: [],
      },
    ]);
  });

  it('does nothing without user checks', () => {
    const results = new ResultCollector();
    settleUserChecks(results, 'orders', undefined);
    expect(results.all()).toEqual([]);
  });
});
