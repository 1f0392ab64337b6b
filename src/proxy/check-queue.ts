// Checking after forwarding: an exchange is queued once its answer has gone to the client, and judged between
// turns of the event loop, so a client never waits on the checks. The queue is bounded in exchanges and in bytes
// kept; when full, the oldest exchanges are judged at once (forwarding then waits on checking): nothing is dropped,
// and exchanges are judged in the order they ended.

export interface CheckQueueLimits {
  /** Exchanges waiting at most. */
  exchanges: number;
  /** Body bytes kept by waiting exchanges at most. */
  bytes: number;
}

export const defaultCheckQueueLimits: CheckQueueLimits = { exchanges: 1000, bytes: 64 * 2 ** 20 };

/** Longest run of checks between two turns of the event loop, in milliseconds. */
const sliceMs = 5;

export class CheckQueue<T> {
  private items: (T | undefined)[] = [];
  private head = 0;
  private bytes = 0;
  private scheduled = false;
  /** Exchanges judged. */
  judged = 0;
  /** Exchanges judged at once because the queue was full. */
  judgedAtOnce = 0;

  constructor(
    private readonly judge: (item: T) => void,
    private readonly sizeOf: (item: T) => number,
    private readonly limits: CheckQueueLimits = defaultCheckQueueLimits,
  ) {}

  get waiting(): number {
    return this.items.length - this.head;
  }

  push(item: T): void {
    this.items.push(item);
    this.bytes += this.sizeOf(item);
    while (this.waiting > this.limits.exchanges || (this.bytes > this.limits.bytes && this.waiting > 1)) {
      this.judgedAtOnce++;
      this.judgeOldest();
    }
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.turn());
    }
  }

  /** Judges every exchange waiting, now. */
  drain(): void {
    while (this.waiting > 0) this.judgeOldest();
  }

  private turn(): void {
    this.scheduled = false;
    const until = performance.now() + sliceMs;
    while (this.waiting > 0 && performance.now() < until) this.judgeOldest();
    if (this.waiting > 0) {
      this.scheduled = true;
      setImmediate(() => this.turn());
    }
  }

  private judgeOldest(): void {
    const item = this.items[this.head] as T;
    this.items[this.head++] = undefined;
    this.bytes -= this.sizeOf(item);
    if (this.head === this.items.length) {
      this.items = [];
      this.head = 0;
    } else if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    this.judged++;
    this.judge(item);
  }
}
