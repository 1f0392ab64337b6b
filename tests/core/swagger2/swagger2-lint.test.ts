// Lint on a Swagger 2.0 file: Spectral's 2.0 rules (spectral:oas picks them by the document's format) and ours, each
// problem at its 2.0 line, and an example judged once (by contracts-example-valid, not again by oas2-valid-*-example).
import { describe, expect, it } from 'vitest';
import type { LintProblem } from '../../../src/lint/lint-problem.js';
import { lintSpec } from '../../../src/lint/lint-spec.js';
import { fixture } from '../../helpers/paths.js';

const file = 'bad-examples-2.0.yaml';
const problem = (fields: Omit<LintProblem, 'file'>): LintProblem => ({ file, ...fields });

describe('lint on a Swagger 2.0 file', () => {
  it("runs Spectral's 2.0 rules and ours, each problem at its 2.0 line, each example judged once", async () => {
    const problems = await lintSpec(fixture(`swagger2/${file}`), file);
    const shown = problems
      .filter((p) => p.severity === 'error' || p.rule.startsWith('oas2-'))
      .map((p) => ({ ...p, path: p.path.map(String) }));
    expect(shown).toEqual([
      problem({
        line: 1,
        column: 1,
        severity: 'warning',
        rule: 'oas2-api-host',
        message: 'OpenAPI "host" must be present and non-empty string.',
        path: [],
      }),
      problem({
        line: 1,
        column: 1,
        severity: 'warning',
        rule: 'oas2-api-schemes',
        message: 'OpenAPI host "schemes" must be present and non-empty array.',
        path: [],
      }),
      problem({
        line: 20,
        column: 26,
        severity: 'error',
        rule: 'contracts-example-valid',
        message: 'example does not match its schema: the example must be integer',
        path: ['paths', '/notes', 'post', 'parameters', '0', 'schema', 'properties', 'words', 'example'],
      }),
      problem({
        line: 32,
        column: 18,
        severity: 'error',
        rule: 'contracts-example-valid',
        message: 'example does not match its schema: the example must be integer',
        path: ['definitions', 'Note', 'properties', 'id', 'example'],
      }),
    ]);
  });
});
