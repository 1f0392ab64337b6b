// One problem found in a spec, reported as `file:line:col severity rule message`.

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

export function formatProblem(problem: LintProblem): string {
  return `${problem.file}:${problem.line}:${problem.column} ${problem.severity} ${problem.rule} ${problem.message}`;
}

export function compareProblems(a: LintProblem, b: LintProblem): number {
  return a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column || a.rule.localeCompare(b.rule);
}
