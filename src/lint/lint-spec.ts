// Lints one spec: swagger-parser validation plus Spectral (spectral:oas and our rules), one sorted problem list.
import spectralCore from '@stoplight/spectral-core';
import spectralParsers from '@stoplight/spectral-parsers';
import { collectGarbage } from './collect-garbage.js';
import { compileSpec } from '../core/compile-spec.js';
import { loadSpec, type LoadedSpec } from '../core/load-spec.js';
import { findKey } from '../core/find-key.js';
import { pathToPointer } from '../core/source-locator.js';
import { compareProblems, type LintProblem, type Severity } from './lint-problem.js';
import { localOnlyResolver, resolvedNodes } from './local-resolver.js';
import type { RuleLevels } from './rule-levels.js';
import { buildRuleset, type OwnRuleResults, ownRuleResults, ownRuleSeverity } from './ruleset.js';
import { swaggerParserProblems } from './swagger-parser-problems.js';

const { Spectral, Document } = spectralCore;
const severities: Severity[] = ['error', 'warning', 'info', 'hint'];

/** Our whole-document rules' results as problems, for a lint that skips Spectral (which otherwise reports them). */
function ownProblems(own: OwnRuleResults, spec: LoadedSpec, displayFile: string): LintProblem[] {
  // One problem per line and message, as Spectral reports them (a result at a key and one at its value are one).
  const seen = new Set<string>();
  const problems = (Object.keys(own) as (keyof OwnRuleResults)[]).flatMap((rule) =>
    own[rule].map((result) => ({
      file: displayFile,
      ...spec.locateSource(result.path ?? []),
      severity: ownRuleSeverity[rule],
      rule: `contracts-${rule}`,
      message: result.message,
      path: result.path ?? [],
    })),
  );
  return problems.filter((problem) => {
    const key = `${problem.line}\u0000${problem.rule}\u0000${problem.message}`;
    return seen.has(key) ? false : (seen.add(key), true);
  });
}

/** Specs larger than this (MB) skip Spectral's rules unless --spectral-limit says otherwise; GitHub's 13 MB is under. */
export const defaultSpectralLimitMb = 16;
/**
 * Resolved documents larger than this (JSON nodes, every local `$ref` expanded as Spectral expands it) skip Spectral's
 * rules unless --spectral-max-nodes says otherwise. Spectral walks the resolved document for most of its rules, about
 * a second per million nodes: GitHub's 1,223 operations resolve to 1.3 million, Stripe's to 2.5 million; DocuSign's
 * 2.8 MB, whose schemas share schemas that share schemas, to 52 million (a minute of Spectral, 40 s of it walking).
 */
export const defaultSpectralMaxNodes = 10_000_000;

/**
 * Lints the spec at `file`; `displayFile` is how problems name it. A spec that cannot be loaded at all
 * (missing, not YAML, not OpenAPI 3.1, broken $ref) throws a ContractsError: the lint could not run.
 */
export async function lintSpec(
  file: string,
  displayFile = file,
  options: { spectralLimitMb?: number; spectralMaxNodes?: number; rules?: RuleLevels } = {},
): Promise<LintProblem[]> {
  // Every YAML syntax error reported: yaml reads the text, never the fast path (load-spec.ts).
  const spec = await loadSpec(file, displayFile, { strictYaml: true });
  // A format ajv does not know is an annotation, as OpenAPI allows: contracts-format-unknown says so, once per format,
  // and the examples under it are still validated.
  const own = ownRuleResults(compileSpec(spec, spec.document, { optimize: false, unknownKeywords: 'refuse' }));
  collectGarbage(); // the compiled validators are garbage now: Spectral gets their memory
  // Spectral's time grows faster than the spec (Microsoft Graph: 20 MB in 190 s and 2.4 GB; 47 MB past 10 minutes
  // and 4 GB), and with the size of the spec resolved: past either limit, our own rules and swagger-parser run, and
  // the skip is said, never silent.
  const skip = async (why: string): Promise<LintProblem[]> => {
    const skipped: LintProblem = {
      file: displayFile,
      line: 1,
      column: 1,
      severity: 'warning',
      rule: 'contracts-spectral-skipped',
      message: `Spectral's rules (spectral:oas) were not run: ${why}. Our own rules and swagger-parser ran.`,
      path: [],
    };
    const ours = ownProblems(own, spec, displayFile);
    return [skipped, ...ours, ...(await swaggerParserProblems(spec, displayFile))].sort(compareProblems);
  };
  const limit = options.spectralLimitMb ?? defaultSpectralLimitMb;
  const megabytes = Buffer.byteLength(spec.source) / 1e6;
  if (megabytes > limit)
    return skip(
      `the spec is ${megabytes.toFixed(1)} MB, over --spectral-limit ${limit} MB; raise it to run them (minutes from 20 MB)`,
    );
  // Spectral's parsers assign every key (`__proto__` sets the prototype: the map loses the entry, its keywords become
  // entries), and its resolver calls `target.hasOwnProperty(key)`, which a property of that name shadows.
  const unreadable = findKey(spec.sourceDocument, ['__proto__', 'hasOwnProperty']);
  if (unreadable !== undefined)
    return skip(
      `the spec names a key "${String(unreadable.at(-1))}" (${pathToPointer(unreadable)}), which Spectral cannot read`,
    );
  const { document, located } = spectralDocument(spec, displayFile);
  const maxNodes = options.spectralMaxNodes ?? defaultSpectralMaxNodes;
  // Spectral resolves nothing itself (local pointers only): it gets the document we loaded, resolved once.
  const resolver = localOnlyResolver();
  const nodes = await resolvedNodes(resolver, document, maxNodes);
  if (nodes > maxNodes)
    return skip(
      `the spec with its $refs expanded is over ${maxNodes.toLocaleString('en-US')} JSON nodes (--spectral-max-nodes), ` +
        'and Spectral walks it whole for its rules (about a second per million); raise the limit to run them',
    );
  const spectral = new Spectral({ resolver });
  spectral.setRuleset(buildRuleset(own, options.rules));
  const results = await spectral.run(document);
  const problems: LintProblem[] = results.map((result) => ({
    file: displayFile,
    ...(located
      ? { line: result.range.start.line + 1, column: result.range.start.character + 1 }
      : spec.locateSource(result.path)),
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

/**
 * The text Spectral lints: the user's own when the spec is one file (Spectral's ranges are then its lines), else
 * the bundled document, whose problems are located by our locator (at the `$ref` that brought a file in).
 */
function spectralDocument(spec: LoadedSpec, displayFile: string) {
  if (!spec.bundled) return { document: new Document(spec.source, spectralParsers.Yaml, displayFile), located: true };
  const text = JSON.stringify(spec.sourceDocument, null, 1);
  return { document: new Document(text, spectralParsers.Json, displayFile), located: false };
}
