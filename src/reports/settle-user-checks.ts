// At the end of a run: each of the user's checks (apis[].checks) that ran on no exchange is not exercised, a failure
// with the reason, as any check the run claimed and did not exercise; skipped instead where the user's choices left
// its operation out (--read-only, an operation filter: the core's checks of that operation were skipped, and why).
import type { UserCheckSet } from '../core/user-checks/user-check-set.js';
import { notExercisedReason, userChecksNotRun } from '../core/user-checks/run-user-checks.js';
import type { ResultCollector } from './results.js';

export function settleUserChecks(results: ResultCollector, api: string, checks: UserCheckSet | undefined): void {
  for (const { check, operations } of userChecksNotRun(checks)) {
    for (const operation of operations) {
      const core = results.get(api, operation, 'status_code_conformance');
      if (core?.status === 'skipped' && core.reason !== undefined)
        results.markSkipped(api, operation, check, core.reason);
      else results.unexercised(api, operation, check, notExercisedReason);
    }
  }
}
