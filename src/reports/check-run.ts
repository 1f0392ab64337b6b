// What a run of the checks leaves for its reports, whichever command made it (check, fuzz, receive, proxy): the
// results by check, their summary, and what stopped it. The reports read only this, so they depend on no runner.
import type { ApiName } from '../config/api-entry.js';
import type { CoverageReport } from '../core/coverage.js';
import type { ContractsError } from '../core/errors.js';
import type { CheckResult, Summary } from './results.js';

/** 'receive': a `contracts receive` session, whose reports cover the deliveries that arrived; 'proxy': live traffic. */
export type RunMode = 'mock' | 'full' | 'read-only' | 'receive' | 'proxy';

export interface CheckRun {
  mode: RunMode;
  targets: Partial<Record<ApiName, string>>;
  /** Without a base URL: the embedded mock each API was checked against. */
  mockEngines?: Partial<Record<ApiName, 'stateful' | 'own' | 'prism'>>;
  results: CheckResult[];
  summary: Summary;
  /** Set when the run could not finish (target unreachable, interrupted, internal error): results hold what was done. */
  error?: ContractsError;
  /** Planned checks that did not run because the run stopped early, as `operation check`. */
  notRun: string[];
  durationMs: number;
  /** With the coverage option: how much of the contract the run exercised. */
  coverage?: CoverageReport;
  /** The command that made the run, when its mode does not say (fuzz runs in the check modes). */
  command?: 'check' | 'fuzz';
}

/** What the reports call the run: the command that made it (`contracts fuzz`), not always `contracts check`. */
export function runTitle(run: CheckRun): string {
  if (run.mode === 'proxy' || run.mode === 'receive') return `contracts ${run.mode}`;
  return `contracts ${run.command ?? 'check'}`;
}
