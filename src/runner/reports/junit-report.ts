// `--report junit:FILE`: one testcase per operation × check, passing ones included, so CI dashboards show
// what was covered; one testsuite per API.
import type { CheckRun } from '../run-check.js';

export function junitReport(run: CheckRun): string {
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>'];
  const apis = [...new Set(run.results.map((result) => result.api))];
  lines.push(`<testsuites name="contracts check" tests="${run.results.length}" failures="${run.summary.failed}" skipped="${run.summary.skipped}">`);
  for (const api of apis) {
    const results = run.results.filter((result) => result.api === api);
    const failures = results.filter((r) => r.status === 'failed').length;
    const skipped = results.filter((r) => r.status === 'skipped').length;
    lines.push(`  <testsuite name="${xml(api)}" tests="${results.length}" failures="${failures}" skipped="${skipped}">`);
    for (const result of results) {
      const open = `    <testcase classname="${xml(`${api}.${result.operation}`)}" name="${xml(`${result.operation} ${result.check}`)}"`;
      if (result.status === 'passed') {
        lines.push(`${open}/>`);
      } else if (result.status === 'skipped') {
        lines.push(`${open}>`, `      <skipped message="${xml(result.reason ?? '')}"/>`, '    </testcase>');
      } else {
        const errors = result.findings.filter((f) => f.severity === 'error');
        const detail = errors.map((f) => `${f.instancePath || '(body)'}: ${f.message}`).join('\n');
        lines.push(`${open}>`, `      <failure message="${xml(errors[0]?.message ?? 'failed')}" type="${xml(result.check)}">${xml(detail)}</failure>`, '    </testcase>');
      }
    }
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>');
  return lines.join('\n') + '\n';
}

function xml(text: string): string {
  // Characters XML 1.0 cannot hold at all are dropped; the five specials are escaped.
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}
