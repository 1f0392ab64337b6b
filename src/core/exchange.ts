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
}

export function headerValue(headers: Exchange['headers'], name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) if (key.toLowerCase() === wanted) return value;
  return undefined;
}

/** `application/json; charset=utf-8` → `application/json`. */
export function mediaTypeOf(contentType: string | undefined): string | undefined {
  const type = contentType?.split(';')[0]?.trim().toLowerCase();
  return type ? type : undefined;
}
