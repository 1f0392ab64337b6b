// Retry-After (RFC 9110 §10.2.3) and the back-off used without one: shared by check's and replay's retries
// (http-capture.ts) and fuzz's per-operation waits (src/fuzz/rate-limits.ts), so both read a header alike.

/** Waits asked without Retry-After: 1 s, 2 s, 4 s… */
export const backoffMs = (attempt: number) => 1000 * 2 ** Math.min(attempt, 10);

/** Milliseconds a Retry-After asks for, or undefined when it is neither a delay nor a date. */
export function retryAfterMs(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
