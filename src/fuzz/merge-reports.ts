// Merges the JSON reports of several runs (the shards of one fuzz run across CI jobs, or check runs) into one:
// a check failed in any shard failed, else passed in any passed, else it stays skipped; findings and failures are
// kept once each. The result is a run like any other, for the same junit/json writers.
import { readFile } from 'node:fs/promises';
import type { ApiName } from '../apis.js';
import { ContractsError } from '../core/errors.js';
import { summarize, type CheckResult } from '../runner/results.js';
import type { FuzzFailure } from './executor.js';
import type { FuzzRun } from './run-fuzz.js';

interface SavedReport {
  mode?: FuzzRun['mode'];
  targets?: Partial<Record<ApiName, string>>;
  error?: { code: string; message: string };
  notRun?: string[];
  results: CheckResult[];
  seed?: number;
  requests?: number;
  failures?: Omit<FuzzFailure, 'key'>[];
}

const rank = { failed: 2, passed: 1, skipped: 0 } as const;

export async function readReports(files: readonly string[]): Promise<SavedReport[]> {
  return Promise.all(
    files.map(async (file) => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(await readFile(file, 'utf8'));
      } catch (error) {
        throw new ContractsError(
          'USAGE',
          `cannot read ${file} as a JSON report: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
        );
      }
      if (!parsed || typeof parsed !== 'object' || !Array.isArray((parsed as SavedReport).results))
        throw new ContractsError('USAGE', `${file} is not a JSON report of contracts check or fuzz (no "results")`);
      return parsed as SavedReport;
    }),
  );
}

export function mergeReports(reports: readonly SavedReport[]): FuzzRun {
  const results = new Map<string, CheckResult>();
  for (const report of reports) {
    for (const result of report.results) {
      const key = `${result.api}\u0000${result.operation}\u0000${result.check}`;
      const seen = results.get(key);
      if (!seen) {
        results.set(key, structuredClone(result));
        continue;
      }
      seen.durationMs += result.durationMs;
      for (const finding of result.findings) {
        const same = seen.findings.find(
          (kept) => kept.message === finding.message && kept.severity === finding.severity,
        );
        if (same) same.count = (same.count ?? 1) + (finding.count ?? 1);
        else seen.findings.push(finding);
      }
      if (rank[result.status] > rank[seen.status]) {
        seen.status = result.status;
        if (result.reason === undefined) delete seen.reason;
        else seen.reason = result.reason;
      }
    }
  }
  const failures = new Map<string, FuzzFailure>();
  for (const report of reports)
    for (const failure of report.failures ?? [])
      if (!failures.has(failure.id)) failures.set(failure.id, { ...failure, key: failure.id });
  const all = [...results.values()];
  const error = reports.find((report) => report.error)?.error;
  return {
    mode: reports.every((report) => report.mode === 'read-only') ? 'read-only' : 'full',
    targets: Object.assign({}, ...reports.map((report) => report.targets ?? {})) as Partial<Record<ApiName, string>>,
    results: all,
    summary: summarize(all),
    notRun: reports.flatMap((report) => report.notRun ?? []),
    durationMs: all.reduce((sum, result) => sum + result.durationMs, 0),
    ...(error ? { error: new ContractsError(error.code as ContractsError['code'], error.message) } : {}),
    failures: [...failures.values()],
    seed: reports.find((report) => report.seed !== undefined)?.seed ?? 0,
    marker: '',
    requests: reports.reduce((sum, report) => sum + (report.requests ?? 0), 0),
  };
}
