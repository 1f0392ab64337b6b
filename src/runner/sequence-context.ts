// What a sequence of calls works with, and the one way it makes a call: through a typed client, captured,
// checked by the core, recorded.
import type { ApiName } from '../config/api-entry.js';
import type { ApiCredential } from '../http/api-credentials.js';
import { checkExchange } from '../core/check-exchange.js';
import { parseJson } from '../core/parse-json.js';
import type { Contract } from '../core/compile-contract.js';
import type { Coverage } from '../core/coverage.js';
import type { CheckName, Finding } from '../core/finding.js';
import type { CapturedExchange, HttpCapture } from '../http/http-capture.js';
import type { RunMode } from '../reports/check-run.js';
import type { ResultCollector } from '../reports/results.js';
import { withUserChecks } from '../core/user-checks/run-user-checks.js';
import type { UserCheckSet } from '../core/user-checks/user-check-set.js';

export interface SequenceContext {
  api: ApiName;
  baseUrl: string;
  contract: Contract;
  capture: HttpCapture;
  results: ResultCollector;
  mode: RunMode;
  strict: boolean;
  env: NodeJS.ProcessEnv;
  /** What the config's credentials put on each request to baseUrl (api-credentials.ts); their values are registered. */
  credentials: ApiCredential[];
  /** Secrets the sequence makes up (webhook secrets) are registered here so every output redacts them. */
  addSecret(secret: string): void;
  /** A line for the user on stderr (progress of a cleanup after an interrupt). */
  log(line: string): void;
  /** With --coverage: every response observed is counted. */
  coverage?: Coverage;
  /** The user's own checks of this API (apis[].checks, --checks), run on every exchange the core's checks judge. */
  userChecks?: UserCheckSet;
}

export interface Observed {
  exchange: CapturedExchange;
  status: number;
  /** The body parsed as JSON, or undefined. */
  json: unknown;
  durationMs: number;
}

/**
 * Makes one call and judges it with every per-exchange check (unless `probe`: a deliberately invalid request
 * whose answer the spec does not document, judged only by the behavioural check that asked for it).
 */
export async function observe(
  context: SequenceContext,
  operationId: string,
  call: () => Promise<unknown>,
  options: { probe?: boolean } = {},
): Promise<Observed> {
  context.capture.last = undefined;
  const started = performance.now();
  await call();
  const durationMs = performance.now() - started;
  const exchange = context.capture.last as CapturedExchange | undefined;
  if (!exchange) throw new Error(`no exchange was captured for ${operationId}`);
  // Parsed once here: the checks reuse it (a body that does not parse is left for them to report).
  const json = parseJson(exchange.body);
  context.coverage?.recordResponse(context.api, operationId, {
    status: exchange.status,
    headers: exchange.headers,
    ...(json !== undefined ? { json } : {}),
  });
  if (!options.probe) {
    const checked = checkExchange(context.contract, json === undefined ? exchange : { ...exchange, json }, {
      operationId,
      strict: context.strict,
    });
    // The request went through a typed client: its method, path and query are known here, not its headers or body.
    const result = withUserChecks(checked, context.userChecks, context.contract, seenRequest(exchange), exchange);
    const byCheck = new Map<CheckName, Finding[]>(result.applied.map((check) => [check, []]));
    for (const finding of result.findings) byCheck.get(finding.check)?.push(finding);
    for (const [check, findings] of byCheck)
      context.results.record(context.api, operationId, check, findings, durationMs, result.omitted?.[check]);
  }
  return { exchange, status: exchange.status, json, durationMs };
}

function seenRequest(exchange: CapturedExchange) {
  const query = exchange.url.indexOf('?');
  return { method: exchange.method, path: exchange.path, query: query < 0 ? '' : exchange.url.slice(query + 1) };
}

export function judge(context: SequenceContext, operationId: string, check: CheckName, findings: Finding[]): void {
  context.results.record(context.api, operationId, check, findings);
}

/** The target kept these checks from being exercised: each fails with the reason, unless already judged. */
export function unexercised(
  context: SequenceContext,
  operationId: string,
  checks: readonly CheckName[],
  reason: string,
): void {
  for (const check of checks) context.results.unexercised(context.api, operationId, check, reason);
}

// Lives in the core so that src/fuzz imports nothing of src/runner: the mock, which src/runner starts, generates its
// answers with src/fuzz. The sequences import it from here.
export { parseJson };
