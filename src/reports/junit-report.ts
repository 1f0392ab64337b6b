// `--report junit:FILE`: one testcase per planned operation × check, the same set every run for the same --api and
// mode (passed, failed, or skipped with the reason), so CI dashboards compare like with like; a run that could not
// finish adds one <error> testcase. One testsuite per API.
import type { CheckResult } from './results.js';
import { runTitle, type CheckRun } from '../reports/check-run.js';
import { findingLines } from './finding-lines.js';

export function junitReport(run: CheckRun): string {
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>'];
  const apis = [...new Set(run.results.map((result) => result.api))];
  const errors = run.error ? 1 : 0;
  lines.push(
    `<testsuites name="${runTitle(run)}" tests="${run.results.length + errors}" failures="${run.summary.failed}" errors="${errors}" skipped="${run.summary.skipped}" time="${seconds(run.durationMs)}">`,
  );
  for (const api of apis) {
    const results = run.results.filter((result) => result.api === api);
    const failures = results.filter((r) => r.status === 'failed').length;
    const skipped = results.filter((r) => r.status === 'skipped').length;
    const time = results.reduce((sum, result) => sum + result.durationMs, 0);
    lines.push(
      `  <testsuite name="${xml(api)}" tests="${results.length}" failures="${failures}" errors="0" skipped="${skipped}" time="${seconds(time)}">`,
    );
    for (const result of results) lines.push(...testcase(api, result));
    lines.push('  </testsuite>');
  }
  if (run.error) {
    lines.push(
      `  <testsuite name="contracts run" tests="1" failures="0" errors="1" skipped="0" time="${seconds(run.durationMs)}">`,
    );
    lines.push(`    <testcase classname="contracts.run" name="the run completed" time="${seconds(run.durationMs)}">`);
    const detail = run.notRun.length > 0 ? `${run.notRun.length} planned checks did not run` : '';
    lines.push(
      `      <error message="${xml(run.error.message)}" type="${xml(run.error.code)}">${xml(detail)}</error>`,
      '    </testcase>',
      '  </testsuite>',
    );
  }
  lines.push('</testsuites>');
  return lines.join('\n') + '\n';
}

function testcase(api: string, result: CheckResult): string[] {
  const open = `    <testcase classname="${xml(`${api}.${result.operation}`)}" name="${xml(`${result.operation} ${result.check}`)}" time="${seconds(result.durationMs)}"`;
  if (result.status === 'passed') return [`${open}/>`];
  if (result.status === 'skipped')
    return [`${open}>`, `      <skipped message="${xml(result.reason ?? '')}"/>`, '    </testcase>'];
  const errors = result.findings.filter((finding) => finding.severity === 'error');
  const detail = findingLines(result, Number.POSITIVE_INFINITY).join('\n');
  return [
    `${open}>`,
    `      <failure message="${xml(errors[0]?.message ?? 'failed')}" type="${xml(result.check)}">${xml(detail)}</failure>`,
    '    </testcase>',
  ];
}

const seconds = (ms: number) => (ms / 1000).toFixed(3);

function xml(text: string): string {
  // Characters XML 1.0 cannot hold at all are dropped; the five specials are escaped.
  // eslint-disable-next-line no-control-regex
  return text
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}
