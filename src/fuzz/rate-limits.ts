// A target's rate limits during fuzz: a 429 (RFC 6585 §4), or a 503 that says when to come back (RFC 9110 §15.6.4),
// is no answer to judge. The operation that got it is parked until its Retry-After (RFC 9110 §10.2.3: seconds or an
// HTTP-date) is due, and the run goes on with the next operation meanwhile (OperationTurns); the request is then
// sent again. Bounded: one Retry-After longer than --max-retry-after, a total wait on one operation past
// --rate-limit-budget, or a wait that would end after the run's own --max-time, gives that operation up. The run
// reports each rate-limited operation, how often, the longest wait asked, and whether it ever got through.
import { backoffMs, retryAfterMs } from '../http/retry-after.js';

/** What the report says of one rate-limited operation. */
export interface RateLimitedOperation {
  api: string;
  operation: string;
  /** Answers that asked the run to wait (429, or 503 with Retry-After). */
  times: number;
  /** The longest wait one of them asked for, in milliseconds. */
  longestWaitMs: number;
  /** Whether a request to it was answered otherwise at least once. */
  gotThrough: boolean;
  /** Why the run stopped waiting on it, when it did. */
  gaveUp?: string;
}

export interface RateLimitSettings {
  /** The longest single wait honoured (--max-retry-after). */
  maxWaitMs: number;
  /** The total wait on one operation (--rate-limit-budget). */
  budgetMs: number;
  /** The run's own end, in performance.now() milliseconds: no wait goes past it. */
  deadline: number;
}

function header(headers: Record<string, string | undefined>, name: string): string | undefined {
  for (const key in headers) if (key.toLowerCase() === name) return headers[key];
  return undefined;
}

interface Tally {
  times: number;
  longestWaitMs: number;
  waitedMs: number;
  gotThrough: boolean;
  gaveUp?: string;
}

export class RateLimits {
  private readonly byOperation = new Map<string, Tally>();
  /** Called when an operation parks: its turn passes to the next operation (OperationTurns). */
  onPark: (key: string) => void = () => {};

  constructor(private readonly settings: RateLimitSettings) {}

  /**
   * The wait an answer asks for, when it is a rate limit: every 429, and a 503 with a Retry-After (a 503 without one
   * is an answer like any other). `attempt` counts the rate limits this one request met before.
   */
  waitAsked(status: number, headers: Record<string, string | undefined>, attempt: number): number | undefined {
    if (status !== 429 && status !== 503) return undefined;
    const asked = retryAfterMs(header(headers, 'retry-after'));
    if (status === 503 && asked === undefined) return undefined;
    return asked ?? backoffMs(attempt);
  }

  /** An answer that was not a rate limit. */
  gotThrough(key: string): void {
    const tally = this.byOperation.get(key);
    if (tally) tally.gotThrough = true;
  }

  /** Whether the run stopped waiting on the operation: nothing more is sent to it. */
  givenUp(key: string): boolean {
    return this.byOperation.get(key)?.gaveUp !== undefined;
  }

  /**
   * Records a rate limit on `key` and waits it out, letting the next operation start meanwhile. False (at once) when
   * the wait is over a bound: the operation is given up. `stop` ends a wait early (Ctrl-C, a fatal fault).
   */
  async park(key: string, waitMs: number, stop: () => boolean): Promise<boolean> {
    const tally = this.byOperation.get(key) ?? { times: 0, longestWaitMs: 0, waitedMs: 0, gotThrough: false };
    this.byOperation.set(key, tally);
    tally.times++;
    tally.longestWaitMs = Math.max(tally.longestWaitMs, waitMs);
    if (tally.gaveUp !== undefined) return false;
    const seconds = (ms: number) => `${Math.ceil(ms / 1000)} s`;
    const { maxWaitMs, budgetMs, deadline } = this.settings;
    tally.gaveUp =
      waitMs > maxWaitMs
        ? `asked to wait ${seconds(waitMs)}, over --max-retry-after ${seconds(maxWaitMs)}`
        : tally.waitedMs + waitMs > budgetMs
          ? `waited ${seconds(tally.waitedMs)} on it, and --rate-limit-budget is ${seconds(budgetMs)}`
          : performance.now() + waitMs > deadline
            ? `asked to wait ${seconds(waitMs)}, past the run's --max-time`
            : undefined;
    if (tally.gaveUp !== undefined) return false;
    tally.waitedMs += waitMs;
    this.onPark(key);
    const until = performance.now() + waitMs;
    while (performance.now() < until && !stop())
      await new Promise((resolve) => setTimeout(resolve, Math.min(100, until - performance.now())));
    if (!stop()) return true;
    // The run ended (--max-time, Ctrl-C) during the wait: the rate limit in hand is still no answer to judge.
    tally.gaveUp = `the run ended while it waited out ${seconds(waitMs)}`;
    return false;
  }

  /** Why an operation's checks were not exercised, when the run gave it up. */
  reason(key: string): string | undefined {
    const tally = this.byOperation.get(key);
    if (tally?.gaveUp === undefined) return undefined;
    return `rate-limited ${tally.times} times (429 or 503 with Retry-After): ${tally.gaveUp}${tally.gotThrough ? '' : '; no request got through'}`;
  }

  report(): RateLimitedOperation[] {
    return [...this.byOperation].map(([key, tally]) => {
      const slash = key.indexOf('/');
      return {
        api: key.slice(0, slash),
        operation: key.slice(slash + 1),
        times: tally.times,
        longestWaitMs: tally.longestWaitMs,
        gotThrough: tally.gotThrough,
        ...(tally.gaveUp !== undefined ? { gaveUp: tally.gaveUp } : {}),
      };
    });
  }
}

/**
 * Operations one after another, as before, except that one parked by a rate limit hands its turn to the next: it
 * resumes on its own when its wait is over, beside whichever operation has the turn then.
 */
export class OperationTurns {
  private readonly running = new Set<Promise<void>>();
  private readonly handOver = new Map<string, () => void>();
  private failure: { error: unknown } | undefined;

  constructor(limits: RateLimits) {
    limits.onPark = (key) => this.handOver.get(key)?.();
  }

  /** Starts an operation's work; resolves when it ends or parks. Throws what it threw, if it had the turn then. */
  async take(key: string, work: () => Promise<void>): Promise<void> {
    if (this.failure) throw this.failure.error;
    let parked = false;
    const turn = new Promise<void>((resolve) =>
      this.handOver.set(key, () => {
        parked = true;
        resolve();
      }),
    );
    const done = work().finally(() => this.handOver.delete(key));
    const settled = done.then(
      () => undefined,
      (error: unknown) => {
        if (parked) this.failure ??= { error };
      },
    );
    this.running.add(settled);
    void settled.then(() => this.running.delete(settled));
    await Promise.race([done, turn]);
  }

  /** Waits for every parked operation to end; throws the first fault one met after it gave up its turn. */
  async finish(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running]);
    if (this.failure) throw this.failure.error;
  }
}

/** The report's lines on rate limits: none when the target asked the run to wait nowhere. */
export function rateLimitLines(operations: readonly RateLimitedOperation[] | undefined): string[] {
  if (!operations || operations.length === 0) return [];
  return [
    'Rate-limited (429, or 503 with Retry-After; such answers are not judged):',
    ...operations.map(
      (entry) =>
        `  ${entry.api} ${entry.operation}: ${entry.times} times, longest wait asked ${Math.ceil(entry.longestWaitMs / 1000)} s; ${
          entry.gaveUp === undefined
            ? 'every request got through in the end'
            : `${entry.gotThrough ? 'some requests got through; ' : 'no request got through: '}the run stopped waiting (${entry.gaveUp})`
        }`,
    ),
  ];
}
