// Runs the conformance sequences against a target (staging, the sandbox) or, without one, against embedded
// Prism mocks it starts and stops. Collects results; an operational fault ends the run with partial results.
import { specPath, type ApiEntry, type ApiName } from '../config/project.js';
import path from 'node:path';
import { compileContract, type Contract } from '../core/compile-contract.js';
import type { UserCheckSet, UserChecksLoader } from '../core/user-checks/user-check-set.js';
import { settleUserChecks } from '../reports/settle-user-checks.js';
import { Coverage } from '../core/coverage.js';
import { ContractsError, nestingTooDeep } from '../core/errors.js';
import { loadSpec } from '../core/load-spec.js';
import { duplicateOperationIdWarnings } from '../core/operation-index.js';
import type { EmbeddedEngine } from '../mock/start-embedded-mocks.js';
import type { Mocks } from '../mock/start-mocks.js';
import { startCheckMocks } from './check-mocks.js';
import { HttpCapture } from '../http/http-capture.js';
import type { Redactor } from '../reports/redact.js';
import { ResultCollector, summarize } from '../reports/results.js';
import { planChecks } from './plan.js';
import type { CheckRun, RunMode } from '../reports/check-run.js';
import type { SequenceContext } from './sequence-context.js';
import { apiCredentials, type ApiCredential } from '../http/api-credentials.js';
import { runConformance } from './generic/run-conformance.js';
import type { CheckPluginLookup, CheckSequence } from './check-plugin.js';

export interface CheckRunOptions {
  /** The APIs to check, from the project. */
  apis: readonly ApiEntry[];
  /** The server to check; without it, an embedded mock of each API (`mockEngine`). */
  baseUrl?: string;
  /** Without baseUrl: the embedded mock (start-embedded-mocks.ts); default the stateful sandbox of each spec. */
  mockEngine?: EmbeddedEngine;
  readOnly?: boolean;
  strict?: boolean;
  timeoutMs: number;
  maxBodyBytes?: number;
  retries?: number;
  env: NodeJS.ProcessEnv;
  /** The plug-in of each API (src/plugins/registry.ts); an API without one gets the generic conformance pass. */
  plugins: CheckPluginLookup;
  /** What the plug-ins' command-line options set (the webhooks example's --owner, --repo, …). */
  settings?: Readonly<Record<string, unknown>>;
  /**
   * A plug-in's receiver of deliveries: where it listens (port 0: any free port), or why there is none (the
   * user's choice; its checks are then skipped with this reason). Default: a receiver on a free loopback port.
   */
  receiver?: { port: number; host?: string } | { off: string };
  redactor: Redactor;
  /** Another spec file for an API instead of the shipped one. */
  specFiles?: Partial<Record<ApiName, string>>;
  /** Progress lines for the user (stderr). */
  log?: (line: string) => void;
  /** Count what the run exercised (CheckRun.coverage). */
  coverage?: boolean;
  /** The user's own checks of each API (apis[].checks, --checks), loaded once its spec is. */
  userChecks?: UserChecksLoader;
}

function stoppedReason(error: ContractsError): string {
  if (error.code === 'INTERRUPTED') return 'the run was interrupted';
  if (error.code === 'INTERNAL') return 'the run stopped on an internal error';
  return `the run stopped: ${error.code === 'TARGET_UNREACHABLE' ? 'the target could not be reached' : error.code === 'TARGET_RATE_LIMITED' ? 'the target kept rate-limiting' : error.code}`;
}

export class CheckRunner {
  private readonly capture: HttpCapture;

  constructor(private readonly options: CheckRunOptions) {
    this.capture = new HttpCapture({
      timeoutMs: options.timeoutMs,
      ...(options.maxBodyBytes !== undefined ? { maxBodyBytes: options.maxBodyBytes } : {}),
      ...(options.retries !== undefined ? { retries: options.retries } : {}),
    });
  }

  /** Aborts the requests in flight; the sequences then clean up what they created and the run returns. */
  interrupt(): void {
    this.capture.interrupt();
  }

  async run(): Promise<CheckRun> {
    const { options } = this;
    const mode: RunMode = options.baseUrl === undefined ? 'mock' : options.readOnly ? 'read-only' : 'full';
    const started = performance.now();
    const results = new ResultCollector();
    const targets: Partial<Record<ApiName, string>> = {};
    const mockEngines: Partial<Record<ApiName, EmbeddedEngine>> = {};
    let mocks: Mocks | undefined;
    const sequences = new Map<ApiName, CheckSequence>();
    const receiverSetting = options.receiver ?? { port: 0 };
    const noReceiver = 'off' in receiverSetting ? receiverSetting.off : undefined;
    let error: ContractsError | undefined;
    let coverage: Coverage | undefined;
    const userChecks = new Map<ApiName, UserCheckSet | undefined>();
    try {
      // Every spec loads before anything starts: a broken one ends the run in one clear line.
      const contracts = new Map<ApiName, Contract>();
      const credentials = new Map<ApiName, ApiCredential[]>();
      for (const entry of options.apis) {
        const api = entry.name;
        const file = options.specFiles?.[api] ?? specPath(entry);
        const contract = compileContract(await loadSpec(file, path.relative(process.cwd(), file) || file), {
          strict: options.strict === true,
        });
        contracts.set(api, contract);
        userChecks.set(api, await options.userChecks?.(api, contract));
        for (const warning of duplicateOperationIdWarnings(contract.operations)) options.log?.(`${api}: ${warning}`);
        // Before anything is planned or sent: a variable a real target needs is missing, in one line.
        credentials.set(
          api,
          apiCredentials({
            api,
            configured: entry.credentials,
            contract,
            env: options.env,
            remote: options.baseUrl !== undefined,
            ...(options.plugins(api)?.placeholder ? { placeholder: options.plugins(api)!.placeholder! } : {}),
            addSecret: (secret) => options.redactor.add(secret),
            log: (line) => options.log?.(line),
          }),
        );
      }
      for (const [api, contract] of contracts) {
        const behaviour = options.plugins(api)?.behaviour ?? [];
        const plan = planChecks(api, contract, mode, {
          behaviour,
          ...(noReceiver === undefined ? {} : { noReceiver }),
        });
        results.plan(plan.checks);
        for (const { api: planned, operation, check, reason } of plan.skipped)
          results.markSkipped(planned, operation, check, reason);
      }
      coverage = options.coverage
        ? new Coverage([...contracts].map(([api, contract]) => ({ api, contract })))
        : undefined;
      if (options.baseUrl === undefined) {
        const started = await startCheckMocks(options, mockEngines);
        mocks = started;
        if (this.capture.interrupted) throw new ContractsError('INTERRUPTED', 'interrupted while starting the mocks');
      }
      for (const { name: api } of options.apis) {
        const plugin = options.plugins(api);
        if (!plugin) continue;
        const interrupted = () => this.capture.interrupted;
        const setup = { mode, receiver: receiverSetting, interrupted, settings: options.settings ?? {} };
        sequences.set(api, await plugin.prepare(setup));
      }
      for (const { name: api } of options.apis) {
        const baseUrl = (mocks?.urls[api] ?? options.baseUrl!).replace(/\/+$/, '');
        targets[api] = baseUrl;
        const contract = contracts.get(api)!;
        const context: SequenceContext = {
          api,
          baseUrl,
          contract,
          capture: this.capture,
          results,
          mode,
          strict: options.strict === true,
          env: options.env,
          credentials: credentials.get(api)!,
          addSecret: (secret) => options.redactor.add(secret),
          log: (line) => options.log?.(line),
          ...(coverage ? { coverage } : {}),
          ...(userChecks.get(api) ? { userChecks: userChecks.get(api)! } : {}),
        };
        // An API with a plug-in runs the plug-in's sequence; any other API gets the generic conformance pass.
        const sequence = sequences.get(api);
        if (sequence) await sequence.run(context);
        else await runConformance(context);
      }
    } catch (caught) {
      // A bug of ours must not lose the results so far or the reports: it ends the run like any other fault.
      error =
        caught instanceof ContractsError
          ? caught
          : (nestingTooDeep(caught) ??
            new ContractsError('INTERNAL', `internal error: ${(caught as Error)?.message ?? String(caught)}`));
    } finally {
      await mocks?.stop();
      for (const sequence of sequences.values()) await sequence.stop?.();
    }
    if (!error) for (const [api, checks] of userChecks) settleUserChecks(results, api, checks);
    const notRun = results.finish(error ? stoppedReason(error) : undefined);
    const all = results.all();
    return {
      mode,
      targets,
      ...(Object.keys(mockEngines).length > 0 ? { mockEngines } : {}),
      results: all,
      summary: summarize(all),
      notRun,
      durationMs: performance.now() - started,
      ...(error ? { error } : {}),
      ...(coverage ? { coverage: coverage.report() } : {}),
    };
  }
}
