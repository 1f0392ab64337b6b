// The levels a project sets for lint's rules (contracts.config.yaml `lint.rules`, `apis[].lint.rules`, `--level`),
// applied to what lint found: `off` drops a rule's problems, any other level becomes their severity, whichever part
// of lint reported them (Spectral, our own rules when Spectral was skipped, swagger-parser).
import type { LintProblem, Severity } from './lint-problem.js';
import type { LintLevel } from './rule-names.js';

/** Rule name → level, as written in the config or on the command line. */
export type RuleLevels = Readonly<Record<string, LintLevel>>;

const severityOf: Record<Exclude<LintLevel, 'off'>, Severity> = {
  error: 'error',
  warn: 'warning',
  warning: 'warning',
  info: 'info',
  hint: 'hint',
};

/** The level as a Spectral rule's severity (Spectral says `warn`). */
export function spectralLevel(level: LintLevel): 'error' | 'warn' | 'info' | 'hint' | 'off' {
  return level === 'warning' ? 'warn' : level;
}

export function applyRuleLevels(problems: readonly LintProblem[], levels: RuleLevels): LintProblem[] {
  const out: LintProblem[] = [];
  for (const problem of problems) {
    const level = Object.hasOwn(levels, problem.rule) ? levels[problem.rule] : undefined;
    if (level === undefined) out.push(problem);
    else if (level !== 'off') out.push({ ...problem, severity: severityOf[level] });
  }
  return out;
}
