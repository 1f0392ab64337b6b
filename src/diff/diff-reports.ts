// Renders classified spec changes: text (one line each), JSON, markdown (a PR comment or $GITHUB_STEP_SUMMARY),
// JUnit XML, and GitHub workflow commands (annotations on the diff).
import { escapeLine } from '../core/escape-line.js';
import type { PolicyResult } from '../core/diff/diff-policy.js';
import type { DiffLevel } from '../core/diff/diff-rules.js';
import type { SpecChange } from '../core/diff/spec-change.js';
import { githubCommand } from '../lint/github-annotations.js';

export type DiffFormat = 'text' | 'json' | 'markdown' | 'junit' | 'github';
export const diffFormats: readonly DiffFormat[] = ['text', 'json', 'markdown', 'junit', 'github'];

export interface DiffReport extends PolicyResult {
  /** What was compared, for headings: `origin/main → working tree`. */
  title: string;
  failOn: DiffLevel;
}

const rank: Record<DiffLevel, number> = { error: 0, warning: 1, info: 2 };
export const failsAt = (level: DiffLevel, failOn: DiffLevel) => rank[level] <= rank[failOn];

export function countLevels(changes: SpecChange[]): Record<DiffLevel, number> {
  const counts = { error: 0, warning: 0, info: 0 };
  for (const change of changes) counts[change.level]++;
  return counts;
}

export function summaryLine(report: DiffReport): string {
  const { error, warning, info } = countLevels(report.changes);
  const ignored = report.ignored.length > 0 ? `, ${report.ignored.length} ignored` : '';
  return `${report.changes.length} change${report.changes.length === 1 ? '' : 's'}: ${error} breaking (error), ${warning} warning${warning === 1 ? '' : 's'}, ${info} info${ignored}`;
}

export function renderDiff(report: DiffReport, format: DiffFormat): string {
  switch (format) {
    case 'json':
      return JSON.stringify(
        { title: report.title, summary: countLevels(report.changes), changes: report.changes, ignored: report.ignored },
        null,
        2,
      );
    case 'markdown':
      return markdown(report);
    case 'junit':
      return junit(report);
    case 'github':
      return report.changes.map(github).join('\n');
    default:
      return report.changes.map(textLine).join('\n');
  }
}

/** Operations a line names before "and N more": one shared schema reaches hundreds (Stripe: 1,200); JSON lists all. */
export const operationsShown = 5;

function someOperations(operations: string[]): string[] {
  if (operations.length <= operationsShown + 1) return operations;
  return [
    ...operations.slice(0, operationsShown),
    `and ${(operations.length - operationsShown).toLocaleString('en-US')} more operations (--format json lists them all)`,
  ];
}

/** One line whatever the specs hold: a path key or a property name with a newline cannot start a line of its own. */
function textLine(change: SpecChange): string {
  const where = change.operations.length > 0 ? ` [${someOperations(change.operations).join('; ')}]` : '';
  return escapeLine(
    `${change.file}:${change.line}:${change.column} ${change.level} ${change.rule} ${change.message}${where}`,
  );
}

function github(change: SpecChange): string {
  const command = change.level === 'info' ? 'notice' : change.level;
  const where = change.operations.length > 0 ? ` (${someOperations(change.operations).join('; ')})` : '';
  return githubCommand(
    command,
    { file: change.file, line: change.line, col: change.column, title: change.rule },
    `${change.message}${where}`,
  );
}

const icon: Record<DiffLevel, string> = { error: '🔴 breaking', warning: '🟠 warning', info: '🔵 info' };

function markdown(report: DiffReport): string {
  const { error, warning, info } = countLevels(report.changes);
  const lines = [`### API changes: ${report.title}`, ''];
  if (report.changes.length === 0) lines.push('No changes to the API contract.');
  else {
    lines.push(
      `**${error} breaking**, ${warning} warning${warning === 1 ? '' : 's'}, ${info} info (the check fails on ${report.failOn}${report.failOn === 'warning' ? ' and error' : ''}).`,
      '',
    );
    lines.push('| Level | Rule | Change | Where |', '| --- | --- | --- | --- |');
    for (const change of report.changes) {
      lines.push(
        `| ${icon[change.level]} | \`${change.rule}\` | ${cell(change.message)} | ${someOperations(change.operations).map(cell).join('<br>')}<br>\`${change.file}:${change.line}\` |`,
      );
    }
  }
  if (report.ignored.length > 0) {
    lines.push(
      '',
      `<details><summary>${report.ignored.length} accepted change${report.ignored.length === 1 ? '' : 's'} (.contracts-diff-ignore.yaml)</summary>`,
      '',
    );
    for (const { change, reason } of report.ignored)
      lines.push(`- \`${change.rule}\` ${cell(change.message)}: ${cell(reason)}`);
    lines.push('', '</details>');
  }
  return lines.join('\n');
}

/** Text in a table cell: no pipes or newlines that would break the row, no raw HTML. */
function cell(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\|/g, '\\|')
    .replace(/[\n\v\f\r\u0085\u2028\u2029]+/g, ' ');
}

function junit(report: DiffReport): string {
  const xml = (s: string) =>
    s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  const failing = report.changes.filter((c) => failsAt(c.level, report.failOn));
  const cases = report.changes.length + 1;
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="contracts diff" tests="${cases}" failures="${failing.length}" errors="0">`,
  ];
  lines.push(
    `  <testsuite name="${xml(report.title)}" tests="${cases}" failures="${failing.length}" errors="0" skipped="0">`,
  );
  lines.push(
    `    <testcase classname="contracts.diff" name="no change at or above ${report.failOn}"${failing.length > 0 ? '>' : '/>'}`,
  );
  if (failing.length > 0)
    lines.push(
      `      <failure message="${failing.length} change(s) at or above ${report.failOn}" type="contracts-diff"/>`,
      '    </testcase>',
    );
  for (const change of report.changes) {
    const name = xml(`${change.rule} ${change.file}:${change.line} ${change.message}`);
    if (!failsAt(change.level, report.failOn)) {
      lines.push(`    <testcase classname="contracts.diff.${change.rule}" name="${name}"/>`);
      continue;
    }
    lines.push(`    <testcase classname="contracts.diff.${change.rule}" name="${name}">`);
    lines.push(
      `      <failure message="${xml(change.message)}" type="${change.level}">${xml(change.operations.join('\n'))}</failure>`,
      '    </testcase>',
    );
  }
  lines.push('  </testsuite>', '</testsuites>');
  return lines.join('\n');
}
