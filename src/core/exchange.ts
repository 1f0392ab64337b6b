// One recorded HTTP exchange: what a check looks at.
import { ownValue } from './own-key.js';

export interface Exchange {
  method: string;
  /** The concrete request path, without query string (`/repos/o/r/hooks/42`). */
  path: string;
  status: number;
  /** Response headers; names in any case. */
  headers: Record<string, string | undefined>;
  /** The raw response body text; '' when there is none. */
  body: string;
  /** The body already parsed, when the caller has it: the checks then skip JSON.parse. */
  json?: unknown;
  /** Set when the body was over this many bytes and was not read (`body` is then ''). */
  bodyTooLarge?: number;
  /** Set when the body's bytes were not valid UTF-8 (`body` holds them decoded with replacement characters). */
  bodyNotUtf8?: boolean;
  /** The items of a sequential body (OpenAPI 3.2) were judged as they came (the proxy): not judged again. */
  itemsJudged?: boolean;
}

/** Decodes body bytes as UTF-8, saying whether they were valid (RFC 8259 section 8.1: JSON text is UTF-8). */
export function decodeBody(bytes: Uint8Array): { text: string; notUtf8: boolean } {
  try {
    return { text: strictUtf8.decode(bytes), notUtf8: false };
  } catch {
    return { text: new TextDecoder('utf-8').decode(bytes), notUtf8: true };
  }
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** A header by name, in any case (`name` is given in lower case, the usual form, for the fast path). */
export function headerValue(headers: Exchange['headers'], name: string): string | undefined {
  const direct = ownValue(headers, name);
  if (direct !== undefined) return direct;
  const wanted = name.toLowerCase();
  for (const key in headers) if (Object.hasOwn(headers, key) && key.toLowerCase() === wanted) return headers[key];
  return undefined;
}

/** `application/json; charset=utf-8` → `application/json`. */
export function mediaTypeOf(contentType: string | undefined): string | undefined {
  if (contentType === undefined) return undefined;
  const end = contentType.indexOf(';');
  const type = (end < 0 ? contentType : contentType.slice(0, end)).trim().toLowerCase();
  return type === '' ? undefined : type;
}
