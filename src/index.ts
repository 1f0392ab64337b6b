// The library entry (`import { loadContract, checkExchange } from 'contracts-kit'`): the engine the CLI runs, as
// functions that take spec files, not names of the config. Each function is documented in the README ("As a
// library"), with an example that a test runs.
import path from 'node:path';
import { compileContract, type Contract } from './core/compile-contract.js';
import { diffSpecs as diffLoadedSpecs } from './core/diff/diff-specs.js';
import type { SpecChange } from './core/diff/spec-change.js';
import { loadSpec } from './core/load-spec.js';
import { startMocks as startApiMocks } from './mock/start-mocks.js';
import { specFileEntry } from './config/api-entry.js';
import { compileDeliveryContract } from './core/delivery/delivery-contract.js';
import {
  startReceiver as startDeliveryReceiver,
  type Receiver,
  type ReceiverOptions,
} from './receiver/start-receiver.js';

export { checkExchange, type CheckOptions, type ExchangeResult } from './core/check-exchange.js';
export { checkRequest, type RequestRecord, type RequestResult } from './core/check-request.js';
export type { Contract } from './core/compile-contract.js';
export { ContractsError } from './core/errors.js';
export type { Exchange } from './core/exchange.js';
export type { CheckName, Finding, FindingSeverity } from './core/finding.js';
export type { SpecChange } from './core/diff/spec-change.js';
export { startSandbox, type Sandbox, type SandboxOptions } from './plugins/example-sandbox.js';
export {
  defineHooks,
  type AfterContext,
  type BeforeContext,
  type HookAnswer,
  type HookStore,
  type OperationHooks,
  type SandboxHooks,
} from './mock/engine/sandbox-hooks.js';
export {
  defineChecks,
  type ScopedUserCheck,
  type UserCheckFunction,
  type UserCheckInput,
  type UserChecks,
} from './core/user-checks/define-checks.js';
export type { Receiver };

export interface LoadContractOptions {
  /** Also compile the validators `checkExchange(…, { strict: true })` needs (fields the spec does not list). */
  strict?: boolean;
}

/**
 * Loads a Swagger 2.0 or OpenAPI 3.0, 3.1 or 3.2 spec (YAML or JSON; its `$ref`s to files beside it read by the one resolver) and
 * compiles its validators. Throws a ContractsError with one clear line when the file is missing or no spec.
 */
export async function loadContract(specFile: string, options: LoadContractOptions = {}): Promise<Contract> {
  return compileContract(await load(specFile), options);
}

/** A spec file given by the caller, named in messages as it is relative to the working directory. */
function load(specFile: string) {
  const file = path.resolve(specFile);
  return loadSpec(file, path.relative(process.cwd(), file) || file);
}

export interface StartMocksOptions {
  /** The specs to serve, by a name of your choosing: `{ inventory: 'openapi.yaml' }`. */
  specs: Record<string, string>;
  /** Port per name; 0 (the default) picks a free port. */
  ports?: Record<string, number>;
  host?: string;
  /** Bodies generated from the schemas instead of the spec's examples. */
  dynamic?: boolean;
  /** Seed for dynamic bodies, so they repeat. */
  seed?: string;
  /** How long each Prism may take to answer (default: 30 s plus 10 s per MB of its spec). */
  startTimeoutMs?: number;
  /** Prism's own log lines, by name. */
  onLog?: (name: string, line: string) => void;
  /** Aborting stops every Prism started so far and rejects with a ContractsError (INTERRUPTED). */
  signal?: AbortSignal;
}

export interface Mocks {
  /** Where each mock answers, by the name given in `specs`: `http://127.0.0.1:PORT`. */
  urls: Record<string, string>;
  mocks: { name: string; url: string; port: number; pid: number }[];
  /** Resolves if a mock process ends before `stop()` was called (Prism crashed), with what it printed. */
  unexpectedExit: Promise<{ name: string; code: number | null; signal: NodeJS.Signals | null; output: string }>;
  /** Stops every mock process. */
  stop(): Promise<void>;
}

/** Starts one Prism mock server (a real process) per spec; `urls[name]` is where each answers. Call `stop()`. */
export async function startMocks(options: StartMocksOptions): Promise<Mocks> {
  const names = Object.keys(options.specs);
  const specFiles = Object.fromEntries(names.map((name) => [name, path.resolve(options.specs[name]!)]));
  const ports = Object.fromEntries(names.map((name) => [name, options.ports?.[name] ?? 0]));
  const started = await startApiMocks({
    apis: names.map((name) => specFileEntry(name, specFiles[name]!)),
    specFiles,
    ports,
    ...(options.host !== undefined && { host: options.host }),
    ...(options.dynamic !== undefined && { dynamic: options.dynamic }),
    ...(options.seed !== undefined && { seed: options.seed }),
    ...(options.startTimeoutMs !== undefined && { startTimeoutMs: options.startTimeoutMs }),
    ...(options.onLog !== undefined && { onLog: options.onLog }),
    ...(options.signal !== undefined && { signal: options.signal }),
  });
  return {
    urls: started.urls as Record<string, string>,
    mocks: started.mocks.map(({ api, ...mock }) => ({ name: api, ...mock })),
    unexpectedExit: started.unexpectedExit.then(({ api, ...exit }) => ({ name: api, ...exit })),
    stop: () => started.stop(),
  };
}

export interface StartReceiverOptions extends Omit<ReceiverOptions, 'contract'> {
  /**
   * The spec whose `webhooks` the deliveries are held to (default: the example API this package's own
   * contracts.config.yaml gives a `webhooks:` block, with that block's event header and signature schemes).
   */
  spec?: string;
}

/**
 * Starts a webhook receiver (a real HTTP server): every delivery it gets is checked against the spec's `webhooks`
 * (payload, headers, signature with `secret`) and kept in `deliveries`, with its verdict. Call `stop()`.
 */
export async function startReceiver(options: StartReceiverOptions = {}): Promise<Receiver> {
  const { spec, ...rest } = options;
  if (spec === undefined) return startDeliveryReceiver(rest);
  return startDeliveryReceiver({ ...rest, contract: compileDeliveryContract(await load(spec)) });
}

/**
 * What changed from `baseFile` to `headFile`, for the API's clients: each change with its level (`error`: breaking,
 * `warning`: may break some clients, `info`), its rule id, a message and where it is. Nothing is ignored here; the
 * CLI's ignore file and `--level` are policy on top of this list.
 */
export async function diffSpecs(baseFile: string, headFile: string): Promise<SpecChange[]> {
  const [base, head] = await Promise.all([load(baseFile), load(headFile)]);
  return diffLoadedSpecs(base, head);
}
