// The pool behind --workers: items run several at a time, are judged in their order whatever order they finish in,
// an item that must run alone runs alone, and nothing is left in flight when the pool returns or throws.
import { describe, expect, it } from 'vitest';
import { runOrdered } from '../../src/fuzz/ordered-pool.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs items 0..count-1, item i taking delays[i] ms; returns what was committed and the most in flight at once. */
async function run(
  count: number,
  delays: number[],
  options: { workers: number; alone?: (item: number) => boolean; stopAt?: number; failAt?: number },
) {
  let next = 0;
  let inFlight = 0;
  let most = 0;
  const committed: number[] = [];
  const events: string[] = [];
  let error: unknown;
  try {
    await runOrdered<number, number>({
      workers: options.workers,
      next: () => (next < count ? next++ : undefined),
      ...(options.alone ? { alone: options.alone } : {}),
      stopped: () => false,
      work: async (item) => {
        inFlight++;
        most = Math.max(most, inFlight);
        events.push(`start ${item}`);
        await sleep(delays[item % delays.length]!);
        inFlight--;
        events.push(`end ${item}`);
        if (item === options.failAt) throw new Error(`item ${item} failed`);
        return item * 10;
      },
      commit: (result, item) => {
        committed.push(item);
        expect(result).toBe(item * 10);
        return item !== options.stopAt;
      },
    });
  } catch (caught) {
    error = caught;
  }
  return { committed, most, events, inFlightAtEnd: inFlight, error };
}

describe('runOrdered', () => {
  it('commits every item in its order although later items finish first', async () => {
    const { committed, most } = await run(12, [30, 1, 15, 2], { workers: 4 });
    expect(committed).toEqual([...Array(12).keys()]);
    expect(most).toBe(4);
  });

  it.each([
    ['one worker', 1],
    ['three workers', 3],
  ])('never has more items in flight than the workers (%s)', async (_name, workers) => {
    const { most } = await run(10, [3, 1], { workers });
    expect(most).toBeLessThanOrEqual(workers);
  });

  it('stops drawing items once a commit says stop, and waits for those in flight', async () => {
    const { committed, inFlightAtEnd } = await run(20, [5, 1], { workers: 4, stopAt: 2 });
    expect(committed).toEqual([0, 1, 2]);
    expect(inFlightAtEnd).toBe(0);
  });

  it('throws the first failure in the items order, after everything in flight has ended', async () => {
    const { committed, error, inFlightAtEnd } = await run(10, [20, 1, 1, 1], { workers: 4, failAt: 3 });
    expect((error as Error).message).toBe('item 3 failed');
    expect(committed).toEqual([0, 1, 2]);
    expect(inFlightAtEnd).toBe(0);
  });

  it('runs an item that must run alone after every earlier item is committed and before any later one starts', async () => {
    const { events, committed } = await run(8, [4, 1, 6], { workers: 4, alone: (item) => item === 4 });
    expect(committed).toEqual([...Array(8).keys()]);
    const at = (event: string) => events.indexOf(event);
    for (const earlier of [0, 1, 2, 3]) expect(at(`end ${earlier}`)).toBeLessThan(at('start 4'));
    for (const later of [5, 6, 7]) expect(at(`start ${later}`)).toBeGreaterThan(at('end 4'));
  });
});
