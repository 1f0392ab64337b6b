// RateLimits (src/fuzz/rate-limits.ts): a wait the run ends early leaves the operation given up, so the rate limit
// in hand is never judged as the server's answer (Directus: three 429s were reported as failures of a run stopped
// at --max-time while it waited).
import { describe, expect, it } from 'vitest';
import { RateLimits } from '../../src/fuzz/rate-limits.js';

const limits = () => new RateLimits({ maxWaitMs: 120_000, budgetMs: 600_000, deadline: performance.now() + 3_600_000 });

describe('RateLimits', () => {
  it('gives an operation up when the run ends during its wait', async () => {
    const rateLimits = limits();
    let ended = false;
    setTimeout(() => {
      ended = true;
    }, 50);
    expect(await rateLimits.park('api/getThing', 60_000, () => ended)).toBe(false);
    expect(rateLimits.givenUp('api/getThing')).toBe(true);
    expect(rateLimits.reason('api/getThing')).toBe(
      'rate-limited 1 times (429 or 503 with Retry-After): the run ended while it waited out 60 s; no request got through',
    );
  });

  it('goes on with an operation whose wait ran out in a running run', async () => {
    const rateLimits = limits();
    expect(await rateLimits.park('api/getThing', 20, () => false)).toBe(true);
    expect(rateLimits.givenUp('api/getThing')).toBe(false);
  });

  it('gives an operation up at once when one wait is over --max-retry-after', async () => {
    const rateLimits = limits();
    expect(await rateLimits.park('api/getThing', 121_000, () => false)).toBe(false);
    expect(rateLimits.reason('api/getThing')).toMatch(/asked to wait 121 s, over --max-retry-after 120 s/);
  });
});
