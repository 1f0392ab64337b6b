// `contracts fuzz`: generated requests against the embedded sandbox (no --base-url) or a server, with the
// conformance checks plus fuzzing's own; each distinct failure shrunk, with a seed, an id and a curl line.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { ApiEntry, ApiName, Project } from '../config/project.js';
import { ContractsError } from '../core/errors.js';
import { phases, type Phase } from '../fuzz/fuzz-case.js';
import { isNotExercised } from '../fuzz/stateful/not-exercised.js';
import { runRate } from '../fuzz/default-rate.js';
import { fuzzPluginsOf, pluginNames, pluginOf } from '../plugins/registry.js';
import { pluginOptions, prepareFuzzPlugins } from './plugin-options.js';
import { allowEnvOption } from './allow-env-option.js';
import { exitCodes, type Command, type OptionSpec, type Io, type ParsedOptions } from './command.js';
import { specOption, specOverrides } from './spec-option.js';
import { embeddedMockLine, type MockEngine, mockEngine, mockEngineOption } from './mock-engine-option.js';
import { coverageOptions, coverageSettings, reportCoverage } from './coverage-output.js';
import { startProgress } from './progress.js';
import { operationFilterOptions, operationFilters, suggestName } from './operation-filter-options.js';
import { checksOption, userChecksFor } from './checks-option.js';
import {
  apiOption,
  baseUrlOption,
  quietOption,
  reportOption,
  strictOption,
  timeoutOption,
} from './options/shared-options.js';
import { valueOf, withOption } from './options/typed-option.js';

/** What is fuzzed and how: the target, the phases and how many cases, the repository and hooks it may use. */
const targetOptions: OptionSpec[] = [
  withOption(baseUrlOption, {
    description:
      "The server to fuzz; without it, the embedded sandbox (seed APIs) or the API's Prism mock, on a free port",
  }),
  {
    name: 'phases',
    type: 'string',
    valueName: 'list',
    description: `Comma-separated phases: ${phases.join(',')}`,
    default: phases.join(','),
    conflicts: ['replay'],
  },
  {
    name: 'max-examples',
    type: 'string',
    valueName: 'n',
    description: 'Cases per operation and phase (stateful: sequences = n/5)',
    default: '25',
    conflicts: ['replay'],
  },
  {
    name: 'seed',
    type: 'string',
    valueName: 'n',
    description: 'Seed of every random choice; the same seed repeats the run (default: random, printed)',
  },
  timeoutOption,
  strictOption,
  checksOption,
  {
    name: 'require-all',
    type: 'boolean',
    description:
      'Exit 1 when a check could not be exercised (a precondition the spec leaves unmet: no create, no link to an id); without it such a check is skipped, saying what is missing',
    conflicts: ['replay'],
  },
  {
    name: 'read-only',
    type: 'boolean',
    description:
      'Only GET requests; creates and changes nothing (operations on what a write makes are then not fuzzed)',
    conflicts: ['replay'],
  },
];

/** How long and how fast. */
const paceOptions: OptionSpec[] = [
  {
    name: 'max-time',
    type: 'string',
    valueName: 's',
    description:
      'Stop generating this many seconds after the command started (starting a mock or the sandbox counts); what did not run is reported as not run',
    default: '600',
    conflicts: ['replay'],
  },
  {
    name: 'start-timeout',
    type: 'string',
    valueName: 's',
    description:
      "Without --base-url: how many seconds the API's Prism mock may take to answer after it starts (default: 30 s plus 10 s per MB of the spec); past it, our own engine serves the mock",
    conflicts: ['base-url'],
  },
  mockEngineOption,
  {
    name: 'workers',
    type: 'string',
    valueName: 'n',
    description: 'Requests in flight at once (the report is the same for any n; --rate caps them all together)',
    default: '4',
    conflicts: ['replay'],
  },
  {
    name: 'rate',
    type: 'string',
    valueName: 'n',
    description:
      'At most n requests per second (0: no cap). Default: no cap against loopback (127.0.0.0/8, ::1, localhost) and the embedded sandbox, 100 elsewhere',
    requires: ['base-url'],
  },
  {
    name: 'max-retry-after',
    type: 'string',
    valueName: 's',
    description:
      'Longest Retry-After (of a 429, or a 503) the run waits out: the operation waits while the others are fuzzed, then is sent again; a longer one gives it up',
    default: '120',
    conflicts: ['replay'],
  },
  {
    name: 'rate-limit-budget',
    type: 'string',
    valueName: 's',
    description: 'Total seconds the run waits on the rate limits of one operation before it gives that operation up',
    default: '600',
    conflicts: ['replay'],
  },
];

/** What the run writes, and a replay instead of a run. */
const outputOptions: OptionSpec[] = [
  withOption(reportOption, {
    description:
      'Write a report: junit:FILE, json:FILE (it also lists each failure with its request) or html:FILE (one page, offline)',
    conflicts: ['replay'],
  }),
  ...coverageOptions.map((option) => ({ ...option, conflicts: ['replay'] })),
  {
    ...specOption(
      'Fuzz against another spec file: API=FILE, e.g. inventory=draft.yaml (or FILE when --api chose one API)',
    ),
    conflicts: ['replay'],
  },
  {
    name: 'shard',
    type: 'string',
    valueName: 'i/n',
    description: 'Do the i-th of n equal shares of the operations (for n CI jobs; the same share every run)',
    conflicts: ['replay'],
  },
  {
    name: 'har-out',
    type: 'string',
    valueName: 'file',
    description:
      'Write every exchange of the run as a HAR capture (credentials redacted), each with what the run made of it; `contracts validate --har FILE` reads it back',
    conflicts: ['replay'],
  },
  {
    name: 'scripts',
    type: 'string',
    valueName: 'dir',
    description:
      "Write each failure's reproduction to DIR/ID.sh: a bash script that sends every request that led to it (ids read from the answers, credentials from the environment) and exits 1 if it fails again",
    conflicts: ['replay'],
  },
  {
    name: 'replay',
    type: 'string',
    valueName: 'file',
    description: 'Re-send the failing requests a JSON report saved and say which still fail (exit 1 if any does)',
  },
  {
    name: 'explain-links',
    type: 'boolean',
    description:
      "Print each API's resource model and exit, sending nothing: its resources (what creates, reads, updates, deletes, lists and acts on each, pagination), and for every operation where each path parameter's value comes from (a link of the spec, else inferred from a create's answer, a Location header or a list) or why nothing gives it",
    conflicts: ['replay'],
  },
  quietOption,
];

export const fuzzCommand: Command = {
  name: 'fuzz',
  summary: 'Generate requests from the specs and check every answer; failures shrunk, with a curl line',
  usage: '[options]',
  description: [
    "Sends requests generated from the specs: the spec's examples, edge values (enum values, lengths and bounds ±1,",
    'int64 edges, per_page 0/1/100/101, unicode, very long strings), random valid requests (fast-check), requests',
    "that break exactly one constraint, and a stateful walk over each API's resources (create, read, list, update,",
    'act, delete; see --explain-links). Every request is judged by the same validators first: a valid request must',
    'pass them and a negative one must fail them, or it is not sent.',
    '',
    'Every answer gets the conformance checks plus not_a_server_error, positive_data_acceptance (a valid request is',
    'not refused with 400/422), negative_data_rejection (an invalid one is not answered 2xx), ignored_auth; the walk',
    'adds ensure_resource_availability, use_after_free, read_after_write, listed_after_create, paging_consistent and',
    'conflict_documented. A check the spec gives no way to exercise is reported, not failed (--require-all fails it).',
    '',
    'Which operations: --include-* and --exclude-* by operationId, path template, method or tag (exact values, each',
    "repeatable), or the same keys under an API's `fuzz:` in the config (an option replaces its key there). An",
    'operation is fuzzed when it matches every kind of include given (one of its values) and no exclude; a value that',
    'matches no operation is a usage error.',
    '',
    'Without --base-url it starts the stateful sandbox of each spec (an API with a plug-in: the embedded sandbox) on a',
    "free loopback port and fuzzes that. What a plug-in's fixtures create carries a run marker and is deleted at the",
    'end, also on failure and on Ctrl-C. Credentials come only from the environment variables the config names',
    '(apis[].credentials); curl lines refer to them by name ("$VARIABLE"), never by value. The same --seed repeats a',
    'run exactly.',
  ].join('\n'),
  // The options name the project's APIs, known once main() has read it.
  options(project: Project): OptionSpec[] {
    return [
      apiOption(project.names),
      ...targetOptions,
      // The options of the plug-ins of the config's APIs (an owner and a repository, the hooks' URL, …).
      ...pluginOptions(project, 'fuzz'),
      ...operationFilterOptions,
      ...paceOptions,
      ...outputOptions,
      allowEnvOption,
    ];
  },
  // --explain-links prints the resource model and sends nothing.
  sendsCredentials: (options) => options['explain-links'] !== true,
  examples: [
    { command: 'contracts fuzz', description: 'Every API of the config against its embedded sandbox' },
    {
      command: 'contracts fuzz --api NAME --base-url https://staging.example.com --rate 10',
      description: 'Staging, gently',
    },
    { command: 'contracts fuzz --seed 1234 --phases negative', description: "Repeat a run's negative phase exactly" },
    {
      command: 'contracts fuzz --spec openapi.yaml --explain-links',
      description: 'Which operations create, read and list what, and where each path parameter comes from',
    },
    {
      command: 'contracts fuzz --replay reports/fuzz.json --base-url https://staging.example.com',
      description: 'After a fix: do the saved failures still reproduce?',
    },
  ],
  async run(options, positionals, io) {
    // --max-time counts from here: starting the mock or the sandbox is part of the run's time.
    const commandStarted = performance.now();
    if (positionals.length > 0) throw new ContractsError('USAGE', `unexpected argument "${positionals[0]}"`);
    const entries = io.project.select(valueOf(options, apiOption(io.project.names)));
    const selected = entries.map((entry) => entry.name);
    if (options['explain-links'] === true)
      return (await import('./explain-links.js')).explainLinks(
        entries,
        specOverrides(options.spec, io.cwd, selected, io.project.names),
        io,
      );
    const settings = validate(options);
    const [{ FuzzRunner }, { parseReportTargets }] = await Promise.all([
      import('../fuzz/run-fuzz.js'),
      import('../reports/write-reports.js'),
    ]);
    const reports = parseReportTargets(valueOf(options, reportOption), io.cwd);
    const coverageSetting = coverageSettings(options, io);
    const replayFile = options.replay === undefined ? undefined : path.resolve(io.cwd, String(options.replay));
    const saved =
      replayFile === undefined ? undefined : await (await import('../fuzz/replay.js')).readSavedFailures(replayFile);
    // Without --base-url: the embedded sandbox for the seed APIs, the stateful sandbox of its spec for any other API.
    if (settings.baseUrl === undefined && saved) requireSandboxFor(io.project, saved);
    const specFiles = specOverrides(options.spec, io.cwd, selected, io.project.names);
    const mocked =
      settings.baseUrl === undefined && !saved ? entries.filter((entry) => pluginOf(entry.name) === undefined) : [];
    const { sandbox, mocks } = await startEmbedded(
      settings.baseUrl === undefined && (saved !== undefined || mocked.length < selected.length),
      mocked,
      specFiles,
      valueOf(options, quietOption),
      io,
      settings.startTimeoutS,
      mockEngine(options['mock-engine']),
    );
    const embedded = sandbox !== undefined || mocks !== undefined;
    const baseUrl = settings.baseUrl ?? sandbox?.url ?? '';
    const baseUrlOf = (api: ApiName) => mocks?.urls[api] ?? baseUrl;
    if (saved) {
      try {
        return await replay(saved, baseUrl, settings, options, io, sandbox !== undefined);
      } finally {
        await sandbox?.stop();
      }
    }
    // Each selected API's plug-in reads its options and starts what the run needs (a receiver of deliveries).
    const plugged = await prepareFuzzPlugins(selected, options, { ...settings, replay: false });
    const harFile = typeof options['har-out'] === 'string' ? options['har-out'] : undefined;
    const har =
      harFile === undefined
        ? undefined
        : await openFuzzHar(path.resolve(io.cwd, harFile), harFile, io).catch(async (error: unknown) => {
            await sandbox?.stop();
            await mocks?.stop();
            await plugged.stop();
            throw error;
          });
    // The run's notes go through the progress line's io once it is up (each clears the line first).
    let logIo = io;
    const runner = new FuzzRunner({
      ...(har ? { har } : {}),
      apis: entries,
      specFiles,
      baseUrls: Object.fromEntries(selected.map((api) => [api, baseUrlOf(api)])) as Partial<Record<ApiName, string>>,
      phases: settings.phases,
      maxExamples: settings.maxExamples,
      seed: settings.seed,
      plugins: await fuzzPluginsOf(selected),
      settings: plugged.settings,
      timeoutMs: settings.timeoutMs,
      strict: valueOf(options, strictOption),
      readOnly: settings.readOnly,
      maxTimeMs: Math.max(1000, settings.maxTimeS * 1000 - (performance.now() - commandStarted)),
      ...rateOptions(embedded, settings.rate, baseUrl),
      workers: settings.workers,
      marker: randomBytes(4).toString('hex'),
      ...(settings.shard ? { shard: settings.shard } : {}),
      env: io.env,
      ...{ remote: !embedded, statefulMock: mocks?.engine === 'stateful' },
      log: (line) => (valueOf(options, quietOption) ? undefined : logIo.err(`contracts fuzz: ${line}`)),
      addSecret: (secret) => io.redactor.add(secret),
      redact: (text) => io.redactor.redact(text),
      coverage: coverageSetting.file !== undefined || coverageSetting.min !== undefined,
      filters: operationFilters(options, entries),
      rateLimits: { maxWaitMs: settings.maxRetryAfterS * 1000, budgetMs: settings.rateLimitBudgetS * 1000 },
      suggest: suggestName,
      userChecks: userChecksFor(options, io, selected, io.project.apis),
    });
    let run: Awaited<ReturnType<typeof runner.run>>;
    try {
      // What the plug-ins delete at the end: the Ctrl-C line names it only when there can be some.
      run = await runInterruptible(runner, valueOf(options, quietOption), io, plugged.cleanupNote, (wrapped) => {
        logIo = wrapped;
      });
    } finally {
      await sandbox?.stop();
      await mocks?.stop();
      await plugged.stop();
      await har?.close();
    }
    if (harFile !== undefined) io.out(`HAR written to ${harFile}`);
    return finish(run, options, io, { embedded, reports, coverageSetting, mockEngine: mocks?.engine ?? 'prism' });
  },
};

/**
 * Without --base-url: the embedded sandbox (for the seed APIs, and any replay) and a Prism mock of its spec for any
 * other API. Ctrl-C while they start stops what started, and ends the command.
 */
async function startEmbedded(
  needsSandbox: boolean,
  mocked: readonly ApiEntry[],
  specFiles: Partial<Record<ApiName, string>>,
  quiet: boolean,
  io: Io,
  startTimeoutS: number | undefined,
  engine: MockEngine,
): Promise<{
  sandbox?: { url: string; stop(): Promise<void> };
  mocks?: { urls: Partial<Record<ApiName, string>>; stop(): Promise<void>; engine: MockEngine };
}> {
  let sandbox: { url: string; stop(): Promise<void> } | undefined;
  let mocks: { urls: Partial<Record<ApiName, string>>; stop(): Promise<void>; engine: MockEngine } | undefined;
  const starting = new AbortController();
  const onEarlySignal = () => starting.abort();
  process.once('SIGINT', onEarlySignal);
  process.once('SIGTERM', onEarlySignal);
  try {
    if (needsSandbox) {
      const { startSandbox } = await import('../plugins/example-sandbox.js');
      sandbox = await startSandbox({ apis: io.project.apis, port: 0, host: '127.0.0.1' });
    }
    if (mocked.length > 0) {
      const { startEmbeddedMocks } = await import('../mock/start-embedded-mocks.js');
      const started = await startEmbeddedMocks(
        {
          apis: mocked,
          ports: Object.fromEntries(mocked.map((entry) => [entry.name, 0])),
          specFiles,
          signal: starting.signal,
          engine,
          ...(startTimeoutS === undefined ? {} : { startTimeoutMs: startTimeoutS * 1000 }),
        },
        (line) => io.err(`contracts fuzz: ${line}`),
      );
      mocks = started;
      if (!quiet)
        io.err(
          embeddedMockLine(
            mocked.map((entry) => entry.name),
            started.engine,
          ),
        );
    }
    if (starting.signal.aborted) throw new ContractsError('INTERRUPTED', 'interrupted before the run started');
  } catch (error) {
    await sandbox?.stop();
    await mocks?.stop();
    throw error;
  } finally {
    process.off('SIGINT', onEarlySignal);
    process.off('SIGTERM', onEarlySignal);
  }
  return { ...(sandbox ? { sandbox } : {}), ...(mocks ? { mocks } : {}) };
}

/** Runs the fuzzer with the progress line; Ctrl-C stops it after the request in flight, then cleans up. */
async function runInterruptible(
  runner: import('../fuzz/run-fuzz.js').FuzzRunner,
  quiet: boolean,
  io: Io,
  cleanupNote: string | undefined,
  useIo: (wrapped: Io) => void,
): Promise<import('../fuzz/run-fuzz.js').FuzzRun> {
  const onSignal = (signal: string) => {
    io.err(
      `contracts fuzz: ${signal}: stopping after the request in flight${cleanupNote ? `, ${cleanupNote}` : ''} (press Ctrl-C again to abort)…`,
    );
    runner.interrupt();
  };
  const onInt = () => onSignal('SIGINT');
  const onTerm = () => onSignal('SIGTERM');
  process.once('SIGINT', onInt);
  process.once('SIGTERM', onTerm);
  const progress = startProgress({
    stream: io.progressStream,
    quiet,
    label: 'fuzz',
    unit: 'requests',
    findings: 'failures',
    snapshot: () => runner.progress,
  });
  useIo(progress.around(io));
  try {
    return await runner.run();
  } finally {
    progress.stop();
    process.off('SIGINT', onInt);
    process.off('SIGTERM', onTerm);
  }
}

/**
 * The run's --rate (default-rate.ts) and its console line, said by the runner once the run is sure to start (a
 * missing credential refuses it in its one line first). Against the embedded mock or sandbox: no cap, nothing said.
 */
function rateOptions(embedded: boolean, given: number | undefined, baseUrl: string) {
  if (embedded) return { rate: 0 };
  const { rate, line } = runRate(given, baseUrl);
  return { rate, announce: line };
}

/** What a finished run prints and writes (scripts, console, reports, coverage), and its exit status. */
async function finish(
  run: import('../fuzz/run-fuzz.js').FuzzRun,
  options: ParsedOptions,
  io: Io,
  {
    embedded,
    reports,
    coverageSetting,
    mockEngine = 'prism',
  }: {
    embedded: boolean;
    mockEngine?: MockEngine;
    reports: ReturnType<typeof import('../reports/write-reports.js').parseReportTargets>;
    coverageSetting: ReturnType<typeof coverageSettings>;
  },
): Promise<number> {
  const [{ fuzzConsoleReport, writeFuzzScripts, writeFuzzJson }, { writeReports }, { rateLimitLines }] =
    await Promise.all([
      import('../fuzz/fuzz-report.js'),
      import('../reports/write-reports.js'),
      import('../fuzz/rate-limits.js'),
    ]);
  const scripts = typeof options.scripts === 'string' ? options.scripts : undefined;
  if (scripts !== undefined) await writeFuzzScripts(run, path.resolve(io.cwd, scripts), io.redactor);
  const ports = Object.fromEntries(io.project.apis.map((entry) => [entry.name, entry.mockPort]));
  io.out(fuzzConsoleReport(run, embedded, scripts, mockEngine, ports));
  for (const line of rateLimitLines(run.rateLimited)) io.out(line);
  await writeReports(
    { ...run, command: 'fuzz' },
    reports.filter((target) => target.kind !== 'json'),
    io.redactor,
  );
  for (const target of reports.filter((candidate) => candidate.kind === 'json'))
    await writeFuzzJson(run, target.file, io.redactor);
  if (run.error) {
    io.err(`contracts fuzz: ${run.error.toLine()}`);
    return exitCodes.cannotRun;
  }
  const underCoverage = run.coverage ? await reportCoverage(run.coverage, coverageSetting, io, io.out) : false;
  // A run that judged nothing proved nothing: it fails, saying so (the reasons are on each skipped line above).
  const exercisedNothing = run.summary.passed === 0 && run.summary.failed === 0;
  if (exercisedNothing)
    io.err('contracts fuzz: nothing was exercised: every check was skipped (the reasons are above)');
  // A check the walk could not exercise is skipped, saying what is missing; --require-all makes it fail the run.
  const unexercised = run.results.filter((result) => result.status === 'skipped' && isNotExercised(result.reason));
  const requiredAll = options['require-all'] === true && unexercised.length > 0;
  if (requiredAll)
    io.err(
      `contracts fuzz: exit 1: --require-all, and ${unexercised.length} check${unexercised.length === 1 ? ' was' : 's were'} not exercised (each "not exercised" above says why)`,
    );
  const failed = run.summary.failed > 0 || run.failures.length > 0 || underCoverage || exercisedNothing || requiredAll;
  // Exit 1 with no failing check (every ✗ is "not exercised"): the last line says why, not a bare "0 failed".
  const blocked = run.results.filter((result) => result.status === 'failed' && result.reason !== undefined).length;
  if (failed && !exercisedNothing && !underCoverage && run.failures.length === 0 && blocked === run.summary.failed)
    io.err(
      `contracts fuzz: exit 1: no check failed, but ${blocked} check${blocked === 1 ? '' : 's'} could not be exercised (each "✗ not exercised" above says why)`,
    );
  if (run.targetDied !== undefined)
    io.err(
      `contracts fuzz: the target stopped answering after the request of failure [${run.targetDied}] (its curl line is above): the run stopped there`,
    );
  return failed ? exitCodes.failed : exitCodes.ok;
}

async function replay(
  saved: import('../fuzz/replay.js').SavedFailure[],
  baseUrl: string,
  settings: ReturnType<typeof validate>,
  options: ParsedOptions,
  io: Io,
  embedded: boolean,
): Promise<number> {
  const { replayFailures } = await import('../fuzz/replay.js');
  const apis = saved.map((failure) => failure.api);
  const plugged = await prepareFuzzPlugins(apis, options, { ...settings, readOnly: false, replay: true });
  const outcomes = await replayFailures(saved, baseUrl, {
    project: io.project,
    env: io.env,
    remote: !embedded,
    plugins: await fuzzPluginsOf(apis),
    settings: plugged.settings,
    marker: randomBytes(4).toString('hex'),
    rate: embedded ? 0 : runRate(settings.rate, baseUrl).rate,
    strict: settings.strict,
    seed: settings.seed,
    timeoutMs: settings.timeoutMs,
    log: (line) => io.err(`contracts fuzz: ${line}`),
    addSecret: (secret) => io.redactor.add(secret),
    redact: (text) => io.redactor.redact(text),
  });
  let unreproduced = 0;
  for (const { failure, reproduced, status, reason, fromStart } of outcomes) {
    // A sequence sent again from a fresh start needs nothing the run had: its answer is a verdict whatever it is.
    const missing =
      reproduced === false &&
      !fromStart &&
      status !== undefined &&
      failure.varied === undefined &&
      preconditionGone(failure.check, failure.status, status);
    if (missing) unreproduced++;
    const verdict =
      reproduced === undefined
        ? `not replayed: ${reason}`
        : reproduced
          ? `still fails (answered ${status}${reason ? `, ${reason}` : ''})`
          : missing
            ? `could not reproduce: answered ${status} where the run got ${failure.status} (${whyNotReproduced(failure.status, status)}), so this says nothing of the bug`
            : `no longer fails (answered ${status})`;
    io.out(`[${failure.id}] ${failure.check} · ${failure.operation}: ${verdict}`);
  }
  const still = outcomes.filter((outcome) => outcome.reproduced === true).length;
  io.out(
    `${still} of ${outcomes.length} saved failures still fail${unreproduced > 0 ? `; ${unreproduced} could not be reproduced` : ''}`,
  );
  // A failure that could not be reproduced is no proof of a fix: the replay fails, as it proved nothing.
  return still > 0 || unreproduced > 0 ? exitCodes.failed : exitCodes.ok;
}

/**
 * The replay's answer says the request could not get where the run's did: the resource it names is gone (404, 410)
 * or the target refused it (401, 403), where the run's own answer was something else. Not for the checks whose fix
 * is such a refusal: a request without credentials (ignored_auth) or breaking the spec (negative_data_rejection).
 */
/** The HAR --har-out writes, opened before anything is sent: a file that cannot be written ends the run at once. */
async function openFuzzHar(file: string, shown: string, io: Io): Promise<import('../fuzz/har-out.js').FuzzHar> {
  const [{ HarWriter }, { FuzzHar }] = await Promise.all([
    import('../har/har-writer.js'),
    import('../fuzz/har-out.js'),
  ]);
  try {
    return new FuzzHar(
      await HarWriter.create(file, '', (text) => io.redactor.redact(text), undefined, 'contracts fuzz', true),
    );
  } catch (error) {
    throw new ContractsError(
      'REPORT_NOT_WRITABLE',
      `cannot write the HAR to ${shown}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
}

/**
 * Whether a refusal on replay says only that what the request needs is gone (not that the bug is fixed). Never for
 * a case that set a credential's parameter itself: refusing that value is the server's answer to it.
 */
/** Why a replay's answer says nothing of the saved failure (preconditionGone said so), in a few words. */
function whyNotReproduced(saved: number, replayed: number): string {
  if (saved === 429 || saved === 503) return "the run's answer was the target's load or rate limit, not the request's";
  if (replayed < 300) return 'what it names exists now: made since the run';
  return replayed === 404 || replayed === 410 ? 'what it needs is gone' : 'refused: check the credentials';
}

function preconditionGone(check: string, saved: number, replayed: number): boolean {
  if (check === 'ignored_auth' || check === 'negative_data_rejection') return false;
  // 429 and 503 say the target's load or limit then (RFC 6585 section 4, RFC 9110 section 15.6.4), not the request.
  if ((saved === 429 || saved === 503) && replayed !== saved) return true;
  // The other way too: refused then (not found, or hidden as forbidden) and answered now, so it exists now.
  const absent = [401, 403, 404, 410];
  if (absent.includes(saved) && replayed >= 200 && replayed < 300) return true;
  return absent.includes(replayed) && replayed !== saved;
}

function validate(options: ParsedOptions) {
  const baseUrl = valueOf(options, baseUrlOption);
  const chosen = String(options.phases)
    .split(',')
    .map((phase) => phase.trim())
    .filter(Boolean);
  const unknown = chosen.find((phase) => !(phases as readonly string[]).includes(phase));
  if (unknown !== undefined || chosen.length === 0)
    throw new ContractsError(
      'USAGE',
      `--phases takes a comma-separated list of ${phases.join(', ')}, not "${String(options.phases)}"`,
    );
  const number = (name: string, min: number, max: number): number => {
    const value = Number(options[name]);
    if (!Number.isInteger(value) || value < min || value > max)
      throw new ContractsError(
        'USAGE',
        `--${name} must be a whole number from ${min} to ${max}, not "${String(options[name])}"`,
      );
    return value;
  };
  const seed = options.seed === undefined ? randomBytes(4).readUInt32BE() >>> 1 : number('seed', 0, 2 ** 31 - 1);
  const shardMatch = options.shard === undefined ? undefined : /^(\d+)\/(\d+)$/.exec(String(options.shard));
  if (
    options.shard !== undefined &&
    (!shardMatch || Number(shardMatch[1]) < 1 || Number(shardMatch[1]) > Number(shardMatch[2]))
  ) {
    throw new ContractsError('USAGE', `--shard takes i/n with 1 ≤ i ≤ n, such as 2/4, not "${String(options.shard)}"`);
  }
  const shard = shardMatch ? { index: Number(shardMatch[1]), count: Number(shardMatch[2]) } : undefined;
  const readOnly = Boolean(options['read-only']);
  const startTimeout = options['start-timeout'];
  // Seconds, as contracts mock takes them and as Prism's start message suggests (--start-timeout SECONDS).
  const startTimeoutS = startTimeout === undefined ? undefined : Number(startTimeout);
  if (
    startTimeoutS !== undefined &&
    (!/^\d+(\.\d+)?$/.test(String(startTimeout)) || !(startTimeoutS > 0 && startTimeoutS <= 3600))
  )
    throw new ContractsError(
      'USAGE',
      `--start-timeout takes a number of seconds, more than 0 and at most 3600, not "${String(startTimeout)}"`,
    );
  if (readOnly && baseUrl === undefined)
    throw new ContractsError('USAGE', '--read-only needs --base-url (the embedded sandbox is yours to change)');
  return {
    baseUrl,
    phases: phases.filter((phase) => chosen.includes(phase)) as Phase[],
    maxExamples: number('max-examples', 1, 100_000),
    seed,
    timeoutMs: valueOf(options, timeoutOption),
    maxTimeS: number('max-time', 1, 86_400),
    rate: options.rate === undefined ? undefined : number('rate', 0, 100_000),
    workers: number('workers', 1, 64),
    maxRetryAfterS: number('max-retry-after', 0, 86_400),
    rateLimitBudgetS: number('rate-limit-budget', 0, 86_400),
    strict: valueOf(options, strictOption),
    shard,
    readOnly,
    startTimeoutS,
  };
}

/**
 * Without --base-url the embedded sandbox is the target, and it serves the seed APIs only (loading both their specs
 * from the config): any other API needs a server of its own.
 */
function requireSandboxFor(project: Project, saved: readonly { api: ApiName }[]): void {
  // A failure of an API the project does not have is said in the replay itself (replay.ts: unknown API).
  const names = saved.map((failure) => failure.api).filter((name) => project.has(name));
  const served = pluginNames();
  const others = [...new Set(names.filter((name) => !served.includes(name)))];
  if (others.length > 0) {
    const [first] = others as [ApiName];
    throw new ContractsError(
      'USAGE',
      `${others.join(', ')} ${others.length === 1 ? 'has' : 'have'} no embedded sandbox (it serves ${served.join(' and ')} only): pass --base-url with a server for ${others.length === 1 ? 'it' : 'them'}, such as the mock \`contracts mock --api ${first}\` starts at http://127.0.0.1:${project.api(first).mockPort}`,
    );
  }
  const missing = served.filter((name) => !project.has(name));
  if (missing.length > 0)
    throw new ContractsError(
      'USAGE',
      `the embedded sandbox serves ${served.join(' and ')}, and the config does not list ${missing.join(' or ')}: pass --base-url with a server to fuzz`,
    );
}

/**
 * `contracts merge-reports a.json b.json … --report junit:… --report json:…`: one report from the JSON reports of
 * the shards of a run. (Registered in main.ts's command table like every command.)
 */
export const mergeReportsCommand: Command = {
  name: 'merge-reports',
  summary: 'Merge the JSON reports of several runs (the shards of one fuzz run) into one report',
  usage: 'FILE.json... [--report kind:file]...',
  description:
    'A check failed in any report failed; else passed in any, passed; else it stays skipped. Each finding and each failure is kept once.',
  options: [withOption(reportOption, { description: 'Write the merged report: junit:FILE, json:FILE or html:FILE' })],
  positionals: [
    {
      name: 'FILE.json',
      description: 'JSON reports written by contracts fuzz or contracts check (--report json:FILE)',
    },
  ],
  examples: [
    {
      command: 'contracts merge-reports shard-1.json shard-2.json --report junit:reports/fuzz.xml',
      description: 'One JUnit report for the CI dashboard',
    },
  ],
  async run(options, positionals, io) {
    if (positionals.length === 0) throw new ContractsError('USAGE', 'name the JSON reports to merge');
    const [{ mergeReports, readReports }, { parseReportTargets, writeReports }, { fuzzConsoleReport, writeFuzzJson }] =
      await Promise.all([
        import('../fuzz/merge-reports.js'),
        import('../reports/write-reports.js'),
        import('../fuzz/fuzz-report.js'),
      ]);
    const targets = parseReportTargets(valueOf(options, reportOption), io.cwd);
    const run = mergeReports(await readReports(positionals.map((file) => path.resolve(io.cwd, file))));
    io.out(fuzzConsoleReport(run, false));
    await writeReports(
      run,
      targets.filter((target) => target.kind !== 'json'),
      io.redactor,
    );
    for (const target of targets.filter((candidate) => candidate.kind === 'json'))
      await writeFuzzJson(run, target.file, io.redactor);
    return run.error
      ? exitCodes.cannotRun
      : run.summary.failed > 0 || run.failures.length > 0
        ? exitCodes.failed
        : exitCodes.ok;
  },
};
