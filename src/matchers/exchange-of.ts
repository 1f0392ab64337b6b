// What a matcher is given, as the core's Exchange: a fetch Response (read from a clone, so the test can still read
// it), an openapi-fetch result `{ data, error, response }`, a Playwright APIResponse (its body read with the awaited
// `body()`), a supertest (superagent) response, or a plain `{ method, path, status, headers, body }`.
import { ContractsError } from '../core/errors.js';
import { decodeBody, type Exchange } from '../core/exchange.js';
import { setOwn } from '../core/own-key.js';

export interface ReceivedExchange {
  exchange: Exchange;
  /** The request method when the value says it (a Response does not); otherwise the operation is found by path. */
  method: string | undefined;
  /** The body as parsed JSON, to show the actual value at a finding's path; undefined when there is none. */
  value: unknown;
}

export interface PlainExchange {
  method: string;
  /** The request path; a query string is ignored. */
  path: string;
  status: number;
  headers?: Record<string, string | undefined> | Headers;
  /** The raw body text, or the value already parsed (then checked as JSON). */
  body?: unknown;
}

/** Bodies over this many bytes are reported as too large instead of read (a hostile server could send gigabytes). */
export const defaultMaxBodyBytes = 10 * 1024 * 1024;

export async function exchangeOf(received: unknown, maxBodyBytes = defaultMaxBodyBytes): Promise<ReceivedExchange> {
  if (isResponse(received)) return fromResponse(received, maxBodyBytes);
  if (isRecord(received) && isResponse(received.response) && ('data' in received || 'error' in received)) {
    return fromOpenapiFetch(received, received.response, maxBodyBytes);
  }
  if (isPlaywrightResponse(received)) return fromPlaywright(received, maxBodyBytes);
  if (isSupertestResponse(received)) return fromSupertest(received, maxBodyBytes);
  if (
    isRecord(received) &&
    typeof received.method === 'string' &&
    typeof received.path === 'string' &&
    typeof received.status === 'number'
  ) {
    return fromPlain(received as unknown as PlainExchange);
  }
  throw new ContractsError(
    'USAGE',
    `toSatisfyContract takes a fetch Response, an openapi-fetch result { data, error, response }, a Playwright APIResponse, a supertest response or { method, path, status, headers, body }, not ${describe(received)}`,
  );
}

async function fromResponse(response: Response, maxBodyBytes: number): Promise<ReceivedExchange> {
  const { text, notUtf8, tooLarge } = await readBounded(response.clone(), maxBodyBytes);
  const exchange: Exchange = {
    method: '',
    path: pathOf(response.url),
    status: response.status,
    headers: headersOf(response.headers),
    body: text,
  };
  if (tooLarge) exchange.bodyTooLarge = maxBodyBytes;
  if (notUtf8) exchange.bodyNotUtf8 = true;
  return { exchange, method: undefined, value: parseOrUndefined(text) };
}

async function fromOpenapiFetch(
  result: Record<string, unknown>,
  response: Response,
  maxBodyBytes: number,
): Promise<ReceivedExchange> {
  // openapi-fetch has read the body already (unless parseAs: 'stream'): what it parsed is the body.
  if (!response.bodyUsed) return fromResponse(response, maxBodyBytes);
  const parsed = response.ok ? result.data : result.error;
  const exchange: Exchange = {
    method: '',
    path: pathOf(response.url),
    status: response.status,
    headers: headersOf(response.headers),
    body: '',
  };
  if (typeof parsed === 'string') exchange.body = parsed;
  else if (parsed !== undefined) Object.assign(exchange, { body: JSON.stringify(parsed) ?? '', json: parsed });
  return { exchange, method: undefined, value: typeof parsed === 'string' ? parseOrUndefined(parsed) : parsed };
}

/** What toSatisfyContract reads of Playwright's APIResponse (@playwright/test's `request` fixture answers it). */
export interface PlaywrightResponseLike {
  url(): string;
  status(): number;
  headers(): Record<string, string>;
  body(): Promise<Uint8Array>;
}

/**
 * Playwright has read the whole body into its own process already: what it hands over is measured, not streamed,
 * and one over the limit is a finding as for a Response. It does not say the request method (like a Response).
 */
async function fromPlaywright(response: PlaywrightResponseLike, maxBodyBytes: number): Promise<ReceivedExchange> {
  const bytes = await response.body();
  const exchange: Exchange = {
    method: '',
    path: pathOf(response.url()),
    status: response.status(),
    headers: { ...response.headers() },
    body: '',
  };
  if (bytes.byteLength > maxBodyBytes) {
    exchange.bodyTooLarge = maxBodyBytes;
    return { exchange, method: undefined, value: undefined };
  }
  const { text, notUtf8 } = decodeBody(bytes);
  exchange.body = text;
  if (notUtf8) exchange.bodyNotUtf8 = true;
  return { exchange, method: undefined, value: parseOrUndefined(text) };
}

/** What toSatisfyContract reads of a supertest (superagent) response: `res.req` is the Node request it sent. */
interface SupertestResponseLike {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text?: unknown;
  body?: unknown;
  req: { method: string; path: string };
}

/** supertest keeps the raw text when the body is text (JSON included); otherwise only what it parsed. */
function fromSupertest(response: SupertestResponseLike, maxBodyBytes: number): ReceivedExchange {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers)) {
    if (value !== undefined) setOwn(headers, name.toLowerCase(), Array.isArray(value) ? value.join(', ') : value);
  }
  const plain = fromPlain({
    method: response.req.method,
    path: response.req.path,
    status: response.status,
    headers,
    body: typeof response.text === 'string' ? response.text : response.body,
  });
  if (Buffer.byteLength(plain.exchange.body) > maxBodyBytes) {
    plain.exchange.body = '';
    delete plain.exchange.json;
    plain.exchange.bodyTooLarge = maxBodyBytes;
    plain.value = undefined;
  }
  return plain;
}

function fromPlain(plain: PlainExchange): ReceivedExchange {
  const headers = plain.headers instanceof Headers ? headersOf(plain.headers) : { ...(plain.headers ?? {}) };
  const exchange: Exchange = {
    method: plain.method,
    path: plain.path.split(/[?#]/, 1)[0] ?? '',
    status: plain.status,
    headers,
    body: '',
  };
  const body = plain.body;
  if (typeof body === 'string') exchange.body = body;
  else if (body instanceof Uint8Array) {
    const decoded = decodeBody(body);
    exchange.body = decoded.text;
    if (decoded.notUtf8) exchange.bodyNotUtf8 = true;
  } else if (body !== undefined && body !== null)
    Object.assign(exchange, { body: JSON.stringify(body) ?? '', json: body });
  return {
    exchange,
    method: plain.method,
    value: typeof body === 'string' ? parseOrUndefined(body) : (body ?? undefined),
  };
}

/** Reads at most `limit` bytes, then gives up on the rest (the stream is cancelled). */
async function readBounded(
  response: Response,
  limit: number,
): Promise<{ text: string; notUtf8: boolean; tooLarge: boolean }> {
  if (!response.body) return { text: '', notUtf8: false, tooLarge: false };
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      // Not awaited: a clone's cancel settles only once the original is cancelled too, which the test may never do.
      reader.cancel().catch(() => {});
      return { text: '', notUtf8: false, tooLarge: true };
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  const { text, notUtf8 } = decodeBody(bytes);
  return { text, notUtf8, tooLarge: false };
}

function headersOf(headers: Headers): Record<string, string> {
  const record: Record<string, string> = {};
  headers.forEach((value, name) => setOwn(record, name, value));
  return record;
}

function pathOf(url: string): string {
  if (url === '') return '';
  try {
    return new URL(url).pathname;
  } catch {
    return '';
  }
}

function parseOrUndefined(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isResponse(value: unknown): value is Response {
  return value instanceof Response;
}

function isPlaywrightResponse(value: unknown): value is PlaywrightResponseLike {
  return (
    isRecord(value) &&
    typeof value.url === 'function' &&
    typeof value.status === 'function' &&
    typeof value.headers === 'function' &&
    typeof value.body === 'function'
  );
}

function isSupertestResponse(value: unknown): value is SupertestResponseLike {
  return (
    isRecord(value) &&
    typeof value.status === 'number' &&
    isRecord(value.headers) &&
    isRecord(value.req) &&
    typeof value.req.method === 'string' &&
    typeof value.req.path === 'string'
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object';
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return `an object with keys ${Object.keys(value).slice(0, 5).join(', ') || '(none)'}`;
  return typeof value;
}
