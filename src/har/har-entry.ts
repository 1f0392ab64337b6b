// One entry of a HAR capture (http://www.softwareishard.com/blog/har-12-spec/#entries) as an exchange: the
// response's status, headers and body, decoded and within the body cap; or why the entry is not one.
import { decodeBody, headerValue, type Exchange } from '../core/exchange.js';
import { escapeLine } from '../core/escape-line.js';
import { decodeContentEncoding } from '../http/decode-content-encoding.js';
import { setOwn } from '../core/own-key.js';
import { bodyFromParams, maxHarParams } from './post-data-params.js';

export interface HarExchange extends Exchange {
  /** 1-based position in the capture, for messages. */
  index: number;
  url: string;
  /**
   * Set when the entry could not be read as an exchange (not an object, not valid JSON, a field missing):
   * why, in one line that holds no text of the entry. method, url and path are then '' and status 0.
   */
  invalidEntry?: string;
  /** The request side: query, headers and body (postData), for request conformance. */
  request: HarRequest;
}

export interface HarRequest {
  /** The raw query string of request.url, without the `?`. */
  query: string;
  headers: Record<string, string>;
  /** postData.text, or the form body its postData.params stand for; '' when there is none. */
  body: string;
  bodyTooLarge?: number;
  /** Set when a request header was too long to read: the request side cannot be judged. */
  unreadable?: string;
}

/** What the splitter found in `log.entries`: an object's (or array's) text, a value of another type, or an entry over the cap. */
export type Found = { text: string } | { notObject: string } | { tooLarge: number };

/** What a string of an entry far over the body cap is replaced by: in the file's JSON, then once parsed. */
export const TOO_LARGE_SOURCE = '\\u0000contracts:too-large';
const TOO_LARGE = '\u0000contracts:too-large';

interface HarEntry {
  request?: {
    method?: unknown;
    url?: unknown;
    headers?: { name?: unknown; value?: unknown }[];
    postData?: { text?: unknown; mimeType?: unknown; params?: unknown };
  };
  response?: {
    status?: unknown;
    headers?: { name?: unknown; value?: unknown }[];
    content?: { text?: unknown; encoding?: unknown };
  };
}

function invalid(index: number, reason: string): HarExchange {
  return {
    index,
    method: '',
    url: '',
    path: '',
    status: 0,
    headers: {},
    body: '',
    invalidEntry: `entry ${index} ${reason}`,
    request: { query: '', headers: {}, body: '' },
  };
}

export function toExchange(found: Found, index: number, maxBodyBytes: number): HarExchange {
  if ('notObject' in found) return invalid(index, `is ${found.notObject}, not an object`);
  if ('tooLarge' in found) return invalid(index, `is over ${found.tooLarge} characters in the file: not read`);
  let entry: unknown;
  try {
    entry = JSON.parse(found.text);
  } catch (error) {
    // The parser's message quotes the text around the fault, and that text may be a secret: only the position.
    const position = /position (\d+)/.exec((error as Error).message)?.[1];
    return invalid(
      index,
      `is not valid JSON${position === undefined ? '' : ` (at character ${position} of the entry)`}`,
    );
  }
  if (entry === null || typeof entry !== 'object' || Array.isArray(entry))
    return invalid(index, `is ${Array.isArray(entry) ? 'an array' : 'not an object'}, not an object`);
  const { request, response } = entry as HarEntry;
  const method = request?.method;
  const url = request?.url;
  const status = response?.status;
  if (typeof method !== 'string' || typeof url !== 'string' || typeof status !== 'number') {
    return invalid(index, 'lacks request.method, request.url or response.status');
  }
  if (method === TOO_LARGE || url === TOO_LARGE)
    return invalid(index, 'has a request.method or request.url too long to read');
  let path: string;
  let query: string;
  try {
    const parsed = new URL(url);
    path = parsed.pathname;
    query = parsed.search.slice(1);
  } catch {
    return invalid(index, 'has an invalid request.url');
  }
  const headers: Record<string, string> = {};
  for (const header of Array.isArray(response?.headers) ? response.headers : []) {
    if (typeof header?.name !== 'string' || typeof header.value !== 'string') continue;
    if (header.name === TOO_LARGE || header.value === TOO_LARGE)
      return invalid(index, 'has a response header too long to read');
    setOwn(headers, escapeLine(header.name).toLowerCase(), escapeLine(header.value));
  }
  // The method and URL as one line each: a file's text can never start a line of its own where they are printed.
  const exchange = {
    index,
    method: escapeLine(method),
    url: escapeLine(url),
    path,
    status,
    headers,
    request: harRequest(request, query, maxBodyBytes),
  };
  const content = response?.content;
  const rawText = typeof content?.text === 'string' ? content.text : '';
  if (rawText === TOO_LARGE) return { ...exchange, body: '', bodyTooLarge: maxBodyBytes };
  if (content?.encoding !== 'base64') {
    return Buffer.byteLength(rawText) > maxBodyBytes
      ? { ...exchange, body: '', bodyTooLarge: maxBodyBytes }
      : { ...exchange, body: rawText };
  }
  // base64 is how a HAR holds bytes as they came: possibly still compressed.
  const decoded = decodeContentEncoding(
    Buffer.from(rawText, 'base64'),
    headerValue(headers, 'content-encoding'),
    maxBodyBytes,
  );
  if ('tooLarge' in decoded) return { ...exchange, body: '', bodyTooLarge: maxBodyBytes };
  const { text, notUtf8 } = decodeBody(decoded.bytes);
  return { ...exchange, body: text, ...(notUtf8 ? { bodyNotUtf8: true } : {}) };
}

function harRequest(request: HarEntry['request'], query: string, maxBodyBytes: number): HarRequest {
  const headers: Record<string, string> = {};
  for (const header of Array.isArray(request?.headers) ? request.headers : []) {
    if (typeof header?.name !== 'string' || typeof header.value !== 'string') continue;
    if (header.name === TOO_LARGE || header.value === TOO_LARGE)
      return { query, headers: {}, body: '', unreadable: 'a request header is too long to read' };
    // HTTP/2 pseudo-headers (:authority) are not request headers of the operation.
    if (header.name.startsWith(':')) continue;
    setOwn(headers, escapeLine(header.name).toLowerCase(), escapeLine(header.value));
  }
  let text = typeof request?.postData?.text === 'string' ? request.postData.text : '';
  const mimeType = typeof request?.postData?.mimeType === 'string' ? request.postData.mimeType : '';
  if (headers['content-type'] === undefined && mimeType !== '') headers['content-type'] = mimeType;
  if (text === '') {
    const rebuilt = bodyFromParams(mimeType, request?.postData?.params);
    if (rebuilt && 'tooMany' in rebuilt)
      return {
        query,
        headers,
        body: '',
        unreadable: `postData holds ${rebuilt.tooMany} params (at most ${maxHarParams} are read)`,
      };
    if (rebuilt) {
      text = rebuilt.body;
      if (rebuilt.contentType) headers['content-type'] = rebuilt.contentType;
    }
  }
  if (text === TOO_LARGE || Buffer.byteLength(text) > maxBodyBytes)
    return { query, headers, body: '', bodyTooLarge: maxBodyBytes };
  return { query, headers, body: text };
}
