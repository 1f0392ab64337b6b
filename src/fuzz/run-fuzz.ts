// Runs the phases against each API: the fixed lists (examples, boundaries, the negative phase's single-constraint
// breaks) case by case, the arbitraries (random, random negatives) through fast-check, which shrinks each new
// failure to a minimal request; then the stateful sequences. One executor, one set of checks, one seed.
import { probeAuthOnResources } from './auth-probes.js';
import { securityOf } from './auth-refusals.js';
import path from 'node:path';
import fc from 'fast-check';
import { specPath, type ApiEntry, type ApiName } from '../config/project.js';
import { compileContract, type Contract } from '../core/compile-contract.js';
import type { UserChecksLoader } from '../core/user-checks/user-check-set.js';
import { settleUserChecks } from '../reports/settle-user-checks.js';
import { duplicateOperationIdWarnings } from '../core/operation-index.js';
import { Coverage } from '../core/coverage.js';
import { ContractsError, nestingTooDeep } from '../core/errors.js';
import type { CheckName } from '../core/finding.js';
import { loadSpec } from '../core/load-spec.js';
import { apiCredentials, type ApiCredential } from '../http/api-credentials.js';
import { HttpCapture } from '../http/http-capture.js';
import type { FuzzSend, FuzzTransport } from './fuzz-transport.js';
import { ResultCollector, summarize } from '../reports/results.js';
import type { CheckRun } from '../reports/check-run.js';
import { Executor, type ApiTarget, type CaseResult, type FuzzFailure, type SentCase } from './executor.js';
import type { FuzzCase, Phase } from './fuzz-case.js';
import type { FuzzHar } from './har-out.js';
import {
  boundariesPhase,
  examplesPhase,
  negativeArbitrary,
  negativePhase,
  randomArbitrary,
  type Generator,
} from './generate-cases.js';
import { runOrdered } from './ordered-pool.js';
import type { OperationModel } from './request-model.js';
import { requestSide } from './request-side.js';
import { shrinkFixed } from './shrink-fixed.js';
import type { FuzzPluginLookup } from './fuzz-plugin.js';
import { ResourceWalk, modelOf } from './stateful/walk.js';
import { notExercised } from './stateful/not-exercised.js';
import { type LiveInstances, liveInstancesFor } from './stateful/live-instances.js';
import { valueStream } from './value-stream.js';
import { filterOperations } from './operation-filter.js';
import { OperationTurns, type RateLimitedOperation } from './rate-limits.js';
import { hasFilters, type OperationFilters, type Suggest } from './filter-kinds.js';

export interface FuzzOptions {
  /** A line said once every spec loaded and every credential a run needs was found: before the first request. */
  announce?: string;
  /** --har-out: every exchange written as it happens. */
  har?: FuzzHar;
  /** The APIs to fuzz, from the project. */
  apis: readonly ApiEntry[];
  baseUrls: Partial<Record<ApiName, string>>;
  /** Another spec file for an API (--spec) instead of the config's. */
  specFiles?: Partial<Record<ApiName, string>>;
  phases: readonly Phase[];
  maxExamples: number;
  seed: number;
  /** The APIs' fuzz plug-ins (fuzz-plugin.ts), handed in by the command; an API without one is fuzzed from its spec. */
  plugins?: FuzzPluginLookup;
  /** What the plug-ins' command-line options set (their fixtures read it). */
  settings?: Readonly<Record<string, unknown>>;
  timeoutMs: number;
  strict: boolean;
  readOnly: boolean;
  maxTimeMs: number;
  rate: number;
  marker: string;
  env: NodeJS.ProcessEnv;
  /** A real target (--base-url): a credential it needs must be set. Without it, the embedded sandbox. */
  remote?: boolean;
  /** The embedded mock is the stateful sandbox (it keeps what a create stores): the walk runs against it too. */
  statefulMock?: boolean;
  log: (line: string) => void;
  addSecret: (secret: string) => void;
  /** Redacts credentials from a text (a failure's answer, before it is cut). */
  redact?: (text: string) => string;
  /** Shard `index` (from 1) of `count`: this run does its share of the operations, the same share every time. */
  shard?: { index: number; count: number };
  /** Count what the cases exercised (FuzzRun.coverage). */
  coverage?: boolean;
  /** Cases in flight at once (--workers; 1 when absent). The report is the same whatever the number. */
  workers?: number;
  /** --max-retry-after and --rate-limit-budget, in milliseconds (rate-limits.ts). */
  rateLimits?: { maxWaitMs: number; budgetMs: number };
  /** --include-… and --exclude-… and the config's `fuzz:` keys, by API (operation-filter.ts). */
  filters?: Partial<Record<string, OperationFilters>>;
  /** A close name for a filter value that matches nothing (the CLI's did-you-mean). */
  suggest?: Suggest;
  /** The user's own checks of each API (apis[].checks, --checks), loaded once its spec is. */
  userChecks?: UserChecksLoader;
  /** Sends each request instead of the real HTTP client (a unit test's service: fuzz-transport.ts). */
  send?: FuzzSend;
}

export interface FuzzRun extends CheckRun {
  failures: FuzzFailure[];
  seed: number;
  marker: string;
  requests: number;
  /** The failure id of the request the target died on; the run stopped after it (target-died.ts). */
  targetDied?: string;
  /** Operations the target rate-limited (rate-limits.ts). */
  rateLimited?: RateLimitedOperation[];
}

/** Shrinking stops after this many extra requests per failure: a minimal case is good, an endless run is not. */
const maxShrinkRequests = 200;

export class FuzzRunner {
  readonly capture: HttpCapture;
  /** The operations (`api/operationId`) and the sequences (`api/stateful`) this run fuzzes: all of them, or its --shard. */
  private units = new Set<string>();
  /** Operations no request can be sent to, by `api/operationId`: why (a header name HTTP cannot carry). */
  private readonly unsendable = new Map<string, string>();

  /**
   * The model without the optional header parameters whose name is no HTTP token (Notion's `""`): no request can
   * carry them. An operation that requires one (a parameter, or the header of its apiKey scheme) cannot be called at
   * all: its checks are skipped with the reason, instead of the whole run ending at its first request.
   */
  private sendable(api: string, model: OperationModel): OperationModel {
    const bad = (name: string) => !httpToken.test(name);
    const required = [
      ...model.params.filter((param) => param.in === 'header' && param.required && bad(param.name)).map((p) => p.name),
      // The header of an apiKey scheme, when every alternative of the operation's security needs one (a RapidAPI
      // description's `ADVICEment API Key`): then no request to it can be authenticated.
      ...(model.secured && model.apiKeyHeaderAlternatives.every((names) => names.some(bad))
        ? model.apiKeyHeaderAlternatives.flat().filter(bad)
        : []),
    ];
    if (required.length > 0)
      this.unsendable.set(
        `${api}/${model.operationId}`,
        `the spec's header ${JSON.stringify(required[0])} is no HTTP header name, so no request can carry it`,
      );
    const params = model.params.filter((param) => param.in !== 'header' || !bad(param.name));
    return params.length === model.params.length ? model : { ...model, params };
  }
  private executor: Executor | undefined;

  constructor(private readonly options: FuzzOptions) {
    this.capture = new HttpCapture({ timeoutMs: options.timeoutMs, rateLimitsToCaller: true });
  }

  interrupt(): void {
    this.capture.interrupt();
  }

  /** The real client, or `send` behind the same interrupt gate (no new request once interrupted, cleanup excepted). */
  private transport(): FuzzTransport {
    const { capture } = this;
    const send = this.options.send;
    if (send === undefined) return capture;
    return {
      exchange: (request, cleanup) => {
        if (!cleanup && capture.interrupted)
          return Promise.reject(
            new ContractsError('INTERRUPTED', `interrupted before ${request.method} ${request.url}`),
          );
        return send(request, cleanup);
      },
      get interrupted() {
        return capture.interrupted;
      },
    };
  }

  /** Requests sent and distinct failures so far, for the CLI's progress line. */
  get progress(): { done: number; findings: number } {
    return { done: this.executor?.requests ?? 0, findings: this.executor?.book.failures.size ?? 0 };
  }

  async run(): Promise<FuzzRun> {
    const { options } = this;
    const started = performance.now();
    const results = new ResultCollector();
    const coverage = options.coverage ? new Coverage([]) : undefined;
    const credentials: Record<string, ApiCredential[]> = {};
    const executor = new Executor({
      ...(coverage ? { coverage } : {}),
      credentials,
      capture: this.transport(),
      env: options.env,
      ...(options.plugins ? { plugins: options.plugins } : {}),
      ...(options.settings ? { settings: options.settings } : {}),
      marker: options.marker,
      rate: options.rate,
      strict: options.strict,
      results,
      seed: options.seed,
      deadline: started + options.maxTimeMs,
      embedded: options.remote !== true,
      log: options.log,
      addSecret: options.addSecret,
      ...(options.redact ? { redact: options.redact } : {}),
      ...(options.har ? { har: options.har } : {}),
      ...(options.rateLimits ? { rateLimits: options.rateLimits } : {}),
    });
    this.executor = executor;
    let error: ContractsError | undefined;
    const targets: Partial<Record<ApiName, string>> = {};
    // Every spec loads before anything is sent: a broken one ends the run in one line, and --shard sees all the work.
    const loaded: { target: ApiTarget; document: unknown }[] = [];
    for (const entry of options.apis) {
      const api = entry.name;
      const file = options.specFiles?.[api] ?? specPath(entry);
      const spec = await loadSpec(file, path.relative(process.cwd(), file) || file);
      options.har?.addSpec(spec.document);
      // Made from the generation view, judged by the request view (request-side.ts).
      const side = requestSide(spec);
      const models = side.models.map((model) => this.sendable(api, model));
      const contract = compileContract(spec, { strict: options.strict });
      for (const warning of duplicateOperationIdWarnings(contract.operations)) options.log(`${api}: ${warning}`);
      // A credential whose header name HTTP cannot carry is never sent (its operations are skipped, see sendable).
      credentials[api] = fuzzCredentials(entry, contract, options).filter(
        (credential) => credential.in !== 'header' || httpToken.test(credential.name),
      );
      coverage?.addContract(api, contract);
      loaded.push({
        document: side.document,
        target: {
          api,
          baseUrl: options.baseUrls[api]!.replace(/\/+$/, ''),
          contract,
          compiled: side.compiled,
          models: new Map(models.map((model) => [model.operationId, model])),
          userChecks: await options.userChecks?.(api, contract),
        },
      });
    }
    this.start(loaded);
    for (const { target, document } of loaded) {
      const api = target.api;
      targets[api] = target.baseUrl;
      this.plan(results, target);
      const walk = this.walkOf(executor, target, document);
      try {
        await this.fuzzApi(executor, target, document, walk);
      } catch (caught) {
        error =
          caught instanceof ContractsError
            ? caught
            : (nestingTooDeep(caught) ??
              new ContractsError('INTERNAL', `internal error: ${(caught as Error)?.message ?? String(caught)}`));
      } finally {
        // A target that died cannot delete anything: nothing is sent to it any more.
        const fixtures = executor.fixturesOf(api);
        if (fixtures && executor.targetDied === undefined) {
          try {
            await fixtures.cleanup(target, error !== undefined);
          } catch (caught) {
            error ??= caught instanceof ContractsError ? caught : new ContractsError('INTERNAL', String(caught));
          }
        }
      }
      if (error || executor.targetDied !== undefined) break;
      this.authRefused(executor, target);
    }
    this.capture.close();
    if (!error && executor.targetDied === undefined && !executor.expired)
      for (const { target } of loaded) settleUserChecks(results, target.api, target.userChecks);
    const notRun = results.finish(
      error
        ? error.code === 'INTERRUPTED'
          ? 'the run was interrupted'
          : `the run stopped: ${error.code}`
        : executor.targetDied !== undefined
          ? `the target stopped answering after the request of failure [${executor.targetDied}]`
          : executor.expired
            ? '--max-time was reached'
            : undefined,
    );
    const all = results.all();
    return {
      mode: options.readOnly ? 'read-only' : 'full',
      targets,
      results: all,
      summary: summarize(all),
      notRun,
      durationMs: performance.now() - started,
      ...(error ? { error } : {}),
      failures: executor.book.all(),
      seed: options.seed,
      marker: options.marker,
      requests: executor.requests,
      ...(executor.targetDied !== undefined ? { targetDied: executor.targetDied } : {}),
      ...(executor.rateLimits.report().length > 0 ? { rateLimited: executor.rateLimits.report() } : {}),
      ...(coverage ? { coverage: coverage.report() } : {}),
    };
  }

  /**
   * The operations the filters keep (operation-filter.ts), or undefined when none is given. A filtered-out operation
   * is not planned, like another shard's: the run says how many it left out.
   */
  private selected(loaded: readonly { target: ApiTarget; document: unknown }[]): Set<string> | undefined {
    const filters = this.options.filters ?? {};
    if (!loaded.some(({ target }) => hasFilters(filters[target.api]))) return undefined;
    const kept = filterOperations(
      loaded.map(({ target, document }) => ({
        api: target.api,
        document,
        models: [...target.models.values()],
        filters: hasFilters(filters[target.api]) ? filters[target.api] : undefined,
      })),
      this.options.suggest,
    );
    for (const { target } of loaded) {
      const left = [...target.models.keys()].filter((id) => !kept.has(`${target.api}/${id}`)).length;
      if (left > 0)
        this.options.log(`${target.api}: the operation filters leave out ${left} of ${target.models.size} operations`);
    }
    return kept;
  }

  /** What each operation is judged on, decided before anything is sent; what the user left out is skipped. */
  private plan(results: ResultCollector, target: ApiTarget): void {
    const { phases, readOnly } = this.options;
    const positive = phases.some((phase) => phase !== 'negative');
    const sequences = this.units.has(`${target.api}/stateful`);
    for (const model of target.models.values()) {
      if (!this.units.has(`${target.api}/${model.operationId}`)) {
        // Another shard fuzzes this operation; this one judges it only through its sequences, if it has them.
        if (sequences) this.planSequenceChecks(results, target, model.operationId, phases, readOnly);
        continue;
      }
      const planned: [string, string | undefined][] = [
        ['not_a_server_error', undefined],
        ['status_code_conformance', positive ? undefined : '--phases has no phase that sends valid requests'],
      ];
      if (positive) planned.push(['positive_data_acceptance', undefined]);
      planned.push([
        'negative_data_rejection',
        phases.includes('negative') || phases.includes('boundaries')
          ? undefined
          : '--phases has neither negative nor boundaries',
      ]);
      if (model.secured)
        planned.push(['ignored_auth', phases.includes('negative') ? undefined : '--phases has no negative phase']);
      const fixtures = this.executor?.fixturesOf(target.api);
      for (const [check, reason] of planned) {
        results.plan([{ api: target.api, operation: model.operationId, check: check as CheckName }]);
        const skipped =
          readOnly && model.method !== 'GET'
            ? '--read-only sends only GET requests'
            : ((readOnly ? fixtures?.readOnlySkip?.(model) : undefined) ?? reason);
        if (skipped) results.markSkipped(target.api, model.operationId, check as CheckName, skipped);
      }
      // Negative cases exist only where the spec constrains something: nothing to reject otherwise.
      if (!hasConstraints(model))
        results.markSkipped(
          target.api,
          model.operationId,
          'negative_data_rejection',
          'the spec constrains nothing of this request that can be broken',
        );
      if (sequences || !phases.includes('stateful'))
        this.planSequenceChecks(results, target, model.operationId, phases, readOnly);
      const unsendable = this.unsendable.get(`${target.api}/${model.operationId}`);
      if (unsendable)
        for (const check of results.pendingChecks(target.api, model.operationId))
          results.markSkipped(target.api, model.operationId, check, unsendable);
    }
  }

  /** What a plug-in's own sequences judge (fuzz-plugin.ts), planned with the rest. */
  private planSequenceChecks(
    results: ResultCollector,
    target: ApiTarget,
    operationId: string,
    phases: readonly Phase[],
    readOnly: boolean,
  ): void {
    this.executor?.fixturesOf(target.api)?.planSequenceChecks?.(results, target, operationId, phases, readOnly);
  }

  /** The work of the run (its --shard of what the filters select), then the line that says the run starts. */
  private start(loaded: readonly { target: ApiTarget; document: unknown }[]): void {
    this.units = shardUnits(
      loaded.map(({ target }) => target),
      this.options,
      this.selected(loaded),
      (api) => this.ownSequences(api),
    );
    if (this.options.announce !== undefined) this.options.log(this.options.announce);
  }

  private liveOf(executor: Executor, target: ApiTarget, document: unknown): LiveInstances | undefined {
    return liveInstancesFor(executor, target, document, {
      seed: derivedSeed(this.options.seed, 'live'),
      marker: this.options.marker,
      allowed: (operationId) => this.units.has(`${target.api}/${operationId}`),
      readOnly: this.options.readOnly,
      stateful: this.options.remote === true || this.options.statefulMock === true,
    });
  }

  /** Whether an API's plug-in walks its own sequences (fuzz-plugin.ts) instead of the walk over the resource model. */
  private ownSequences(api: string): boolean {
    return this.executor?.fixturesOf(api)?.sequences !== undefined;
  }

  /**
   * The stateful walk over the resource model (stateful/walk.ts), planned now, for every API whose plug-in has no
   * sequences of its own, when --phases has stateful and no filter or other shard took its operations.
   */
  private walkOf(executor: Executor, target: ApiTarget, document: unknown): ResourceWalk | undefined {
    if (this.ownSequences(target.api) || !this.units.has(`${target.api}/stateful`)) return undefined;
    // A stateless embedded mock (Prism, or our stateless engine) stores nothing: a walk there would judge the mock,
    // not the API. The walk runs against a service (--base-url), `contracts sandbox --spec` included, and against the
    // embedded stateful sandbox (the default embedded mock).
    if (this.options.remote !== true && this.options.statefulMock !== true) return undefined;
    const model = modelOf(target);
    if (model.resources.length === 0) return undefined;
    const walk = new ResourceWalk(executor, target, document, model, {
      seed: derivedSeed(this.options.seed, 'walk'),
      maxRequests: Math.max(100, this.options.maxExamples * 10),
      maxPages: 10,
      marker: this.options.marker,
      readOnly: this.options.readOnly,
    });
    walk.plan();
    return walk;
  }

  /** With --phases stateful alone, what the walk did not reach was not exercised, and says so (not "never reached"). */
  private walkOnly(executor: Executor, target: ApiTarget): void {
    if (this.options.phases.some((phase) => phase !== 'stateful')) return;
    const results = executor.options.results;
    for (const operationId of target.models.keys())
      for (const check of results.pendingChecks(target.api, operationId))
        results.markSkipped(
          target.api,
          operationId,
          check,
          notExercised(
            '--phases stateful sends only the walk over the resources the run creates, and it did not reach this operation; add a phase (examples, random) to test it',
          ),
        );
  }

  private async fuzzApi(
    executor: Executor,
    target: ApiTarget,
    document: unknown,
    walk: ResourceWalk | undefined,
  ): Promise<void> {
    const { options } = this;
    const fixtures = executor.fixturesOf(target.api);
    const mine = [...target.models.values()].filter(
      (model) =>
        this.units.has(`${target.api}/${model.operationId}`) &&
        !this.unsendable.has(`${target.api}/${model.operationId}`),
    );
    const sequences = this.units.has(`${target.api}/stateful`);
    if (fixtures && !options.readOnly && (sequences || mine.some((model) => fixtures.needs(model)))) {
      const problem = await fixtures.prepare(target);
      if (problem) this.unexercisedFixtureOperations(executor, target, problem);
    }
    // Documented parameters a credential fills (no scheme's: a query clientToken): their own cases vary them.
    const fedParams = new Set(
      executor.binder
        .credentialsOf(target)
        .filter((credential) => credential.scheme === undefined && credential.in !== 'cookie')
        .map((credential) => credential.name),
    );
    const fuzzed: OperationModel[] = [];
    // One operation at a time; one parked by a rate limit hands its turn to the next (rate-limits.ts).
    const turns = new OperationTurns(executor.rateLimits);
    // An API with fixtures of its own (a plug-in's) binds its ids from them, not from live instances.
    const live = fixtures ? undefined : this.liveOf(executor, target, document);
    try {
      for (const model of mine) {
        if (options.readOnly && model.method !== 'GET') continue;
        if (fixtures?.unready(model) !== undefined) continue;
        fuzzed.push(model);
        // Ctrl-C ends the run as interrupted (exit 2), not as if --max-time were reached.
        if (executor.expired) return executor.rethrow();
        const plugin = options.plugins?.(target.api);
        const generator: Generator = {
          api: target.api,
          document,
          model,
          credentialParams: fedParams,
          ...(plugin ? { plugin } : {}),
        };
        await turns.take(`${target.api}/${model.operationId}`, () =>
          this.fuzzOperation(executor, target, generator, live),
        );
      }
    } finally {
      await turns.finish();
      await live?.release();
    }
    this.rateLimitedOperations(executor, target, fuzzed);
    // ignored_auth on ids that exist: those the phases saw or created (auth-probes.ts). An API with fixtures of its
    // own binds its ids from them, not from what the phases saw.
    if (!fixtures && options.phases.includes('negative') && !executor.expired)
      await probeAuthOnResources(executor, target, document, mine, options.readOnly);
    if (sequences && fixtures?.sequences && !options.readOnly && !executor.expired) {
      await fixtures.sequences(target, {
        seed: derivedSeed(options.seed, 'stateful'),
        numRuns: Math.max(1, Math.ceil(options.maxExamples / 5)),
        maxShrinkRequests,
      });
    }
    if (walk !== undefined && !executor.expired) {
      await walk.run();
      walk.settle();
    }
    executor.rethrow();
    this.walkOnly(executor, target);
    this.noValidRequest(executor, target, fuzzed);
  }

  /** Each phase on one operation, until the run ends or stops waiting on its rate limit. */
  private async fuzzOperation(
    executor: Executor,
    target: ApiTarget,
    generator: Generator,
    live?: LiveInstances,
  ): Promise<void> {
    const { model } = generator;
    const key = `${target.api}/${model.operationId}`;
    // Path ids of instances the run made, not made-up ones (stateful/live-instances.ts).
    if (this.options.phases.some((phase) => phase !== 'negative' && phase !== 'stateful'))
      await live?.prepare(model.operationId);
    const bind = (fuzzCase: FuzzCase) => live?.bind(fuzzCase) ?? fuzzCase;
    for (const phase of this.options.phases) {
      if (executor.expired || executor.rateLimits.givenUp(key)) return;
      if (phase === 'examples') await this.runList(executor, target, examplesPhase(generator).map(bind));
      if (phase === 'boundaries') await this.runList(executor, target, boundariesPhase(generator).map(bind));
      if (phase === 'negative') {
        await this.runList(executor, target, negativePhase(generator, this.options.maxExamples));
        await this.runArbitrary(executor, target, negativeArbitrary(generator), `${model.operationId}/negative`);
      }
      if (phase === 'random')
        await this.runArbitrary(executor, target, randomArbitrary(generator).map(bind), `${model.operationId}/random`);
    }
  }

  /** An operation the run stopped waiting on: what its checks still wait for was not exercised, for that reason. */
  private rateLimitedOperations(executor: Executor, target: ApiTarget, fuzzed: readonly OperationModel[]): void {
    for (const model of fuzzed) {
      const reason = executor.rateLimits.reason(`${target.api}/${model.operationId}`);
      if (reason) executor.options.results.unexercisedPending(target.api, reason, model.operationId);
    }
  }

  /**
   * An operation the phases ran on that no valid request reached: what its checks still wait for needed one, and
   * could not be exercised, for that reason (not "the sequence never reached it"). Only with a phase that sends
   * valid requests: --phases negative plans no such check.
   */
  private noValidRequest(executor: Executor, target: ApiTarget, fuzzed: readonly OperationModel[]): void {
    // A run cut short (--max-time) may not have reached an operation's valid requests yet: finish() says "not run".
    if (executor.expired || !this.options.phases.some((phase) => phase !== 'negative')) return;
    for (const model of fuzzed) {
      const missing = executor.validRequests.missing(target.api, model.operationId);
      if (missing) executor.options.results.unexercisedPending(target.api, missing, model.operationId);
    }
  }

  /** An operation whose every valid request was refused 401/403 failed: its checks saw only the refusals. */
  private authRefused(executor: Executor, target: ApiTarget): void {
    const refused = executor.authRefusals.unexercised(
      target.api,
      executor.binder.credentialsOf(target),
      'contracts.config.yaml',
      (operation) => securityOf(target.compiled.spec.document, target.models.get(operation)?.spec.path ?? []),
    );
    for (const [operation, reason] of refused)
      executor.options.results.notExercised(target.api, operation, 'positive_data_acceptance', reason);
  }

  /** The fixtures could not be made: what the operations that act on them were to judge was not exercised. */
  private unexercisedFixtureOperations(executor: Executor, target: ApiTarget, reason: string): void {
    const results = executor.options.results;
    const fixtures = executor.fixturesOf(target.api);
    for (const model of target.models.values()) {
      if (fixtures?.needs(model)) results.unexercisedPending(target.api, reason, model.operationId);
    }
  }

  /**
   * A fixed list, in order, up to --max-examples, --workers cases in flight; each judged in the list's order, and each
   * new failure kept as it is (it changes one thing already) and then shrunk.
   */
  private async runList(executor: Executor, target: ApiTarget, cases: FuzzCase[]): Promise<void> {
    const list = cases.slice(0, this.options.maxExamples);
    let index = 0;
    const unjudged = new Set<SentCase>();
    await runOrdered<FuzzCase, SentCase | undefined>({
      workers: this.options.workers ?? 1,
      next: () => list[index++],
      alone: (fuzzCase) => executor.runsAlone(target, fuzzCase),
      stopped: () => executor.expired,
      work: (fuzzCase) => sentInto(unjudged, executor.sendCase(target, fuzzCase)),
      commit: async (sent) => {
        if (!sent) return true;
        unjudged.delete(sent);
        const result = executor.judge(target, sent);
        for (const failure of executor.book.newFailures(target, result)) {
          executor.book.keep(failure);
          executor.book.keep(await shrinkFixed(executor, target, result, failure));
        }
        return true;
      },
    }).finally(() => executor.discard(target, unjudged));
    executor.rethrow();
  }

  /**
   * An arbitrary through fast-check. Its values are drawn in fast-check's own order (the seed's stream) and sent
   * --workers at a time, judged in that order; the first one with a failure not seen before ends the round, and
   * fast-check replays it by its index (`path`) to shrink it, each smaller case re-sent and re-judged one at a time
   * (a shrunk negative that became valid is dropped, never reported). Cases sent ahead of that failure are not
   * judged, so the report is what one worker would give. A round that found something is followed by another on
   * the remaining budget, so one bug does not hide the next.
   */
  private async runArbitrary(
    executor: Executor,
    target: ApiTarget,
    arbitrary: fc.Arbitrary<FuzzCase>,
    label: string,
  ): Promise<void> {
    const workers = this.options.workers ?? 1;
    let budget = this.options.maxExamples;
    for (let round = 0; budget > 0 && round < 10 && !executor.expired; round++) {
      const seed = derivedSeed(this.options.seed, `${label}/${round}`);
      // As fc.check with maxSkipsPerRun 20: `budget` cases sent, or 20 times as many not sendable.
      const limit = budget * 21;
      const stream = valueStream(arbitrary, seed, Math.max(8, workers * 2), limit);
      let consumed = 0;
      let judged = 0;
      let failing: { index: number; result: CaseResult } | undefined;
      const unjudged = new Set<SentCase>();
      await runOrdered<{ index: number; value: FuzzCase }, SentCase | undefined>({
        workers,
        next: () => (stream.index < limit ? stream.next() : undefined),
        alone: ({ value }) => executor.runsAlone(target, value),
        stopped: () => executor.expired,
        work: ({ value }) => sentInto(unjudged, executor.sendCase(target, value)),
        commit: (sent, { index }) => {
          consumed = index + 1;
          if (!sent) return true;
          unjudged.delete(sent);
          const result = executor.judge(target, sent);
          if (executor.book.newFailures(target, result).length > 0) {
            failing = { index, result };
            return false;
          }
          return ++judged < budget;
        },
      }).finally(() => executor.discard(target, unjudged));
      executor.rethrow();
      budget -= Math.max(consumed, 1);
      if (!failing) return;
      // The last failing case fast-check saw is the smallest: its failures are the ones reported.
      let found = failing.result;
      let shrinkRequests = 0;
      const property = fc.asyncProperty(arbitrary, async (fuzzCase) => {
        if (executor.expired || shrinkRequests++ >= maxShrinkRequests) return true;
        const result = await executor.guarded(() => executor.runCase(target, fuzzCase), undefined);
        if (executor.fatal) return true;
        fc.pre(result !== undefined);
        if (executor.book.newFailures(target, result!).length === 0) return true;
        found = result!;
        return false;
      });
      await fc.check(property, { seed, path: String(failing.index), numRuns: 1, maxSkipsPerRun: 20 });
      executor.rethrow();
      executor.book.keepNew(target, found);
    }
  }
}

/** Every operation, and each API's sequences, dealt round-robin: shard i of n keeps every n-th, from the i-th. */
function shardUnits(
  targets: readonly ApiTarget[],
  options: FuzzOptions,
  selected: Set<string> | undefined,
  ownSequences: (api: string) => boolean,
): Set<string> {
  const kept = (api: string, operationId: string) => selected === undefined || selected.has(`${api}/${operationId}`);
  const units = targets.flatMap((target) => {
    const operations = [...target.models.keys()].filter((operationId) => kept(target.api, operationId));
    // A plug-in's own sequences and the walk over the resource model call every operation: not when a filter leaves
    // one out.
    const sequences =
      options.phases.includes('stateful') &&
      operations.length === target.models.size &&
      (ownSequences(target.api) || modelOf(target).resources.some((resource) => resource.create.length > 0));
    return [
      ...operations.map((operationId) => `${target.api}/${operationId}`),
      ...(sequences ? [`${target.api}/stateful`] : []),
    ];
  });
  const shard = options.shard;
  return new Set(shard ? units.filter((_unit, index) => index % shard.count === shard.index - 1) : units);
}

/** A case's send, remembered in `unjudged` until it is judged (what is never judged is still counted: discard). */
async function sentInto(
  unjudged: Set<SentCase>,
  sending: Promise<SentCase | undefined>,
): Promise<SentCase | undefined> {
  const sent = await sending;
  if (sent) unjudged.add(sent);
  return sent;
}

/** RFC 9110's token: what a header name may be. */
const httpToken = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

function hasConstraints(model: OperationModel): boolean {
  return (
    // A missing API key is not one of them: a request without its credential is judged by ignored_auth.
    model.body !== undefined ||
    model.params.some((param) => param.required && param.in !== 'path') ||
    model.params.some(
      (param) =>
        ['integer', 'number', 'boolean'].includes(String(param.schema.type)) || Array.isArray(param.schema.enum),
    )
  );
}

/** A seed per phase and operation from the run's seed: adding an operation does not change the others' cases. */
export function derivedSeed(seed: number, label: string): number {
  let hash = seed >>> 0;
  for (let index = 0; index < label.length; index++) hash = Math.imul(hash ^ label.charCodeAt(index), 0x01000193) >>> 0;
  return hash | 0;
}

/** The config's credentials for one API; a missing one a real target needs ends the run before anything is sent. */
export function fuzzCredentials(
  { name: api, credentials: configured }: Pick<ApiEntry, 'name' | 'credentials'>,
  contract: Contract,
  options: Pick<FuzzOptions, 'env' | 'remote' | 'log' | 'addSecret' | 'plugins'>,
): ApiCredential[] {
  const placeholder = options.plugins?.(api)?.placeholder;
  return apiCredentials({
    api,
    configured,
    contract,
    env: options.env,
    remote: options.remote === true,
    ...(placeholder ? { placeholder } : {}),
    addSecret: options.addSecret,
    log: options.log,
  });
}
