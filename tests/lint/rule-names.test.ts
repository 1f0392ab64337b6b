// The rule names the config and --level may set (rule-names.ts, a static list so that reading the config loads no
// Spectral) are the ruleset's: spectral:oas's, ours, and what lint reports outside Spectral.
import spectralRulesets from '@stoplight/spectral-rulesets';
import { describe, expect, it } from 'vitest';
import { lintRuleNames, nonSpectralRules } from '../../src/lint/rule-names.js';
import { buildRuleset, type OwnRuleResults } from '../../src/lint/ruleset.js';

describe('lint rule names', () => {
  it('are every rule of the ruleset lint runs, and swagger-parser’s and the Spectral-skipped notice', () => {
    const own = Object.fromEntries(
      ['example-valid', 'pattern-backtracking', 'format-unknown', 'schema-valid', 'response-example'].map((r) => [
        r,
        [],
      ]),
    ) as unknown as OwnRuleResults;
    const ruleset = buildRuleset(own) as { rules: Record<string, unknown> };
    const expected = new Set([
      ...Object.keys(spectralRulesets.oas.rules),
      ...Object.keys(ruleset.rules),
      ...nonSpectralRules,
    ]);
    expect([...lintRuleNames].sort()).toEqual([...expected].sort());
  });
});
