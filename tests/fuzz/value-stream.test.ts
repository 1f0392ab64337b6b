// The fuzzer's stream of fast-check values: the same values, in the same order, as one fc.check run draws for the
// seed, and a cost linear in the values drawn (each batch replays the seed's random stream up to where it starts).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { valueStream } from '../../src/fuzz/value-stream.js';

const arbitrary = fc.record({ a: fc.string(), b: fc.integer() });

function drawAll(count: number, seed: number, first = 8): unknown[] {
  const stream = valueStream(arbitrary, seed, first);
  return Array.from({ length: count }, (_unused, index) => {
    const { index: at, value } = stream.next();
    expect(at).toBe(index);
    return value;
  });
}

/** A cheap arbitrary, so that the walks, not the values, are what is timed. */
function millisToDraw(count: number): number {
  const stream = valueStream(fc.nat(), 7, 8);
  const started = performance.now();
  for (let index = 0; index < count; index++) stream.next();
  return performance.now() - started;
}

describe('valueStream', () => {
  it.each([1, 8, 100])('hands out what one fc.check run draws for the seed, in order (first batch %i)', (first) => {
    const expected: unknown[] = [];
    fc.check(
      fc.property(arbitrary, (value) => void expected.push(value)),
      { seed: 42, numRuns: 700 },
    );
    expect(drawAll(700, 42, first)).toEqual(expected);
  });

  it('never draws past its limit', () => {
    let generated = 0;
    const counted = fc.integer().map((value) => (generated++, value));
    const stream = valueStream(counted, 1, 8, 20);
    for (let index = 0; index < 20; index++) stream.next();
    expect(generated).toBe(20);
  });

  it('costs time linear in the values drawn: 16 times as many cost far less than 16² times as long', () => {
    millisToDraw(2000); // warm the JIT
    const small = Math.min(...[0, 1, 2].map(() => millisToDraw(2500)));
    const large = millisToDraw(40_000);
    // Linear is 16× (measured 13–16×); batches of a fixed size, the quadratic walk this replaced, measured 160–180×.
    expect(large / small).toBeLessThan(50);
  });
});
