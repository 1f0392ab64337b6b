// The names `lint.rules` (contracts.config.yaml) and `lint --level` may set, and the levels they take. A static list,
// so reading the config loads no Spectral: tests/lint/rule-names.test.ts holds it to the ruleset (ruleset.ts).
import { closestName } from '../core/did-you-mean.js';

/** Spectral's and Redocly's words for a rule's level, plus `warning`, our own output's (and `contracts diff`'s). */
export const lintLevels = ['error', 'warn', 'warning', 'info', 'hint', 'off'] as const;
export type LintLevel = (typeof lintLevels)[number];

/** Every rule of spectral:oas (@stoplight/spectral-rulesets 1.x), as Spectral names it, recommended or not. */
const spectralOasRules = [
  'operation-success-response',
  'oas2-operation-formData-consume-check',
  'operation-operationId-unique',
  'operation-parameters',
  'operation-tag-defined',
  'path-params',
  'contact-properties',
  'duplicated-entry-in-enum',
  'info-contact',
  'info-description',
  'info-license',
  'license-url',
  'no-eval-in-markdown',
  'no-script-tags-in-markdown',
  'openapi-tags-alphabetical',
  'openapi-tags-uniqueness',
  'openapi-tags',
  'operation-description',
  'operation-operationId',
  'operation-operationId-valid-in-url',
  'operation-singular-tag',
  'operation-tags',
  'path-declarations-must-exist',
  'path-keys-no-trailing-slash',
  'path-not-include-query',
  'tag-description',
  'no-$ref-siblings',
  'array-items',
  'typed-enum',
  'oas2-api-host',
  'oas2-api-schemes',
  'oas2-discriminator',
  'oas2-host-not-example',
  'oas2-host-trailing-slash',
  'oas2-parameter-description',
  'oas2-operation-security-defined',
  'oas2-valid-schema-example',
  'oas2-valid-media-example',
  'oas2-anyOf',
  'oas2-oneOf',
  'oas2-schema',
  'oas2-unused-definition',
  'oas3-api-servers',
  'oas3-examples-value-or-externalValue',
  'oas3-operation-security-defined',
  'oas3-parameter-description',
  'oas3-server-not-example.com',
  'oas3-server-trailing-slash',
  'oas3-valid-media-example',
  'oas3-valid-schema-example',
  'oas3-schema',
  'oas3-unused-component',
  'oas3-server-variables',
  'oas3-callbacks-in-callbacks',
  'oas3_1-servers-in-webhook',
  'oas3_1-callbacks-in-webhook',
  'oas3_2-no-deprecated-xml-attribute',
] as const;

/** Our own Spectral rules (ruleset.ts). */
export const ownSpectralRules = [
  'contracts-operation-summary',
  'contracts-example-valid',
  'contracts-pattern-backtracking',
  'contracts-format-unknown',
  'contracts-schema-valid',
  'contracts-response-example',
] as const;

/** What lint reports outside Spectral: swagger-parser's validation, and the notice that Spectral's rules were skipped. */
export const nonSpectralRules = ['swagger-parser', 'contracts-spectral-skipped'] as const;

export const lintRuleNames: readonly string[] = [...spectralOasRules, ...ownSpectralRules, ...nonSpectralRules];

/**
 * Why `name` is not a rule lint knows, in words that end a message: the nearest known rule when it is close (a
 * slip), else where the names come from.
 */
export function unknownRuleHint(name: string): string {
  const nearest = closestName(name, lintRuleNames);
  return nearest !== undefined
    ? `Did you mean "${nearest}"?`
    : "A rule is one of spectral:oas's, one of ours (contracts-operation-summary, contracts-example-valid…) or swagger-parser";
}

export function isLintRule(name: string): boolean {
  return lintRuleNames.includes(name);
}
