// The Spectral ruleset: spectral:oas (recommended) plus the rules of our own, named contracts-*.
import { createRulesetFunction, type IFunctionResult, type RulesetDefinition } from '@stoplight/spectral-core';
import spectralFunctions from '@stoplight/spectral-functions';
import spectralRulesets from '@stoplight/spectral-rulesets';
import type { CompiledSpec } from '../core/compile-spec.js';
import { duplicatedEntryInEnum, enumOwners } from './rules/duplicated-entry-in-enum.js';
import { exampleValidResults } from './rules/example-valid.js';
import { formatUnknownResults } from './rules/format-unknown.js';
import { patternBacktrackingResults } from './rules/pattern-backtracking.js';
import { responseExampleResults } from './rules/response-example.js';
import { type RuleLevels, spectralLevel } from './rule-levels.js';
import { nonSpectralRules } from './rule-names.js';
import { schemaValidResults } from './rules/schema-valid.js';

const { truthy } = spectralFunctions;
const { oas } = spectralRulesets;
const operations = '$.paths[*][get,put,post,delete,options,head,patch,trace]';

/** The results of our whole-document rules, by rule, with paths in the user's source. */
export type OwnRuleResults = Record<
  'example-valid' | 'pattern-backtracking' | 'format-unknown' | 'schema-valid' | 'response-example',
  IFunctionResult[]
>;

/** The level of each of our whole-document rules: the ruleset's, and lint's when it runs them without Spectral. */
export const ownRuleSeverity = {
  'example-valid': 'error',
  'pattern-backtracking': 'warning',
  'format-unknown': 'warning',
  'schema-valid': 'error',
  'response-example': 'warning',
} as const satisfies Record<keyof OwnRuleResults, 'error' | 'warning'>;
const spectralSeverity = (rule: keyof OwnRuleResults) => (ownRuleSeverity[rule] === 'warning' ? 'warn' : 'error');

/**
 * Runs our whole-document rules on the compiled spec. They run before Spectral, not inside it, so the compiled
 * validators can be dropped before Spectral builds its own model of the document: on GitHub's description the two
 * together peaked at 1.6 GB, one after the other at well under 1 GB.
 */
export function ownRuleResults(compiled: CompiledSpec): OwnRuleResults {
  // Spectral locates a result in the user's source: a path in the upgraded (3.1) document is mapped back to it.
  const toSource = compiled.spec.sourcePath;
  const located = (results: IFunctionResult[]) =>
    results.map((result) => (result.path ? { ...result, path: [...toSource(result.path)] } : result));
  return {
    'example-valid': located(exampleValidResults(compiled)),
    'pattern-backtracking': located(patternBacktrackingResults(compiled)),
    'format-unknown': located(formatUnknownResults(compiled)),
    'schema-valid': located(schemaValidResults(compiled)),
    'response-example': located(responseExampleResults(compiled)),
  };
}

/** A whole-document rule whose results were worked out already (ownRuleResults). */
function documentRule(results: IFunctionResult[]) {
  return createRulesetFunction<unknown, null>({ input: null, options: null }, () => results);
}

/**
 * spectral:oas (recommended) with our changes and rules, then the project's levels (`levels`): a level on a rule that
 * is off here (not recommended, or replaced by one of ours) turns it on, as in a Spectral ruleset; `off` spares
 * Spectral the rule's work. Levels of rules outside Spectral (swagger-parser) are lint-command's to apply.
 */
export function buildRuleset(own: OwnRuleResults, levels: RuleLevels = {}): RulesetDefinition {
  const rules = ourRules(own);
  for (const [rule, level] of Object.entries(levels)) {
    if ((nonSpectralRules as readonly string[]).includes(rule)) continue;
    const ours = rules[rule];
    rules[rule] =
      typeof ours === 'object' && ours !== null ? { ...ours, severity: spectralLevel(level) } : spectralLevel(level);
  }
  return { extends: [[oas as RulesetDefinition, 'recommended']], rules } as RulesetDefinition;
}

function ourRules(own: OwnRuleResults): Record<string, unknown> {
  return {
    // The seeds name no contact; inventing one would break "not shown stays open".
    'info-contact': 'off',
    // Replaced by contracts-example-valid, which uses the conformance suite's ajv setup.
    'oas3-valid-media-example': 'off',
    'oas3-valid-schema-example': 'off',
    // Their Swagger 2.0 twins, for the same reason: a 2.0 example is judged once, by ours, at its 2.0 line.
    'oas2-valid-media-example': 'off',
    'oas2-valid-schema-example': 'off',
    // spectral:oas's own compares every pair of values: quadratic, minutes for a 100k-value enum.
    'duplicated-entry-in-enum': {
      description: 'Enum values must not have duplicate entry.',
      message: '{{error}}',
      severity: 'warn',
      given: [enumOwners],
      then: { field: 'enum', function: duplicatedEntryInEnum },
    },
    // Opinions are warnings, at spectral:oas's own levels (operation-operationId and oas3-unused-component are
    // `warn` there): errors are kept for what breaks a tool or a client (an invalid schema or example, a broken
    // $ref, a duplicate operationId). Stripe's description had 452 errors of these, OAI's petstore exited 1.
    'contracts-operation-summary': {
      description: 'Every operation has a summary.',
      message: 'operation has no summary',
      severity: 'warn',
      given: operations,
      then: { field: 'summary', function: truthy },
    },
    'contracts-example-valid': {
      description: "Every example is valid against its schema (the conformance suite's ajv setup).",
      message: '{{error}}',
      severity: spectralSeverity('example-valid'),
      given: '$',
      resolved: false,
      then: { function: documentRule(own['example-valid']) },
    },
    'contracts-pattern-backtracking': {
      description: 'Every pattern runs in linear time: no syntax RE2 lacks (lookaround, backreferences).',
      message: '{{error}}',
      severity: spectralSeverity('pattern-backtracking'),
      given: '$',
      resolved: false,
      then: { function: documentRule(own['pattern-backtracking']) },
    },
    'contracts-format-unknown': {
      description: 'A format with no check is an annotation (OpenAPI allows any): said once per format.',
      message: '{{error}}',
      severity: spectralSeverity('format-unknown'),
      given: '$',
      resolved: false,
      then: { function: documentRule(own['format-unknown']) },
    },
    'contracts-schema-valid': {
      description: 'Every schema compiles in ajv strict mode: no unknown keywords.',
      message: '{{error}}',
      severity: spectralSeverity('schema-valid'),
      given: '$',
      resolved: false,
      then: { function: documentRule(own['schema-valid']) },
    },
    'contracts-response-example': {
      description: 'Every response media type with a schema has an example: what a mock serves as real data.',
      message: '{{error}}',
      severity: spectralSeverity('response-example'),
      given: '$',
      resolved: false,
      then: { function: documentRule(own['response-example']) },
    },
  };
}
