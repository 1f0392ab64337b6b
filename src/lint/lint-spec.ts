// Lints one spec: swagger-parser validation plus Spectral (spectral:oas and our rules), one sorted problem list.
import spectralCore from '@stoplight/spectral-core';
import spectralParsers from '@stoplight/spectral-parsers';
import { compileSpec } from '../core/compile-spec.js';
import { loadSpec } from '../core/load-spec.js';
import { compareProblems, type LintProblem, type Severity } from './lint-problem.js';
import { buildRuleset } from './ruleset.js';
import { swaggerParserProblems } from './swagger-parser-problems.js';

const { Spectral, Document } = spectralCore;
const severities: Severity[] = ['error', 'warning', 'info', 'hint'];

/**
 * Lints the spec at `file`; `displayFile` is how problems name it. A spec that cannot be loaded at all
 * (missing, not YAML, not OpenAPI 3.1, broken $ref) throws a ContractsError: the lint could not run.
 */
export async function lintSpec(file: string, displayFile = file): Promise<LintProblem[]> {
  const spec = await loadSpec(file, displayFile);
  const compiled = compileSpec(spec, spec.document, { unknownFormats: 'refuse' });
  const spectral = new Spectral();
  spectral.setRuleset(buildRuleset(compiled));
  const results = await spectral.run(new Document(spec.source, spectralParsers.Yaml, displayFile));
  const problems: LintProblem[] = results.map((result) => ({
    file: displayFile,
    line: result.range.start.line + 1,
    column: result.range.start.character + 1,
    severity: severities[result.severity] ?? 'error',
    rule: String(result.code),
    message: result.message,
    path: result.path,
  }));
  // A structural error spectral:oas already reported on a line is not repeated in other words
  // (swagger-parser's, or ajv's meta-schema check).
  const structuralLines = new Set(problems.filter((p) => p.rule === 'oas3-schema').map((p) => p.line));
  const repeats = (p: LintProblem) =>
    (p.rule === 'swagger-parser' || p.rule === 'contracts-schema-valid') && structuralLines.has(p.line);
  const all = [...problems, ...(await swaggerParserProblems(spec, displayFile))];
  return all.filter((p) => !repeats(p)).sort(compareProblems);
}
