// The values fc.check draws for an arbitrary and a seed, in its order, handed out one at a time with their index in
// the stream (what fast-check's `path` replays, to shrink the case at that index). Drawn through fast-check itself,
// so the stream is fast-check's own, not a copy of its algorithm.
import fc from 'fast-check';

export interface ValueStream<T> {
  /** Index of the next value. */
  index: number;
  next: () => { index: number; value: T };
}

/**
 * Values are drawn in batches, each an fc.check run that starts at the stream's index. Starting there walks the
 * seed's random stream from its beginning (a jump per value skipped), so the batches double without bound: the
 * walks then cost O(n) over n values, where batches of a fixed size cost O(n²) (a run of 40,000 cases spent a
 * tenth of its time there). `first` is the first batch; `limit` caps the values ever drawn, so no batch is larger
 * than what can still be consumed.
 */
export function valueStream<T>(
  arbitrary: fc.Arbitrary<T>,
  seed: number,
  first: number,
  limit = Infinity,
): ValueStream<T> {
  const drawn: T[] = [];
  let taken = 0;
  let batch = Math.max(1, first);
  const stream: ValueStream<T> = {
    index: 0,
    next: () => {
      if (taken === drawn.length) {
        drawn.length = 0;
        taken = 0;
        const numRuns = Math.max(1, Math.min(batch, limit - stream.index));
        fc.check(
          fc.property(arbitrary, (value) => void drawn.push(value)),
          { seed, path: String(stream.index), numRuns },
        );
        batch *= 2;
      }
      return { index: stream.index++, value: drawn[taken++]! };
    },
  };
  return stream;
}
