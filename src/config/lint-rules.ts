// `lint.rules` of contracts.config.yaml (top level and per API): the schema checks the levels; a rule name lint does
// not know is refused here, at its line, with the nearest known name (a misspelt rule would otherwise be silently
// ignored and its problems keep their level).
import { ContractsError } from '../core/errors.js';
import type { JsonPath } from '../core/source-locator.js';
import type { RuleLevels } from '../lint/rule-levels.js';
import { isLintRule, type LintLevel, unknownRuleHint } from '../lint/rule-names.js';

/** The levels `settings` (a `lint` object the schema accepted, or undefined) sets; `where` is its path in the config. */
export function lintRules(
  settings: { rules?: Record<string, LintLevel> } | undefined,
  where: JsonPath,
  at: (p: JsonPath) => { file: string; line: number; column: number },
): RuleLevels {
  const rules = settings?.rules ?? {};
  for (const name of Object.keys(rules))
    if (!isLintRule(name)) {
      const shown = [...where, 'rules'].map((step) => (typeof step === 'number' ? `[${step}]` : `.${step}`)).join('');
      throw new ContractsError(
        'CONFIG_INVALID',
        `${shown.slice(1)}: unknown rule "${shortened(name)}". ${unknownRuleHint(name)}`,
        at([...where, 'rules', name]),
      );
    }
  return rules;
}

// A hostile name could be megabytes.
function shortened(value: string): string {
  return value.length > 100 ? `${value.slice(0, 100)}…` : value;
}
