// What the proxy captured of one exchange, turned into the records the core checks and judged by it. Runs after
// the answer went to the client (see check-queue.ts), so the header objects and the decoded bodies are built here
// and not while forwarding.
import { excuseRefusal } from '../core/refusal-rule.js';
import { checkExchange, type ExchangeResult } from '../core/check-exchange.js';
import { withUserChecks } from '../core/user-checks/run-user-checks.js';
import type { UserCheckSet } from '../core/user-checks/user-check-set.js';
import { checkRequest, splitTarget, type RequestRecord, type RequestResult } from '../core/check-request.js';
import { isJsonType } from '../core/media-type.js';
import type { Contract } from '../core/compile-contract.js';
import { decodeBody, headerValue, type Exchange } from '../core/exchange.js';
import { matchRequest } from '../core/server-bases.js';
import { decodeContentEncoding } from '../http/decode-content-encoding.js';
import type { Finding } from '../core/finding.js';
import type { BoundedCopy } from './bounded-copy.js';

export interface ProxiedExchange {
  method: string;
  /** Path and query as the client sent them. */
  target: string;
  startedAt: Date;
  durationMs: number;
  operationId: string | undefined;
  request: RequestRecord;
  requestResult: RequestResult;
  /** What the client was answered (the target's status, 400 when blocked, 502 on an upstream fault). */
  status: number;
  response: Exchange | undefined;
  responseResult: ExchangeResult | undefined;
  blocked: boolean;
  /** Why the target could not answer. */
  upstreamError?: string;
  /** The client hung up before its answer was complete: the response, if any, is not judged. */
  clientGone?: boolean;
  /** Why neither side was judged (the proxy stopped and cut the exchange off): its findings are empty. */
  notJudged?: string;
}

/** One exchange as forwarded, waiting to be judged. */
export interface CapturedExchange {
  method: string;
  target: string;
  /** Epoch milliseconds. */
  startedAt: number;
  durationMs: number;
  /** The request's headers as received: [name, value, name, value…]. */
  requestHeaders: readonly string[];
  requestCopy: BoundedCopy;
  /** The request as judged before forwarding (with `errors`). */
  judged?: { record: RequestRecord; result: RequestResult };
  status: number;
  /** The target's answer headers as received, when it answered. */
  responseHeaders?: readonly string[];
  responseCopy?: BoundedCopy;
  blocked: boolean;
  upstreamError?: string;
  clientGone?: boolean;
  notJudged?: string;
  /** A streamed answer whose items were judged as they passed (stream-judge.ts): the first findings, and how many more. */
  stream?: { kept: Finding[]; dropped: number };
}

export function judgeExchange(
  contract: Contract,
  captured: CapturedExchange,
  maxBodyBytes: number,
  userChecks?: UserCheckSet,
): ProxiedExchange {
  if (captured.notJudged !== undefined) return notJudged(contract, captured, maxBodyBytes, captured.notJudged);
  const request = captured.judged?.record ?? requestRecord(captured, maxBodyBytes);
  const requestResult = captured.judged?.result ?? checkRequest(contract, request);
  let response: Exchange | undefined;
  let responseResult: ExchangeResult | undefined;
  if (captured.responseHeaders && captured.responseCopy && !captured.clientGone) {
    const headers = flatHeaders(captured.responseHeaders);
    // A stream judged as it passed was read whole, item by item, however long: no "too large to check" for it.
    response =
      captured.stream && captured.responseCopy.over
        ? { method: captured.method, path: request.path, status: captured.status, headers, body: '' }
        : responseExchange(
            captured.method,
            request.path,
            captured.status,
            headers,
            captured.responseCopy,
            maxBodyBytes,
          );
    if (captured.stream) response.itemsJudged = true;
    // A 4xx answer to a request that broke the spec need not be documented (refusal-rule.ts, as in fuzz and validate).
    responseResult = withUserChecks(
      excuseRefusal(
        withStreamFindings(checkExchange(contract, response), captured.stream),
        requestResult,
        captured.status,
      ),
      userChecks,
      contract,
      request,
      response,
    );
  }
  return {
    method: captured.method,
    target: captured.target,
    startedAt: new Date(captured.startedAt),
    durationMs: captured.durationMs,
    operationId: requestResult.operationId,
    request,
    requestResult,
    status: captured.status,
    response,
    responseResult,
    blocked: captured.blocked,
    ...(captured.upstreamError !== undefined ? { upstreamError: captured.upstreamError } : {}),
    ...(captured.clientGone ? { clientGone: true } : {}),
  };
}

/** The findings its items had as they passed, in the exchange's result (the check counted as applied). */
function withStreamFindings(result: ExchangeResult, stream: CapturedExchange['stream']): ExchangeResult {
  if (stream === undefined || result.operationId === undefined) return result;
  const applied = result.applied.includes('response_schema_conformance')
    ? result.applied
    : [...result.applied, 'response_schema_conformance' as const];
  const more: Finding[] =
    stream.dropped === 0
      ? []
      : [
          {
            check: 'response_schema_conformance',
            severity: 'error',
            operation: result.operationId,
            instancePath: '',
            message: `${stream.dropped} more item findings, said as they passed, are not listed here`,
          },
        ];
  return { ...result, applied, findings: [...result.findings, ...stream.kept, ...more] };
}

/** An exchange cut off before it was over: recorded (its request as far as it came), and not judged. */
function notJudged(contract: Contract, captured: CapturedExchange, maxBodyBytes: number, why: string): ProxiedExchange {
  const request = requestRecord(captured, maxBodyBytes);
  const operationId = matchRequest(contract, request.method, request.path)?.operation.operationId;
  return {
    method: captured.method,
    target: captured.target,
    startedAt: new Date(captured.startedAt),
    durationMs: captured.durationMs,
    operationId,
    request,
    requestResult: { operationId, applied: [], findings: [] },
    status: captured.status,
    response: undefined,
    responseResult: undefined,
    blocked: captured.blocked,
    upstreamError: why,
    notJudged: why,
  };
}

export function requestRecord(
  captured: Pick<CapturedExchange, 'method' | 'target' | 'requestHeaders' | 'requestCopy'>,
  maxBodyBytes: number,
): RequestRecord {
  const { path, query } = splitTarget(captured.target);
  const record: RequestRecord = {
    method: captured.method,
    path,
    query,
    headers: flatHeaders(captured.requestHeaders),
    body: '',
  };
  if (captured.requestCopy.over) return { ...record, bodyTooLarge: maxBodyBytes };
  const { text, notUtf8 } = decodeBody(captured.requestCopy.bytes());
  return { ...record, body: text, ...(notUtf8 ? { bodyNotUtf8: true } : {}) };
}

// Headers Node's own server keeps once, the first, when repeated (the rest are dropped, as there).
const firstOnly = new Set([
  'age',
  'authorization',
  'content-length',
  'content-type',
  'etag',
  'expires',
  'from',
  'host',
  'if-modified-since',
  'if-unmodified-since',
  'last-modified',
  'location',
  'max-forwards',
  'proxy-authorization',
  'referer',
  'retry-after',
  'server',
  'user-agent',
]);

/** Raw headers as one lower-cased record, repeated ones joined as Node's `IncomingMessage.headers` joins them. */
function flatHeaders(raw: readonly string[]): Record<string, string> {
  // No prototype: a header named "constructor" or "__proto__" is just a header.
  const flat = Object.create(null) as Record<string, string>;
  for (let index = 0; index < raw.length; index += 2) {
    const name = raw[index]!.toLowerCase();
    const value = raw[index + 1]!;
    const seen = flat[name];
    if (seen === undefined) flat[name] = value;
    else if (!firstOnly.has(name)) flat[name] = `${seen}${name === 'cookie' ? '; ' : ', '}${value}`;
  }
  return flat;
}

function responseExchange(
  method: string,
  path: string,
  status: number,
  headers: Record<string, string>,
  copy: BoundedCopy,
  limit: number,
): Exchange {
  if (copy.over) return { method, path, status, headers, body: '', bodyTooLarge: limit };
  const decoded = decodeContentEncoding(copy.bytes(), headerValue(headers, 'content-encoding'), limit);
  if ('tooLarge' in decoded) return { method, path, status, headers, body: '', bodyTooLarge: limit };
  const { text, notUtf8 } = decodeBody(decoded.bytes);
  const exchange: Exchange = { method, path, status, headers, body: text, ...(notUtf8 ? { bodyNotUtf8: true } : {}) };
  // Parsed once here, for the checks and for whoever reads the exchange (coverage); a body that does not parse is
  // left to the checks, which say why.
  if (text !== '' && isJsonType(headerValue(headers, 'content-type'))) {
    try {
      exchange.json = JSON.parse(text);
    } catch {
      // reported by response_body_wellformed
    }
  }
  return exchange;
}
