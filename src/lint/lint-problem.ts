// One problem found in a spec, reported as `file:line:col #/json/pointer severity rule message`: the pointer (RFC 6901)
// names the place where a line and column cannot (a spec served on one line: every finding at `spec.json:1:…`).
import { uriFragment } from '../core/uri-fragment.js';

export type Severity = 'error' | 'warning' | 'info' | 'hint';

export interface LintProblem {
  file: string;
  line: number;
  column: number;
  severity: Severity;
  rule: string;
  message: string;
  /** The JSON path of the problem inside the document. */
  path: ReadonlyArray<string | number>;
}

/** The problem's place in the document as a JSON pointer in URI-fragment form (RFC 6901 §6: `#/paths/~1a~1%7Bid%7D`). */
export function problemPointer(problem: LintProblem): string {
  return `#${uriFragment(problem.path)}`;
}

export function formatProblem(problem: LintProblem): string {
  const { file, line, column, severity, rule, message } = problem;
  return `${file}:${line}:${column} ${problemPointer(problem)} ${severity} ${rule} ${message}`;
}

export function compareProblems(a: LintProblem, b: LintProblem): number {
  return a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column || a.rule.localeCompare(b.rule);
}
