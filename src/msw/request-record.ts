// A fetch Request (as msw hands it to a resolver) as the engine's request record: method, the path under the
// handler's base URL, the raw query, the headers, and the body's bytes decoded as UTF-8 (bytes that are not UTF-8
// marked, as the engine's HTTP server does, start-engine.ts). The body is read within a bound, like that server's.
import type { RequestRecord } from '../core/check-request.js';
import { decodeBody } from '../core/exchange.js';

/** The most body bytes read of one request: the engine's HTTP server's bound (validating-front.ts). */
export const maxBodyBytes = 32 * 1024 * 1024;

/** The record, or undefined when the body is over maxBodyBytes. `base` is the base URL's path, without a final `/`. */
export async function requestRecord(request: Request, base: string): Promise<RequestRecord | undefined> {
  const url = new URL(request.url);
  const bytes = await boundedBody(request);
  if (bytes === undefined) return undefined;
  const { text, notUtf8 } = decodeBody(bytes);
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const under = base !== '' && (url.pathname === base || url.pathname.startsWith(`${base}/`));
  const path = under ? url.pathname.slice(base.length) || '/' : url.pathname;
  return {
    method: request.method,
    path,
    query: url.search.slice(1),
    headers,
    body: text,
    ...(notUtf8 ? { bodyNotUtf8: true } : {}),
  };
}

async function boundedBody(request: Request): Promise<Uint8Array | undefined> {
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBodyBytes) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}
