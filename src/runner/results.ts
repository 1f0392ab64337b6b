// Collects the outcome of each (api, operation, check): failed if any exchange failed it, passed if it held at
// least once, skipped (with the reason) when it could not be judged.
import type { CheckName, Finding } from '../core/finding.js';

export type ResultStatus = 'passed' | 'failed' | 'skipped';

export interface CheckResult {
  api: string;
  operation: string;
  check: CheckName;
  status: ResultStatus;
  findings: Finding[];
  /** Why it was skipped. */
  reason?: string;
}

export interface Summary {
  passed: number;
  failed: number;
  skipped: number;
}

export class ResultCollector {
  private readonly results = new Map<string, CheckResult>();

  /** Records one judgement: no error finding means it held (warnings are kept but do not fail). */
  record(api: string, operation: string, check: CheckName, findings: readonly Finding[]): void {
    const failed = findings.some((finding) => finding.severity === 'error');
    const existing = this.get(api, operation, check);
    if (!existing || existing.status === 'skipped') {
      this.results.set(key(api, operation, check), { api, operation, check, status: failed ? 'failed' : 'passed', findings: [...findings] });
      return;
    }
    existing.findings.push(...findings);
    if (failed) existing.status = 'failed';
  }

  /** Marks a check that could not be judged; a judgement recorded before or after wins. */
  markSkipped(api: string, operation: string, check: CheckName, reason: string): void {
    if (!this.get(api, operation, check)) this.results.set(key(api, operation, check), { api, operation, check, status: 'skipped', findings: [], reason });
  }

  get(api: string, operation: string, check: CheckName): CheckResult | undefined {
    return this.results.get(key(api, operation, check));
  }

  all(): CheckResult[] {
    return [...this.results.values()];
  }
}

export function summarize(results: readonly CheckResult[]): Summary {
  return {
    passed: results.filter((result) => result.status === 'passed').length,
    failed: results.filter((result) => result.status === 'failed').length,
    skipped: results.filter((result) => result.status === 'skipped').length,
  };
}

const key = (api: string, operation: string, check: string) => `${api}\u0000${operation}\u0000${check}`;
