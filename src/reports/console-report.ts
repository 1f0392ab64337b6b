// The readable summary: results grouped by API and operation, each failure with its findings, and what did not run.
import type { CheckResult } from './results.js';
import type { CheckRun } from '../reports/check-run.js';
import { findingLines } from './finding-lines.js';

export function consoleReport(run: CheckRun): string {
  const lines: string[] = [];
  const notRun = (result: CheckResult) =>
    result.status === 'skipped' && result.reason?.startsWith('not run: ') === true;
  const byApi = groupBy(
    run.results.filter((result) => !notRun(result)),
    (result) => result.api,
  );
  for (const [api, results] of byApi) {
    lines.push(
      `${api} (${run.mode === 'mock' ? embeddedMockName(run.mockEngines?.[api as keyof typeof run.targets]) : run.mode === 'read-only' ? 'read-only' : run.mode === 'proxy' ? 'traffic through contracts proxy' : 'full sequence'} at ${run.targets[api as keyof typeof run.targets] ?? '?'})`,
    );
    for (const [operation, checks] of groupBy(results, (result) => result.operation)) {
      const failed = checks.filter((c) => c.status === 'failed');
      const passed = checks.filter((c) => c.status === 'passed');
      const skipped = checks.filter((c) => c.status === 'skipped');
      const mark = failed.length > 0 ? '✗' : passed.length > 0 ? '✓' : '-';
      const counts = [
        `${passed.length} passed`,
        failed.length ? `${failed.length} failed` : '',
        skipped.length ? `${skipped.length} skipped` : '',
      ]
        .filter(Boolean)
        .join(', ');
      lines.push(`  ${mark} ${operation.padEnd(26)} ${counts}`);
      for (const result of failed.filter((candidate) => candidate.reason === undefined)) {
        lines.push(`      ✗ ${result.check}`);
        for (const line of findingLines(result, 10)) lines.push(`          ${line}`);
      }
      for (const result of checks) {
        for (const warning of result.findings.filter((f) => f.severity === 'warning'))
          lines.push(`      ! ${result.check}: ${warning.message}`);
      }
      for (const result of skipped) lines.push(`      - ${result.check} skipped: ${result.reason ?? ''}`);
    }
    // Checks the target kept from being exercised, once per reason: one failed create can block dozens.
    for (const [reason, blocked] of groupBy(
      results.filter((result) => result.status === 'failed' && result.reason !== undefined),
      (result) => result.reason!,
    )) {
      lines.push(
        `  ✗ ${blocked.length === 1 ? `${blocked[0]!.operation} ${blocked[0]!.check}` : `${blocked.length} checks`} could not be exercised: ${reason}`,
      );
      if (blocked.length > 1)
        lines.push(`      (${[...new Set(blocked.map((result) => result.operation))].join(', ')})`);
    }
  }
  if (run.notRun.length > 0) {
    const operations = [...new Set(run.notRun.map((entry) => entry.split(' ')[0]))];
    const why = run.results.find(notRun)?.reason?.slice('not run: '.length) ?? 'the run stopped early';
    lines.push('', `Not run (${why}): ${run.notRun.length} checks of ${operations.join(', ')}`);
  }
  const { passed, failed, skipped } = run.summary;
  lines.push('', `${passed} passed, ${failed} failed, ${skipped} skipped`);
  return lines.join('\n');
}

function groupBy(results: readonly CheckResult[], keyOf: (result: CheckResult) => string): Map<string, CheckResult[]> {
  const groups = new Map<string, CheckResult[]>();
  for (const result of results) {
    const key = keyOf(result);
    groups.set(key, [...(groups.get(key) ?? []), result]);
  }
  return groups;
}

/** The embedded mock a check ran against, as the run's header names it. */
function embeddedMockName(engine: 'stateful' | 'own' | 'prism' | undefined): string {
  return engine === 'stateful'
    ? 'embedded stateful sandbox'
    : engine === 'own'
      ? 'embedded mock'
      : 'embedded Prism mock';
}
