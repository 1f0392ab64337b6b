// The readable summary: results grouped by API and operation, each failure with its findings.
import type { CheckRun } from '../run-check.js';
import type { CheckResult } from '../results.js';

export function consoleReport(run: CheckRun): string {
  const lines: string[] = [];
  const byApi = groupBy(run.results, (result) => result.api);
  for (const [api, results] of byApi) {
    lines.push(`${api} (${run.mode === 'mock' ? 'embedded Prism mock' : run.mode === 'read-only' ? 'read-only' : 'full sequence'} at ${run.targets[api as keyof typeof run.targets] ?? '?'})`);
    for (const [operation, checks] of groupBy(results, (result) => result.operation)) {
      const failed = checks.filter((c) => c.status === 'failed');
      const passed = checks.filter((c) => c.status === 'passed');
      const skipped = checks.filter((c) => c.status === 'skipped');
      const mark = failed.length > 0 ? '✗' : passed.length > 0 ? '✓' : '-';
      const counts = [`${passed.length} passed`, failed.length ? `${failed.length} failed` : '', skipped.length ? `${skipped.length} skipped` : ''].filter(Boolean).join(', ');
      lines.push(`  ${mark} ${operation.padEnd(26)} ${counts}`);
      for (const result of failed) {
        lines.push(`      ✗ ${result.check}`);
        for (const finding of result.findings.filter((f) => f.severity === 'error').slice(0, 10)) lines.push(`          ${finding.message}`);
        const more = result.findings.filter((f) => f.severity === 'error').length - 10;
        if (more > 0) lines.push(`          … ${more} more`);
      }
      for (const result of checks) {
        for (const warning of result.findings.filter((f) => f.severity === 'warning')) lines.push(`      ! ${result.check}: ${warning.message}`);
      }
      for (const result of skipped) lines.push(`      - ${result.check} skipped: ${result.reason ?? ''}`);
    }
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
