// Merges the JSON reports of several runs (the shards of one fuzz run across CI jobs, or check runs) into one:
// a check failed in any shard failed, else passed in any passed, else it stays skipped; findings are kept once each,
// and failures once per group (operation, check, status and value kind: failure-book.ts), their counts summed and
// the reproduction of the fewest steps kept. A failure of an earlier report, without a kind, is its own group. The
// result is a run like any other, for the same junit/json writers.
import { readFile } from 'node:fs/promises';
import type { ApiName } from '../config/api-entry.js';
import { ContractsError } from '../core/errors.js';
import { summarize, type CheckResult } from '../reports/results.js';
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
          'INPUT_NOT_READABLE',
          `cannot read ${file} as a JSON report: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
        );
      }
      if (!isObject(parsed) || !Array.isArray(parsed.results))
        throw new ContractsError(
          'INPUT_NOT_READABLE',
          `${file} is not a JSON report of contracts check or fuzz (no "results")`,
        );
      const problem = reportProblem(parsed);
      if (problem)
        throw new ContractsError(
          'INPUT_NOT_READABLE',
          `${file} is not a JSON report of contracts check or fuzz: ${problem}`,
        );
      return parsed as unknown as SavedReport;
    }),
  );
}

/** What the writers would trip on, as a path and a reason (never a value), or undefined. */
function reportProblem(report: Record<string, unknown>): string | undefined {
  for (const [index, result] of (report.results as unknown[]).entries()) {
    const problem = resultProblem(result);
    if (problem) return `results[${index}]${problem}`;
  }
  if (report.failures !== undefined) {
    if (!Array.isArray(report.failures)) return '"failures" is not a list';
    for (const [index, failure] of report.failures.entries()) {
      if (!isObject(failure)) return `failures[${index}] is not an object`;
      const field = failureFields.find(([name, type]) => typeof failure[name] !== type);
      if (field) return `failures[${index}].${field[0]} is not a ${field[1]}`;
      const optional = optionalFailureFields.find(
        ([name, type]) => failure[name] !== undefined && typeof failure[name] !== type,
      );
      if (optional) return `failures[${index}].${optional[0]} is not a ${optional[1]}`;
    }
  }
  if (
    report.error !== undefined &&
    !(isObject(report.error) && typeof report.error.code === 'string' && typeof report.error.message === 'string')
  )
    return '"error" is not an object with a code and a message';
  if (report.targets !== undefined && !isObject(report.targets)) return '"targets" is not an object';
  if (report.notRun !== undefined && !(Array.isArray(report.notRun) && report.notRun.every(isString)))
    return '"notRun" is not a list of strings';
  for (const name of ['seed', 'requests'])
    if (report[name] !== undefined && typeof report[name] !== 'number') return `"${name}" is not a number`;
  return undefined;
}

const failureFields = [
  ['id', 'string'],
  ['api', 'string'],
  ['operation', 'string'],
  ['check', 'string'],
  ['status', 'number'],
  ['message', 'string'],
  ['phase', 'string'],
  ['note', 'string'],
  ['curl', 'string'],
] as const;

/** Fields of later versions, checked when present. */
const optionalFailureFields = [
  ['kind', 'string'],
  ['count', 'number'],
] as const;

function resultProblem(result: unknown): string | undefined {
  if (!isObject(result)) return ' is not an object';
  for (const name of ['api', 'operation', 'check'])
    if (typeof result[name] !== 'string') return `.${name} is not a string`;
  if (!(typeof result.status === 'string' && Object.hasOwn(rank, result.status)))
    return '.status is not one of passed, failed, skipped';
  if (typeof result.durationMs !== 'number') return '.durationMs is not a number';
  if (result.reason !== undefined && typeof result.reason !== 'string') return '.reason is not a string';
  if (result.omitted !== undefined && typeof result.omitted !== 'number') return '.omitted is not a number';
  if (!Array.isArray(result.findings)) return ' has no "findings" list';
  const bad = result.findings.findIndex(
    (finding) =>
      !isObject(finding) ||
      typeof finding.message !== 'string' ||
      typeof finding.severity !== 'string' ||
      (finding.count !== undefined && typeof finding.count !== 'number'),
  );
  return bad < 0 ? undefined : `.findings[${bad}] is not a finding with a message and a severity`;
}

/** Adds a saved failure to its group: counts summed, the shorter reproduction kept (the first, when as short). */
function mergeFailure(failures: Map<string, FuzzFailure>, failure: Omit<FuzzFailure, 'key'>): void {
  const key =
    typeof failure.kind === 'string'
      ? [failure.api, failure.operation, failure.check, failure.status, failure.kind].join('\u0000')
      : `id\u0000${failure.id}`;
  const seen = failures.get(key);
  if (!seen) {
    failures.set(key, { ...failure, key });
    return;
  }
  const count = (seen.count ?? 1) + (failure.count ?? 1);
  const kept = (failure.steps ?? 1) < (seen.steps ?? 1) ? { ...failure, key } : seen;
  failures.set(key, { ...kept, count });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function isString(value: unknown): value is string {
  return typeof value === 'string';
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
  for (const report of reports) for (const failure of report.failures ?? []) mergeFailure(failures, failure);
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
