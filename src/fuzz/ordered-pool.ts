// --workers: up to N cases in flight at once, judged strictly in the cases' order. What a run reports then depends
// on the seed and on the target's answers, never on which answer came back first.

export interface OrderedPool<T, R> {
  /** The next item, or undefined when there are no more. Called one at a time, in order. */
  next: () => T | undefined;
  /** The I/O of one item; many run at once. */
  work: (item: T) => Promise<R>;
  /** Called once per item, in the items' order; false stops the pool (the items after it are not judged). */
  commit: (result: R, item: T) => Promise<boolean> | boolean;
  /** No new item starts once this holds (--max-time, Ctrl-C); those in flight are still judged. */
  stopped: () => boolean;
  /**
   * An item that must run alone: it starts once every item before it is judged, and no item after it starts before
   * it is judged. (A case that creates a hook: the target numbers hooks in the order the creates arrive.)
   */
  alone?: (item: T) => boolean;
  workers: number;
}

/**
 * Runs the pool to its end. A `work` that throws stops it when its turn to be judged comes (so the error is the first
 * in the items' order), and the pool always waits for everything in flight before returning or throwing: whatever
 * an item created on the target is known by then, and can be deleted.
 */
export async function runOrdered<T, R>(pool: OrderedPool<T, R>): Promise<void> {
  type Outcome = { ok: true; value: R } | { ok: false; error: unknown };
  const queue: { item: T; outcome: Promise<Outcome> }[] = [];
  const inFlight = new Set<Promise<Outcome>>();
  // Finished answers wait their turn here; a slow case holds back at most this many behind it.
  const ahead = Math.max(1, pool.workers) * 4;
  let halted = false;
  let exhausted = false;
  // An item that must run alone, drawn but waiting for those before it; and whether one is running.
  let held: T | undefined;
  let blocking = false;
  const fill = () => {
    while (
      !halted &&
      !exhausted &&
      !blocking &&
      inFlight.size < pool.workers &&
      queue.length < ahead &&
      !pool.stopped()
    ) {
      const item = held ?? pool.next();
      held = undefined;
      if (item === undefined) {
        exhausted = true;
        break;
      }
      const alone = pool.alone?.(item) ?? false;
      if (alone && queue.length > 0) {
        held = item;
        break;
      }
      blocking = alone;
      const outcome: Promise<Outcome> = pool.work(item).then(
        (value) => ({ ok: true as const, value }),
        (error: unknown) => ({ ok: false as const, error }),
      );
      inFlight.add(outcome);
      void outcome.then(() => {
        inFlight.delete(outcome);
        fill();
      });
      queue.push({ item, outcome });
    }
  };
  try {
    fill();
    for (let head = queue.shift(); head !== undefined; head = queue.shift()) {
      const outcome = await head.outcome;
      if (!outcome.ok) throw outcome.error;
      if (!(await pool.commit(outcome.value, head.item))) break;
      blocking = false;
      fill();
    }
  } finally {
    halted = true;
    await Promise.all(inFlight);
  }
}
