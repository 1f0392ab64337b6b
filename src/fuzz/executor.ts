// The one part of fuzzing that does I/O: binds a case to what the run owns (request-binding.ts), re-judges it with the
// validators, sends it (HttpCapture: timeouts, body cap, no redirects followed, interruption), applies the core's
// per-exchange checks and fuzzing's own, and records every judgement; the failures it keeps are failure-book.ts's.
// What an API's plug-in makes on the target for the run (its fixtures: fuzz-plugin.ts) is made, bound and deleted
// through the seam, never named here.
import { ResourceLedger } from './auth-probes.js';
import { AuthRefusals } from './auth-refusals.js';
import { UndocumentedRefusals } from './undocumented-refusals.js';
import { ValidRequests } from './valid-requests.js';
import { RateLimits, type RateLimitSettings } from './rate-limits.js';
import { targetDiedOn } from './target-died.js';
import { coreFindsValid } from './second-opinion.js';
import { checkExchange, type ExchangeResult } from '../core/check-exchange.js';
import { judgeUserChecks, wireRequest } from '../core/user-checks/run-user-checks.js';
import type { UserCheckSet } from '../core/user-checks/user-check-set.js';
import { ContractsError } from '../core/errors.js';
import type { Contract } from '../core/compile-contract.js';
import type { Coverage } from '../core/coverage.js';
import type { CompiledSpec } from '../core/compile-spec.js';
import type { CheckName, Finding } from '../core/finding.js';
import type { ApiCredential } from '../http/api-credentials.js';
import { type CapturedExchange, malformedAnswer } from '../http/http-capture.js';
import type { FuzzTransport } from './fuzz-transport.js';
import type { ResultCollector } from '../reports/results.js';
import { mockRefusal } from '../core/mock-refusal.js';
import { parseJson } from '../core/parse-json.js';
import type { SentRequest } from './curl-line.js';
import type { FailureAnswer } from './failure-answer.js';
import type { FuzzHar } from './har-out.js';
import type { TrailStep } from './repro-script.js';
import { FailureBook } from './failure-book.js';
import { RequestBinder, UnsendablePath } from './request-binding.js';
import { canonicalJson, type FuzzCase } from './fuzz-case.js';
import { ignoredAuth, negativeDataRejection, notAServerError, positiveDataAcceptance } from './fuzz-checks.js';
import type { FuzzFixtures, FuzzPluginLookup } from './fuzz-plugin.js';
import { ambiguousOnWire, violations, type OperationModel, type RequestData, type Violation } from './request-model.js';

/** What an answer to a valid request is judged by, left unjudged when the embedded mock could not make one. */
const mockUnjudged: readonly CheckName[] = [
  'status_code_conformance',
  'response_schema_conformance',
  'positive_data_acceptance',
];

export interface ApiTarget {
  api: string;
  baseUrl: string;
  contract: Contract;
  compiled: CompiledSpec;
  models: Map<string, OperationModel>;
  /** The user's own checks of this API (apis[].checks, --checks): run on every answer to a valid request. */
  userChecks?: UserCheckSet | undefined;
}

export interface ExecutorOptions {
  /** The real HTTP client (HttpCapture) in a run; a function playing a service in a unit test (fuzz-transport.ts). */
  capture: FuzzTransport;
  /** With --coverage: every case sent is counted. */
  coverage?: Coverage;
  env: NodeJS.ProcessEnv;
  /** Unique to this run: what the run makes carries it, so that it can be found and swept. */
  marker: string;
  /** The APIs' fuzz plug-ins (fuzz-plugin.ts), handed in by the command. */
  plugins?: FuzzPluginLookup;
  /** What the plug-ins' command-line options set, as the plug-ins read it. */
  settings?: Readonly<Record<string, unknown>>;
  /** Requests per second at most; 0 for no cap. */
  rate: number;
  strict: boolean;
  results: ResultCollector;
  seed: number;
  /** Wall-clock end of the run (--max-time), in performance.now() milliseconds. */
  deadline: number;
  log: (line: string) => void;
  /** A secret the run made up: redacted from everything written. */
  addSecret: (secret: string) => void;
  /** Redacts credentials from a text: a failure's answer is redacted whole before it is cut (failure-answer.ts). */
  redact?: (text: string) => string;
  /** By API: what the config's credentials put on each request (api-credentials.ts), filled in as specs load. */
  credentials?: Record<string, ApiCredential[]>;
  /** --har-out: every exchange, with what the run made of it. */
  har?: FuzzHar;
  /** The target is the run's own embedded mock or sandbox: the mock's refusal (src/core/mock-refusal.ts) is heard. */
  embedded?: boolean;
  /** How long a rate limit is waited out (rate-limits.ts); by default 120 s at once, 600 s per operation. */
  rateLimits?: Omit<RateLimitSettings, 'deadline'>;
}

export interface Sent {
  sent: SentRequest;
  exchange: CapturedExchange;
  /** The answer's body parsed as JSON (undefined when it is not JSON): parsed when first asked for. */
  readonly json: unknown;
  durationMs: number;
}

/** A Sent whose body is parsed only if something asks for it: most answers are judged from the memo, unparsed. */
class SentExchange implements Sent {
  private parsed: { value: unknown } | undefined;

  constructor(
    readonly sent: SentRequest,
    readonly exchange: CapturedExchange,
    readonly durationMs: number,
  ) {}

  get json(): unknown {
    this.parsed ??= { value: parseJson(this.exchange.body) };
    return this.parsed.value;
  }
}

/**
 * The last answer an operation got, and how the core judged it. The core's verdict is a function of the answer
 * alone (the operation, its status, headers and body): an answer equal to the last in all of them has the same
 * verdict, and is not parsed and judged again. A server that answers the same thing to thousands of valid
 * requests costs one judgement; one whose answers differ in any byte is judged afresh each time.
 */
interface JudgedAnswer {
  status: number;
  headers: string;
  body: string;
  bodyTooLarge: number | undefined;
  bodyNotUtf8: boolean | undefined;
  judged: Judged;
}

/** The core's verdict on an answer, split by check: each check it applied, with its findings (often none). */
interface Judged {
  byCheck: [CheckName, Finding[]][];
  omitted: ExchangeResult['omitted'];
}

/**
 * The headers as one string, in order, each as `name:length:value` (`name:u;` when undefined): a name holds no `:`,
 * and the length says where the value ends whatever it holds, so two sets of headers give one string only if equal.
 */
function headersKey(headers: CapturedExchange['headers']): string {
  let key = '';
  for (const name in headers) {
    const value = headers[name];
    key += value === undefined ? `${name}:u;` : `${name}:${value.length}:${value}`;
  }
  return key;
}

/** `ambiguous`: valid or not depending on how the server decodes a parameter (ambiguousOnWire): never sent. */
export type Verdict = 'positive' | 'negative' | 'unauthenticated' | 'ambiguous';

/** A case sent but not yet judged (see Executor.sendCase). */
export interface SentCase {
  case: FuzzCase;
  model: OperationModel;
  request: RequestData;
  verdict: Verdict;
  broken: Violation[];
  sent: Sent;
  /** Requests the case took (a fresh hook's create and delete included): counted when it is judged. */
  requests: number;
}

/** Where requests are counted: the run's total, or a case's own until it is judged. */
export interface Tally {
  requests: number;
}

export interface CaseResult {
  case: FuzzCase;
  verdict: Verdict;
  sent: Sent;
  findings: Finding[];
}

export interface FuzzFailure {
  id: string;
  key: string;
  api: string;
  operation: string;
  check: string;
  status: number;
  message: string;
  phase: string;
  note: string;
  curl: string;
  seed: number;
  /** The request as the run sent it, for --replay. */
  request: SentRequest;
  /** What the target answered (absent in reports of earlier versions, which merge-reports may read). */
  answer?: FailureAnswer;
  /**
   * A parameter the run fills from a credential that this case set itself (FuzzCase.varies): its value, or none
   * when the case left it out. Kept apart because `request` has credentials' parameters redacted by name.
   */
  varied?: VariedParam;
  /** The kind of value that triggered it (value-kind.ts): with operation, check and status, its group. */
  kind?: string;
  /** How many judged requests fell in its group (absent in reports of earlier versions: one). */
  count?: number;
  /** Notes of other cases in its group, a few (failure-book.ts maxNotes). */
  others?: string[];
  /** The reproduction as a bash script (repro-script.ts): the requests that led to it, then the check again. */
  script?: string;
  /** How many requests the script sends. */
  steps?: number;
  /** A stateful walk's failure: every step (the failing one last) and the finding, for --replay from a fresh start. */
  sequence?: SavedSequence;
}

export interface SavedSequence {
  steps: TrailStep[];
  finding: Finding;
}

export interface VariedParam {
  name: string;
  in: 'query' | 'header';
  /** Absent: the case left the parameter out. */
  value?: string;
}

export function trailStep(sent: Sent): TrailStep {
  return { request: sent.sent, status: sent.exchange.status, json: sent.json };
}

/** What the validators say a bound request is: valid, missing only its credentials, or breaking the spec. */
export function classify(
  model: OperationModel,
  compiled: CompiledSpec,
  request: RequestData,
  anonymous = false,
): { verdict: Verdict; broken: Violation[] } {
  const broken = violations(model, compiled, request);
  // With no credential at all, a request the spec allows otherwise is unauthenticated, whatever the scheme: a bearer
  // token or a query key is not a parameter the validators see.
  if (broken.length === 0) {
    if (ambiguousOnWire(model, compiled, request).length > 0) return { verdict: 'ambiguous', broken };
    return { verdict: anonymous && model.secured ? 'unauthenticated' : 'positive', broken };
  }
  const onlyCredentials = broken.every((violation) =>
    model.apiKeyHeaders.some((header) => violation.where === `header ${header}`),
  );
  return { verdict: onlyCredentials ? 'unauthenticated' : 'negative', broken };
}

/** A case is sent only as what it claims: a positive that the validators refuse, or a negative they accept, is not. */
export function sendable(fuzzCase: FuzzCase, verdict: Verdict): boolean {
  if (verdict === 'ambiguous') return false;
  if (fuzzCase.anonymous) return verdict === 'unauthenticated';
  if (fuzzCase.intent === 'derive') return true;
  return fuzzCase.intent === 'positive' ? verdict === 'positive' : verdict !== 'positive';
}

export class Executor {
  /** Ids the run's valid requests saw or created, for the ignored_auth probes (auth-probes.ts). */
  readonly resources = new ResourceLedger();
  private nextSlot = 0;
  requests = 0;
  dropped = 0;

  /** Binds a case to what the run owns and builds the request as it goes on the wire (request-binding.ts). */
  readonly binder: RequestBinder;

  /** The distinct failures the run found, each with its reproduction (failure-book.ts). */
  readonly book: FailureBook;

  /** The target's 429s (and 503s with Retry-After), waited out per operation (rate-limits.ts). */
  readonly rateLimits: RateLimits;

  constructor(readonly options: ExecutorOptions) {
    this.binder = new RequestBinder(options, this);
    this.book = new FailureBook(options, this.binder);
    this.rateLimits = new RateLimits({
      maxWaitMs: options.rateLimits?.maxWaitMs ?? 120_000,
      budgetMs: options.rateLimits?.budgetMs ?? 600_000,
      deadline: options.deadline,
    });
  }

  /** An operational fault met inside a fast-check property (which would take it for a failing case). */
  fatal: ContractsError | undefined;

  /** The last GET the target answered: re-sent after a dropped connection, to tell one request's fate from an outage. */
  private lastAnsweredGet: SentRequest | undefined;

  /**
   * Whether a failed send was the target dropping that one request: the connection was closed or reset, and the last
   * GET it answered is answered again. Otherwise (no such GET, or it fails too) the target is gone: the run ends.
   */
  private async droppedOnlyThis(error: unknown, tally: Tally): Promise<boolean> {
    if (!droppedConnection(error) || this.lastAnsweredGet === undefined) return false;
    try {
      await this.send(this.lastAnsweredGet, false, tally);
      return true;
    } catch {
      return false;
    }
  }

  /** The failure id of the request the target died on (target-died.ts): the run stops after it. */
  targetDied: string | undefined;
  /** Whether the target answered anything yet: one that never did is unreachable, not dead. */
  private answeredAny = false;

  get expired(): boolean {
    return (
      performance.now() > this.options.deadline ||
      this.options.capture.interrupted ||
      this.fatal !== undefined ||
      this.targetDied !== undefined
    );
  }

  /** Runs a step of a property: an operational fault stops the run instead of being shrunk as if it were a bug. */
  async guarded<T>(work: () => Promise<T>, otherwise: T): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (!(error instanceof ContractsError)) throw error;
      this.fatal ??= error;
      return otherwise;
    }
  }

  /** Throws the fault that stopped the run, if any (after fast-check has returned). */
  rethrow(): void {
    if (this.fatal) throw this.fatal;
    if (this.options.capture.interrupted) throw new ContractsError('INTERRUPTED', 'interrupted');
  }

  private readonly fixtures = new Map<string, FuzzFixtures | undefined>();

  /** The run's fixtures on an API (its plug-in's, made at first use), or undefined: it has none. */
  fixturesOf(api: string): FuzzFixtures | undefined {
    if (!this.fixtures.has(api))
      this.fixtures.set(api, this.options.plugins?.(api)?.fixtures?.(this, this.options.settings ?? {}));
    return this.fixtures.get(api);
  }

  /**
   * Whether the case must run alone under --workers: it may create something the target numbers in the order the
   * creates arrive (the ids show in the report), or its method changes state on the target
   * (a ping or redelivery adds a delivery, and the target numbers those too). A case sent ahead of a failure and then
   * discarded must not have changed what later cases see, or the report would depend on --workers.
   */
  runsAlone(target: ApiTarget, fuzzCase: FuzzCase): boolean {
    const method = target.models.get(fuzzCase.operationId)?.method.toUpperCase();
    return this.fixturesOf(target.api)?.creates(fuzzCase) === true || (method !== 'GET' && method !== 'HEAD');
  }

  /** Binds, re-judges, sends and judges one case; undefined when it is not what it claims (then it is never sent). */
  async runCase(target: ApiTarget, fuzzCase: FuzzCase): Promise<CaseResult | undefined> {
    const sent = await this.sendCase(target, fuzzCase);
    return sent && this.judge(target, sent);
  }

  /**
   * The I/O half of a case: binds, re-judges and sends it, and deletes what it created, but records nothing. Many
   * may be in flight at once (--workers); `judge` then records them one by one in the cases' order, so the report
   * does not depend on which answer came first. Undefined when the case is not what it claims (never sent).
   */
  async sendCase(target: ApiTarget, fuzzCase: FuzzCase): Promise<SentCase | undefined> {
    const model = target.models.get(fuzzCase.operationId)!;
    this.unsendable = undefined;
    // An operation the run stopped waiting on gets nothing more: its checks say why (rate-limits.ts).
    if (this.rateLimits.givenUp(`${target.api}/${model.operationId}`)) return undefined;
    const tally = { requests: 0 };
    const fixtures = this.fixturesOf(target.api);
    const fresh = (await fixtures?.forCase(target, fuzzCase, tally)) ?? undefined;
    if (fresh === null) {
      this.requests += tally.requests;
      return undefined;
    }
    const release = async () => {
      if (fresh !== undefined) await fixtures!.release(target, fresh, tally);
    };
    const trail = this.trailOf(fixtures, fuzzCase, fresh?.step);
    if (trail) fuzzCase = { ...fuzzCase, trail };
    const request = this.binder.bind(model, fuzzCase, fresh?.id);
    const { verdict, broken } = classify(model, target.compiled, request, fuzzCase.anonymous);
    this.validRequests.judged(target.api, model.operationId, fuzzCase, verdict === 'positive', broken);
    if (!sendable(fuzzCase, verdict)) {
      this.dropped++;
      await release();
      this.requests += tally.requests;
      return undefined;
    }
    const toSend = this.built(target, model, () =>
      this.binder.toSent(target, model, request, fuzzCase.anonymous, fuzzCase.varies),
    );
    if (toSend === undefined) {
      this.dropped++;
      if (fuzzCase.anonymous)
        this.options.results.unexercised(target.api, model.operationId, 'ignored_auth', this.unsendable!);
      await release();
      this.requests += tally.requests;
      return undefined;
    }
    let sent: Sent;
    try {
      sent = await this.send(toSend, false, tally, { target, operation: model.operationId });
    } catch (error) {
      // Requests in flight when the target died fail too: the one it died on is the finding, these are not.
      if (this.targetDied !== undefined) {
        this.requests += tally.requests + 1;
        return undefined;
      }
      const malformed = malformedAnswerTo(error);
      if (!malformed && !(await this.droppedOnlyThis(error, tally))) {
        if (!(droppedConnection(error) && this.answeredAny && this.lastAnsweredGet !== undefined)) throw error;
        this.requests += tally.requests + 1;
        this.targetDied = targetDiedOn(this, target, model, fuzzCase, toSend, error as Error);
        return undefined;
      }
      // The target answers, and dropped the connection on this one request: that is its answer to it (a 152 KB URL
      // a server resets, say), a finding for this operation, not the end of the run. So is an answer framed two
      // ways at once (Content-Length beside chunked), which the proxy refuses to relay: the target's fault.
      this.requests += tally.requests + 1;
      const message = malformed
        ? `${model.operationId} answered with a message that cannot be framed one way only (${fuzzCase.note}): ${(error as Error).message}`
        : `${model.operationId} dropped the connection instead of answering (${fuzzCase.note}): ${(error as Error).message}`;
      this.options.results.record(target.api, model.operationId, 'not_a_server_error', [
        { check: 'not_a_server_error', severity: 'error', operation: model.operationId, instancePath: '', message },
      ]);
      await release().catch(() => undefined);
      return undefined;
    }
    if (this.rateLimits.givenUp(`${target.api}/${model.operationId}`)) {
      // Still rate-limited when the run stopped waiting: no answer to judge (a 429 is not the server failing).
      await release();
      this.requests += tally.requests;
      return undefined;
    }
    if (toSend.method === 'GET') this.lastAnsweredGet = toSend;
    await fixtures?.afterCase(target, model, sent, fresh, fuzzCase.keepCreated ? request : undefined, tally);
    return { case: fuzzCase, model, request, verdict, broken, sent, requests: tally.requests };
  }

  /** The recording half of a case: coverage, every check's judgement, and the requests it took. */
  judge(target: ApiTarget, { case: fuzzCase, model, request, verdict, broken, sent, requests }: SentCase): CaseResult {
    this.requests += requests;
    const status = sent.exchange.status;
    const operation = model.operationId;
    const mockCouldNot = this.options.embedded ? mockRefusal(sent.exchange) : undefined;
    if (mockCouldNot !== undefined) {
      // Our own mock found no answer its spec accepts: the tool's limit, not the API's failure. Nothing was judged.
      for (const check of mockUnjudged) this.options.results.unexercised(target.api, operation, check, mockCouldNot);
      this.options.har?.record(target, sent, {
        operation,
        phase: fuzzCase.phase,
        request: 'not judged',
        answer: mockCouldNot,
      });
      return { case: fuzzCase, verdict, sent, findings: [] };
    }
    if (this.options.coverage) {
      const query = new URLSearchParams(
        Object.entries(request.query).map(([name, value]) => [name, String(value)] as [string, string]),
      ).toString();
      this.options.coverage.recordRequest(target.api, operation, {
        query,
        headers: Object.fromEntries(
          Object.entries(request.headers).map(([name, value]) => [name.toLowerCase(), String(value)]),
        ),
      });
      this.options.coverage.recordResponse(
        target.api,
        operation,
        { status, headers: sent.exchange.headers, ...(sent.json !== undefined ? { json: sent.json } : {}) },
        true,
      );
    }
    const judged: [CheckName, Finding[]][] = [['not_a_server_error', notAServerError(operation, status)]];
    let omitted: ExchangeResult['omitted'];
    const ownCredentialRefused =
      verdict === 'positive' && fuzzCase.varies !== undefined && status >= 400 && status < 500;
    if (ownCredentialRefused) {
      // A value of its own in a credential's parameter (a clientToken the server never issued): the server may refuse
      // it with any client error, documented or not, as no spec can list a status for every token. Only a server
      // error (or an answer that accepts it, judged in full below) says something.
    } else if (verdict === 'positive') {
      this.validRequests.sent(target.api, operation);
      this.authRefusals.record(target.api, operation, status);
      this.resources.saw(target, model, request, sent);
      const checked = this.checked(target, operation, sent);
      omitted = checked.omitted;
      judged.push(...checked.byCheck);
      if (target.userChecks) judged.push(...userVerdicts(target, operation, sent));
      // A valid request the seed says must be refused (a hook sharing another's config) is judged by that rule instead.
      if (!fuzzCase.refusalExpected) {
        const refused = positiveDataAcceptance(operation, status);
        // A refusal of what the core judge also calls invalid says nothing of the server (second-opinion.ts).
        if (refused.length === 0 || coreFindsValid(target.contract, sent.sent))
          judged.push(['positive_data_acceptance', refused]);
      }
      // The plug-in's own checks of the answer (a create that names no id of what it made).
      judged.push(...(this.fixturesOf(target.api)?.judgeValid?.(operation, status, sent.json) ?? []));
    } else if (verdict === 'unauthenticated') {
      judged.push([
        'ignored_auth',
        ignoredAuth(operation, status, this.binder.credentialNames(target, model), fuzzCase.note),
      ]);
    } else {
      const accepted = negativeDataRejection(operation, status, `${broken[0]!.where}: ${broken[0]!.message}`);
      // Accepting what the core judge calls valid says nothing of the server (second-opinion.ts).
      if (accepted.length === 0 || !coreFindsValid(target.contract, sent.sent))
        judged.push(['negative_data_rejection', accepted]);
    }
    if (verdict !== 'positive') {
      const refusalCheck = verdict === 'unauthenticated' ? 'ignored_auth' : 'negative_data_rejection';
      const warnings = this.undocumentedRefusals.warn(target.api, model, status, refusalCheck);
      if (warnings.length > 0) judged.push([refusalCheck, warnings]);
    }
    for (const [check, findings] of judged)
      this.options.results.record(target.api, operation, check, findings, sent.durationMs, omitted?.[check]);
    this.options.har?.record(target, sent, {
      operation,
      phase: fuzzCase.phase,
      request: verdict === 'positive' ? 'valid' : verdict === 'unauthenticated' ? 'no credentials' : 'breaks the spec',
      ...(ownCredentialRefused
        ? {
            answer:
              "a client error to the case's own value in a credential's parameter: judged by not_a_server_error only",
          }
        : {}),
      failed: judged
        .filter(([, findings]) => findings.some((finding) => finding.severity === 'error'))
        .map(([check]) => check),
    });
    const errors: Finding[] = [];
    for (const [, findings] of judged)
      for (const finding of findings) if (finding.severity === 'error') errors.push(finding);
    const result = { case: fuzzCase, verdict, sent, findings: errors };
    this.book.count(result);
    return result;
  }

  private readonly lastAnswers = new Map<string, JudgedAnswer>();

  /** Valid requests per operation and how many were refused with 401/403 (auth-refusals.ts). */
  readonly authRefusals = new AuthRefusals();

  /** Refusal statuses the operations do not document, said once each (undocumented-refusals.ts). */
  readonly undocumentedRefusals = new UndocumentedRefusals();
  /** Which operations got a valid request, and why the others did not (valid-requests.ts). */
  readonly validRequests = new ValidRequests();

  /** The core's per-exchange checks on an answer to a valid request: judged afresh unless it repeats the last one. */
  private checked(target: ApiTarget, operation: string, sent: Sent): Judged {
    const { status, body, bodyTooLarge, bodyNotUtf8 } = sent.exchange;
    const headers = headersKey(sent.exchange.headers);
    const slot = `${target.api}\u0000${operation}`;
    const last = this.lastAnswers.get(slot);
    if (
      last &&
      last.status === status &&
      last.body === body &&
      last.headers === headers &&
      last.bodyTooLarge === bodyTooLarge &&
      last.bodyNotUtf8 === bodyNotUtf8
    )
      return last.judged;
    const json = sent.json;
    const result = checkExchange(target.contract, json === undefined ? sent.exchange : { ...sent.exchange, json }, {
      operationId: operation,
      strict: this.options.strict,
    });
    const judged: Judged = {
      byCheck: result.applied.map((check) => [check, result.findings.filter((finding) => finding.check === check)]),
      omitted: result.omitted,
    };
    this.lastAnswers.set(slot, { status, headers, body, bodyTooLarge, bodyNotUtf8, judged });
    return judged;
  }

  /**
   * Sends one request at the --rate cap (shared by every request in flight); cleanup requests go out even after an
   * interrupt. A rate limit (429, or 503 with Retry-After) is waited out and the request sent again, the operation
   * parked meanwhile (rate-limits.ts); each such answer is counted and written to the HAR. Returns the last answer:
   * still a rate limit when the run stopped waiting (rateLimits.givenUp says so).
   */
  async send(
    sent: SentRequest,
    cleanup = false,
    tally: Tally = this,
    of?: { target: ApiTarget; operation: string },
  ): Promise<Sent> {
    const key = of ? `${of.target.api}/${of.operation}` : 'setup';
    for (let attempt = 0; ; attempt++) {
      const answer = await this.sendOnce(sent, cleanup, tally);
      const wait = this.rateLimits.waitAsked(answer.exchange.status, answer.exchange.headers, attempt);
      if (wait === undefined) {
        this.rateLimits.gotThrough(key);
        return answer;
      }
      if (of)
        this.options.har?.record(of.target, answer, {
          operation: of.operation,
          request: 'not judged',
          answer: `rate-limited: asked to wait ${Math.ceil(wait / 1000)} s`,
        });
      if (!(await this.rateLimits.park(key, wait, () => !cleanup && this.expired))) return answer;
    }
  }

  private async sendOnce(sent: SentRequest, cleanup: boolean, tally: Tally): Promise<Sent> {
    if (this.options.rate > 0) {
      const now = performance.now();
      const wait = this.nextSlot - now;
      this.nextSlot = Math.max(now, this.nextSlot) + 1000 / this.options.rate;
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    }
    const started = performance.now();
    const exchange = await this.options.capture.exchange(sent, cleanup);
    tally.requests++;
    this.answeredAny = true;
    return new SentExchange(sent, exchange, performance.now() - started);
  }

  /** Sends a bound request of any API with the run's credentials, as cleanup (it goes out even after an interrupt). */
  async sendBound(target: ApiTarget, model: OperationModel, request: RequestData): Promise<Sent | undefined> {
    const bound = this.binder.bind(model, {
      api: target.api,
      operationId: model.operationId,
      phase: 'negative',
      request,
      note: 'cleanup',
      intent: 'derive',
    });
    const toSend = this.built(target, model, () => this.binder.toSent(target, model, bound));
    const sent = toSend && (await this.send(toSend, true));
    if (sent) this.options.har?.record(target, sent, { operation: model.operationId, request: 'not judged' });
    return sent;
  }

  /**
   * Cases sent but never judged (sent ahead of a failure under --workers, or beside one whose send failed): their
   * requests are counted and written to the HAR all the same, as sent and not judged.
   */
  discard(target: ApiTarget, cases: Iterable<SentCase>): void {
    for (const { model, case: fuzzCase, sent, requests } of cases) {
      this.requests += requests;
      this.options.har?.record(target, sent, {
        operation: model.operationId,
        phase: fuzzCase.phase,
        request: 'not judged',
        answer: 'sent ahead of a failure under --workers; not judged, so the report does not depend on --workers',
      });
    }
  }

  /** Why the last case was not sent because its path could not be built (UnsendablePath); cleared by each case. */
  unsendable: string | undefined;
  /** What was said already: each refusal is one line, however many requests it stops. */
  private readonly toldUnsendable = new Set<string>();

  /** The request `build` makes, or undefined (said once on the log) when a path value is no path segment. */
  private built(target: ApiTarget, model: OperationModel, build: () => SentRequest): SentRequest | undefined {
    try {
      return build();
    } catch (error) {
      if (!(error instanceof UnsendablePath)) throw error;
      this.unsendable = error.message;
      if (!this.toldUnsendable.has(error.message)) {
        this.toldUnsendable.add(error.message);
        this.options.log(`fuzz: ${target.api}: ${model.method} ${model.pathTemplate} not sent: ${error.message}`);
      }
      return undefined;
    }
  }

  /** Sends an operation with the run's credentials and no judgement: for fixtures, cleanup and sequences. */
  async call(
    target: ApiTarget,
    operationId: string,
    request: Partial<RequestData>,
    cleanup = false,
    tally: Tally = this,
  ): Promise<Sent> {
    const model = target.models.get(operationId)!;
    const full: RequestData = { path: {}, query: {}, headers: {}, ...structuredClone(request) };
    const sent = await this.send(this.binder.toSent(target, model, full), cleanup, tally, {
      target,
      operation: operationId,
    });
    // A rate limit the run stopped waiting on is in the HAR already (send).
    if (!this.rateLimits.givenUp(`${target.api}/${operationId}`))
      this.options.har?.record(target, sent, { operation: operationId, request: 'not judged' });
    return sent;
  }

  /** The steps a case's reproduction sends first: the fixtures' setup, then the case's own fixture. */
  private trailOf(
    fixtures: FuzzFixtures | undefined,
    fuzzCase: FuzzCase,
    fresh: TrailStep | undefined,
  ): TrailStep[] | undefined {
    if (fuzzCase.trail) return undefined;
    const setup = fixtures?.setupTrail ?? [];
    return fresh ? [...setup, fresh] : setup.length > 0 ? [...setup] : undefined;
  }
}

export { canonicalJson };

/** An answer the target sent that no reader can frame one way only (http-capture.ts says so in these words). */
function malformedAnswerTo(error: unknown): boolean {
  return (
    error instanceof ContractsError && error.code === 'TARGET_UNREACHABLE' && error.message.includes(malformedAnswer)
  );
}

/** A connection the target closed or reset under a request (not one it refused: then it is down). */
function droppedConnection(error: unknown): boolean {
  return (
    error instanceof ContractsError &&
    error.code === 'TARGET_UNREACHABLE' &&
    /ECONNRESET|EPIPE|socket hang up|closed before|connection broke|other side closed/i.test(error.message) &&
    !/ECONNREFUSED/.test(error.message)
  );
}

/** The user's checks on one answer: after the core's cache (checked()), as they may judge the request too. */
function userVerdicts(target: ApiTarget, operation: string, sent: Sent): [CheckName, Finding[]][] {
  const request = wireRequest(sent.sent, sent.exchange.path);
  return judgeUserChecks(target.userChecks!, target.contract, operation, request, sent.exchange);
}
