// One entry of a HAR capture judged, as `validate --har` reports it: parsed into an exchange, both sides checked,
// the output it prints and what it adds to coverage. Runs on the main thread (--jobs 1) or in a worker: either way
// the same function makes the same text, so the output does not depend on where it ran.
import type { Contract } from '../core/compile-contract.js';
import { checkExchange, omittedCount } from '../core/check-exchange.js';
import { checkRequest } from '../core/check-request.js';
import { excuseRefusal } from '../core/refusal-rule.js';
import type { Coverage, CoverageObservation } from '../core/coverage.js';
import type { Exchange } from '../core/exchange.js';
import type { Finding } from '../core/finding.js';
import { matchRequest } from '../core/server-bases.js';
import { toExchange, type Found } from './har-entry.js';

export type Side = 'request' | 'response' | 'both';

export interface HarJudgeSettings {
  side: Side;
  strict: boolean;
  format: 'text' | 'json';
  maxBodyBytes: number;
}

/** The compiled specs of a run (several with --api all), each with the API name coverage counts it under. */
export interface HarContracts {
  contracts: readonly { api: string; contract: Contract }[];
  /** Works out observations; its own counts are never used. */
  coverage: Coverage;
}

export interface HarVerdict {
  index: number;
  verdict: 'passed' | 'failed' | 'unmatched' | 'invalid';
  /** What the run prints for the entry, each a line as written: its JSON item (json), or its lines (text; a failing one only). */
  out?: string[];
  coverage?: CoverageObservation[];
}

export function judgeHarEntry(
  setup: HarContracts,
  found: Found,
  index: number,
  settings: HarJudgeSettings,
): HarVerdict {
  const { side, strict, format, maxBodyBytes } = settings;
  const parsed = toExchange(found, index, maxBodyBytes);
  if (parsed.invalidEntry !== undefined) {
    // An entry that is not an exchange is reported where it stands, by position only, and the capture goes on.
    const out =
      format === 'json'
        ? JSON.stringify({ index, invalidEntry: parsed.invalidEntry })
        : `#${index} ✗ ${parsed.invalidEntry}`;
    return { index, verdict: 'invalid', out: [out] };
  }
  const exchange = capBody(parsed, maxBodyBytes);
  const { api, contract } = contractFor(setup.contracts, exchange.method, exchange.path);
  const result = checkExchange(contract, exchange, { strict });
  if (side === 'request') result.findings = result.operationId === undefined ? result.findings : [];
  let omitted = side === 'request' ? 0 : omittedCount(result);
  if (side !== 'response') {
    const { request } = exchange;
    const requestResult =
      request.unreadable !== undefined
        ? {
            operationId: result.operationId,
            findings: [
              {
                check: 'request_parameters_conformance' as const,
                severity: 'error' as const,
                operation: result.operationId ?? `${exchange.method} ${exchange.path}`,
                instancePath: '',
                message: `the request could not be checked: ${request.unreadable}`,
              },
            ],
            omitted: 0,
          }
        : checkRequest(contract, {
            method: exchange.method,
            path: exchange.path,
            query: request.query,
            headers: request.headers,
            body: request.body,
            ...(request.bodyTooLarge !== undefined ? { bodyTooLarge: request.bodyTooLarge } : {}),
          });
    // A 4xx answer to a request that broke the spec need not be documented (refusal-rule.ts, as in fuzz and proxy).
    if (side === 'both') result.findings = excuseRefusal(result, requestResult, exchange.status).findings;
    // An exchange that matches no operation is said once, by the response side.
    if (requestResult.operationId !== undefined) result.findings = [...requestResult.findings, ...result.findings];
    omitted += requestResult.omitted ?? 0;
  }
  const coverage: CoverageObservation[] = [];
  if (result.operationId !== undefined) {
    const requestSeen = setup.coverage.observeRequest(api, result.operationId, exchange.request);
    if (requestSeen) coverage.push(requestSeen);
    const json = setup.coverage.wantsBody(api, result.operationId) ? parsedOrUndefined(exchange.body) : undefined;
    const responseSeen = setup.coverage.observeResponse(
      api,
      result.operationId,
      { status: exchange.status, headers: exchange.headers, ...(json !== undefined ? { json } : {}) },
      true,
    );
    if (responseSeen) coverage.push(responseSeen);
  }
  const failed = result.findings.some((finding) => finding.severity === 'error');
  const verdict = result.operationId === undefined ? 'unmatched' : failed ? 'failed' : 'passed';
  let out: string[] | undefined;
  if (format === 'json') {
    out = [
      JSON.stringify({
        index: exchange.index,
        method: exchange.method,
        url: exchange.url,
        status: exchange.status,
        operation: result.operationId ?? null,
        findings: result.findings,
        ...(omitted ? { omitted } : {}),
      }),
    ];
  } else if (result.findings.length > 0) {
    // A warning is printed too (marked `!`): an exchange that passes with one still says so.
    const lines = [
      `#${exchange.index} ${exchange.method} ${exchange.path} → ${exchange.status}${result.operationId ? `  (${result.operationId})` : ''}`,
    ];
    for (const finding of result.findings) lines.push(`    ${mark(finding)} ${finding.check}: ${finding.message}`);
    if (omitted > 0) lines.push(`    … and ${omitted} more`);
    out = lines;
  }
  return { index, verdict, ...(out !== undefined ? { out } : {}), ...(coverage.length > 0 ? { coverage } : {}) };
}

/** With several specs (--api all), an exchange is checked against the one that has its operation. */
function contractFor(
  contracts: HarContracts['contracts'],
  method: string,
  requestPath: string,
): HarContracts['contracts'][number] {
  if (contracts.length === 1) return contracts[0]!;
  return contracts.find((candidate) => matchRequest(candidate.contract, method, requestPath)) ?? contracts[0]!;
}

/** A HAR body over the limit is not checked, as check does with a response over --max-body. */
export function capBody<T extends Exchange>(exchange: T, limit: number): T {
  // UTF-8 takes at most 3 bytes per UTF-16 unit: a shorter string cannot be over the limit, so most skip the count.
  if (exchange.body.length * 3 <= limit || Buffer.byteLength(exchange.body) <= limit) return exchange;
  const { json: _json, bodyNotUtf8: _notUtf8, ...rest } = exchange;
  return { ...rest, body: '', bodyTooLarge: limit } as T;
}

export function mark(finding: Finding): string {
  return finding.severity === 'error' ? '✗' : '!';
}

function parsedOrUndefined(body: string): unknown {
  try {
    return body === '' ? undefined : JSON.parse(body);
  } catch {
    return undefined;
  }
}
