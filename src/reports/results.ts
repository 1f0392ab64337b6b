// Collects the outcome of each (api, operation, check) a run planned: failed if any judgement failed or the
// target kept it from being exercised, passed only if it was exercised and held, skipped only for a choice the user
// made (--api, --read-only, the stateless mock). What was planned but never judged is settled by finish().
import type { CheckName, Finding } from '../core/finding.js';

export type ResultStatus = 'passed' | 'failed' | 'skipped';

/** A finding as reported: the same finding seen on several polls is kept once, with how often it was seen. */
export type ReportedFinding = Finding & { count?: number };

export interface CheckResult {
  api: string;
  operation: string;
  check: CheckName;
  status: ResultStatus;
  findings: ReportedFinding[];
  /** Why it was skipped, or why it could not be exercised. */
  reason?: string;
  /** Time spent in the exchanges that judged it, in milliseconds. */
  durationMs: number;
  /** Findings left out: distinct ones past `maxFindingsPerResult`, and those the core left out past its cap per response. */
  omitted?: number;
}

export interface Summary {
  passed: number;
  failed: number;
  skipped: number;
}

export interface PlannedCheck {
  api: string;
  operation: string;
  check: CheckName;
}

/** Distinct findings kept per result: enough to act on, bounded whatever the target sends. */
export const maxFindingsPerResult = 200;

export class ResultCollector {
  private readonly results = new Map<string, CheckResult>();
  private readonly findingIndex = new Map<string, Map<string, ReportedFinding>>();

  /** Declares what the run means to judge, in report order, before anything is judged. */
  plan(planned: readonly PlannedCheck[]): void {
    for (const { api, operation, check } of planned) {
      if (!this.results.has(key(api, operation, check)))
        this.results.set(key(api, operation, check), pending(api, operation, check));
    }
  }

  /**
   * Records one judgement: no error finding means it held (warnings are kept but do not fail). `omitted`: findings
   * of this judgement the core left out (ExchangeResult.omitted), counted, not kept.
   */
  record(
    api: string,
    operation: string,
    check: CheckName,
    findings: readonly Finding[],
    durationMs = 0,
    omitted = 0,
  ): void {
    const result = this.entry(api, operation, check);
    const failed = findings.some((finding) => finding.severity === 'error');
    if (result.status === 'skipped' || isPending(result)) {
      result.status = failed ? 'failed' : 'passed';
      delete result.reason;
    } else if (failed) {
      result.status = 'failed';
    }
    result.durationMs += durationMs;
    this.addFindings(result, findings);
    if (omitted > 0) result.omitted = (result.omitted ?? 0) + omitted;
  }

  /**
   * The target kept this check from being exercised (a create that failed, a delivery that never came): a failure
   * with the reason, unless the check was already judged or the user's choices leave it out.
   */
  unexercised(api: string, operation: string, check: CheckName, reason: string): void {
    const result = this.entry(api, operation, check);
    if (!isPending(result)) return;
    result.status = 'failed';
    result.reason = reason;
    this.addFindings(result, [
      { check, severity: 'error', operation, instancePath: '', message: `could not be exercised: ${reason}` },
    ]);
  }

  /**
   * What this check judged was no exercise at all (every valid request refused 401/403): a failure with the reason,
   * whatever was recorded, unless the user's choices left it out.
   */
  notExercised(api: string, operation: string, check: CheckName, reason: string): void {
    const result = this.entry(api, operation, check);
    if (result.status === 'skipped' && !isPending(result)) return;
    result.status = 'failed';
    result.reason = reason;
    this.addFindings(result, [
      { check, severity: 'error', operation, instancePath: '', message: `could not be exercised: ${reason}` },
    ]);
  }

  /** Every check of `api` (of one operation, if given) not judged yet could not be exercised, for `reason`. */
  unexercisedPending(api: string, reason: string, operation?: string): void {
    for (const result of this.results.values()) {
      if (result.api === api && (operation === undefined || result.operation === operation) && isPending(result)) {
        this.unexercised(api, result.operation, result.check, reason);
      }
    }
  }

  /** A check the user's choices leave out (--read-only, the stateless mock); a judgement recorded before or after wins. */
  markSkipped(api: string, operation: string, check: CheckName, reason: string): void {
    const result = this.entry(api, operation, check);
    if (isPending(result)) {
      result.status = 'skipped';
      result.reason = reason;
    }
  }

  /**
   * Settles what was planned but never judged: after a run that stopped early (`stoppedBy`), not run; otherwise a
   * failure, because a check the run claimed and did not exercise has not passed.
   */
  finish(stoppedBy?: string): string[] {
    const notRun: string[] = [];
    for (const result of this.results.values()) {
      if (!isPending(result)) continue;
      if (stoppedBy !== undefined) {
        result.status = 'skipped';
        result.reason = `not run: ${stoppedBy}`;
        notRun.push(`${result.operation} ${result.check}`);
      } else {
        this.unexercised(result.api, result.operation, result.check, 'the sequence never reached it');
      }
    }
    return notRun;
  }

  /** The checks of an operation planned and not judged yet. */
  pendingChecks(api: string, operation: string): CheckName[] {
    return [...this.results.values()]
      .filter((result) => result.api === api && result.operation === operation && isPending(result))
      .map((result) => result.check);
  }

  get(api: string, operation: string, check: CheckName): CheckResult | undefined {
    const result = this.results.get(key(api, operation, check));
    return result && !isPending(result) ? result : undefined;
  }

  all(): CheckResult[] {
    return [...this.results.values()].filter((result) => !isPending(result));
  }

  private entry(api: string, operation: string, check: CheckName): CheckResult {
    const id = key(api, operation, check);
    let result = this.results.get(id);
    if (!result) {
      result = pending(api, operation, check);
      this.results.set(id, result);
    }
    return result;
  }

  private addFindings(result: CheckResult, findings: readonly Finding[]): void {
    // Most judgements find nothing: fuzzing records thousands a second.
    if (findings.length === 0) return;
    const id = key(result.api, result.operation, result.check);
    let index = this.findingIndex.get(id);
    if (!index) this.findingIndex.set(id, (index = new Map()));
    for (const finding of findings) {
      const identity = `${finding.severity}\u0000${finding.instancePath}\u0000${finding.message}`;
      const seen = index.get(identity);
      if (seen) {
        seen.count = (seen.count ?? 1) + 1;
      } else if (result.findings.length < maxFindingsPerResult) {
        const kept: ReportedFinding = { ...finding };
        index.set(identity, kept);
        result.findings.push(kept);
      } else {
        result.omitted = (result.omitted ?? 0) + 1;
      }
    }
  }
}

export function summarize(results: readonly CheckResult[]): Summary {
  const summary: Summary = { passed: 0, failed: 0, skipped: 0 };
  for (const result of results) summary[result.status]++;
  return summary;
}

const pendingReason = '\u0000pending';
const pending = (api: string, operation: string, check: CheckName): CheckResult => ({
  api,
  operation,
  check,
  status: 'skipped',
  findings: [],
  reason: pendingReason,
  durationMs: 0,
});
const isPending = (result: CheckResult) => result.reason === pendingReason;
const key = (api: string, operation: string, check: string) => `${api}\u0000${operation}\u0000${check}`;
