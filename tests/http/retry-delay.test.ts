// How long check and --replay wait before retrying a 429 (src/http/http-capture.ts): what Retry-After asks, never
// less than the back-off without one, and never more than the cap.
import { describe, expect, it } from 'vitest';
import { retryDelay } from '../../src/http/http-capture.js';

describe('retryDelay', () => {
  it.each([
    ['no Retry-After, first retry', null, 0, 1000],
    ['no Retry-After, third retry', null, 2, 4000],
    ['Retry-After: 0 (a limiter that rounds down), first retry', '0', 0, 1000],
    ['Retry-After: 0, second retry', '0', 1, 2000],
    ['Retry-After: 5', '5', 0, 5000],
    ['Retry-After past the cap', '600', 0, 30_000],
    ['a date already past', 'Thu, 01 Jan 1970 00:00:00 GMT', 1, 2000],
    ['not a delay nor a date', 'soon', 0, 1000],
  ])('waits as %s says', (_name, retryAfter, attempt, ms) => {
    expect(retryDelay(retryAfter, attempt, 30_000)).toBe(ms);
  });
});
