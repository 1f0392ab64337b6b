// What an API's plug-in adds to `contracts fuzz` (#45): the generic engine fuzzes any API from its spec alone; a
// plug-in adds what a spec cannot say: parameters the run binds itself, a placeholder credential, and fixtures (what
// the run makes on the target before the phases, binds into the cases, and deletes at the end). The engine never
// imports a plug-in: the command hands it a lookup (as src/runner/check-plugin.ts does for check), so the plug-ins
// import the engine, not back.
import type { CheckName, Finding } from '../core/finding.js';
import type { ResultCollector } from '../reports/results.js';
import type { ApiTarget, Executor, Sent, Tally } from './executor.js';
import type { FuzzCase, Phase } from './fuzz-case.js';
import type { TrailStep } from './repro-script.js';
import type { OperationModel, ParamValue, RequestData } from './request-model.js';

/** What a case's fixtures made for it alone (a resource a DELETE deletes), and the request that made it. */
export interface CaseFixture {
  id: number;
  step: TrailStep;
}

/** The run's fixtures on one API: made once per run, by the plug-in, with what the command's options set. */
export interface FuzzFixtures {
  /** Whether an operation acts on what the fixtures make (it is skipped when they could not make it). */
  needs(model: OperationModel): boolean;
  /** Why an operation is not sent in this run (what it acts on was not made), or undefined. */
  unready(model: OperationModel): string | undefined;
  /** Made before the phases; a problem says why the operations that `need` them cannot be exercised. */
  prepare(target: ApiTarget): Promise<string | undefined>;
  /** What a reproduction sends first: the requests that made the shared fixtures. */
  readonly setupTrail: readonly TrailStep[];
  /** Whether sending the case may create something the target numbers (such cases run alone under --workers). */
  creates(fuzzCase: FuzzCase): boolean;
  /** Makes what the case acts on alone, if it needs one: null when that failed (the case is not sent). */
  forCase(target: ApiTarget, fuzzCase: FuzzCase, tally: Tally): Promise<CaseFixture | null | undefined>;
  /** Deletes what forCase made, when the case was not sent or its answer is not judged. */
  release(target: ApiTarget, fresh: CaseFixture, tally: Tally): Promise<void>;
  /** Values of the parameters the run binds (FuzzPlugin.isBound), for this case. */
  bindings(fuzzCase: FuzzCase, fresh: number | undefined): Record<string, ParamValue | undefined>;
  /** Rewrites, in place, what of a request's body the run owns (a URL of its own). */
  bindBody(model: OperationModel, request: RequestData, fresh: number | undefined): void;
  /** Whether bindBody rewrites part of this operation's bodies (a replay then says it bound them afresh). */
  bindsBody?(operationId: string): boolean;
  /** Checks of the plug-in's on an answer to a valid request (beside the core's). */
  judgeValid?(operation: string, status: number, json: unknown): [CheckName, Finding[]][];
  /** After a case was sent: what it created is remembered (kept) or deleted, and what forCase made is deleted. */
  afterCase(
    target: ApiTarget,
    model: OperationModel,
    sent: Sent,
    fresh: CaseFixture | undefined,
    kept: RequestData | undefined,
    tally: Tally,
  ): Promise<void>;
  /** Deletes everything the run made; the log says so first when the run stopped on an error. */
  cleanup(target: ApiTarget, stoppedOnError: boolean): Promise<number>;
  /** Checks the plug-in's sequences judge at an operation, planned (and skipped with a reason) before the run. */
  planSequenceChecks?(
    results: ResultCollector,
    target: ApiTarget,
    operationId: string,
    phases: readonly Phase[],
    readOnly: boolean,
  ): void;
  /** The plug-in's own stateful sequences, instead of the generic walk over the resource model. */
  sequences?(target: ApiTarget, options: { seed: number; numRuns: number; maxShrinkRequests: number }): Promise<void>;
  /** Why --read-only leaves an operation's checks unjudged (it needs something a write makes), or undefined. */
  readOnlySkip?(model: OperationModel): string | undefined;
}

export interface FuzzPlugin {
  /** Whether the run binds a parameter itself (what its fixtures made, a parameter a credential feeds). */
  isBound?(param: { name: string; in: string }): boolean;
  /** Path parameters a reproduction binds from an earlier answer; undefined: every one. */
  scriptIds?: ReadonlySet<string>;
  /** A header sent with this value when nothing of the config feeds it (the mock and the sandbox need only one). */
  placeholder?: { header: string; value: string };
  /** The run's fixtures on the API, made once per run, with what the plug-in's options set. */
  fixtures?(executor: Executor, settings: Readonly<Record<string, unknown>>): FuzzFixtures;
}

/** The fuzz plug-in of an API, or undefined: the API is fuzzed from its spec alone. */
export type FuzzPluginLookup = (api: string) => FuzzPlugin | undefined;
