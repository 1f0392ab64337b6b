// One recorded HTTP exchange: what a check looks at.

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
}

/** A header by name, in any case (`name` is given in lower case, the usual form, for the fast path). */
export function headerValue(headers: Exchange['headers'], name: string): string | undefined {
  const direct = headers[name];
  if (direct !== undefined) return direct;
  const wanted = name.toLowerCase();
  for (const key in headers) if (key.toLowerCase() === wanted) return headers[key];
  return undefined;
}

/** `application/json; charset=utf-8` → `application/json`. */
export function mediaTypeOf(contentType: string | undefined): string | undefined {
  if (contentType === undefined) return undefined;
  const end = contentType.indexOf(';');
  const type = (end < 0 ? contentType : contentType.slice(0, end)).trim().toLowerCase();
  return type === '' ? undefined : type;
}
