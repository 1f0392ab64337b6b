// The deliveries a receiver keeps, oldest first, for callers to wait on. Bounded by count and by the memory the records
// hold (retained-size.ts: the parsed payload, headers and findings, not the bytes that arrived), the oldest going
// first; the newest is always kept, without its payload when that alone is over the bound.
import type http from 'node:http';
import type { DeliveryResult } from '../core/delivery/index.js';
import { retainedSize } from './retained-size.js';

export interface StoredDelivery {
  /** 1, 2, 3… in order of arrival (also after older ones were dropped). */
  seq: number;
  receivedAt: string;
  method: string;
  /** The request target: path and query (the runner tells its hooks apart by the query). */
  url: string;
  headers: http.IncomingHttpHeaders;
  /** The body's byte length (the body itself is not kept once checked; `result.payload` holds it parsed). */
  size: number;
  /** The status this receiver answered. */
  status: number;
  result: DeliveryResult;
  /** The memory this record holds (headers, findings, the parsed payload), estimated from above. */
  keptBytes: number;
}

export interface StoreBounds {
  maxStored: number;
  maxStoredBytes: number;
  /** Keep each payload parsed in `result.payload`. */
  keepPayloads: boolean;
}

export class DeliveryStore {
  readonly deliveries: StoredDelivery[] = [];
  /** How many older deliveries were let go to stay within the bounds. */
  dropped = 0;
  /** The sum of the kept deliveries' `keptBytes`. */
  storedBytes = 0;
  private seq = 0;
  private readonly waiters = new Set<() => void>();

  constructor(
    private readonly bounds: StoreBounds,
    private readonly onDelivery?: (delivery: StoredDelivery) => void,
  ) {}

  add(received: Omit<StoredDelivery, 'seq' | 'keptBytes'>): void {
    const { maxStored, maxStoredBytes } = this.bounds;
    if (!this.bounds.keepPayloads) received.result.payload = undefined;
    let keptBytes = retainedSize(received, maxStoredBytes);
    if (keptBytes > maxStoredBytes && received.result.payload !== undefined) {
      received.result.payload = undefined;
      keptBytes = retainedSize(received, maxStoredBytes);
    }
    const delivery: StoredDelivery = { seq: ++this.seq, ...received, keptBytes };
    this.deliveries.push(delivery);
    this.storedBytes += keptBytes;
    while (this.deliveries.length > maxStored || (this.storedBytes > maxStoredBytes && this.deliveries.length > 1)) {
      this.storedBytes -= this.deliveries.shift()!.keptBytes;
      this.dropped++;
    }
    this.onDelivery?.(delivery);
    this.wakeAll();
  }

  /** The first delivery (kept or still to come) matching `predicate`, or undefined after `ms`. */
  waitFor(predicate: (delivery: StoredDelivery) => boolean, ms: number): Promise<StoredDelivery | undefined> {
    const found = this.deliveries.find(predicate);
    if (found) return Promise.resolve(found);
    return new Promise((resolve) => {
      const wake = () => {
        const match = this.deliveries.find(predicate);
        if (match) finish(match);
      };
      const finish = (value: StoredDelivery | undefined) => {
        clearTimeout(timer);
        this.waiters.delete(wake);
        resolve(value);
      };
      const timer = setTimeout(() => finish(undefined), ms);
      this.waiters.add(wake);
    });
  }

  wakeAll(): void {
    for (const wake of [...this.waiters]) wake();
  }
}
