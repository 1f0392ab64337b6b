// `validate --har`'s pipeline: the main thread streams the capture and splits it into entries, the judges (this
// thread, or worker threads) check them, and the verdicts come out in capture order. A bounded window of entries
// is in flight: when it is full the file is not read further, so memory does not grow with the capture.
import { statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { Coverage } from '../core/coverage.js';
import { readHarEntries, type HarEntryText } from './har.js';
import { judgeHere, judgeInWorkers, type HarSpec, type Judges } from './har-jobs.js';
import type { HarJudgeSettings, HarVerdict } from './judge-har-entry.js';

export interface HarCheckOptions extends HarJudgeSettings {
  file: string;
  shown: string;
  specs: HarSpec[];
  /** 1: judged on this thread; more: that many worker threads; auto: see autoJobs. */
  jobs: number | 'auto';
}

/**
 * Below this size a capture is checked on the main thread by default: starting a worker (loading the code,
 * compiling the specs) costs about as much as checking some 15k exchanges.
 */
export const workersFromBytes = 16 * 2 ** 20;

/**
 * How many threads `auto` means for this file: a FIFO or a small file gets one. Otherwise a worker per core but
 * one, which is left to the main thread (it splits the file and prints): on two cores, where that leaves one
 * worker, workers measured slower than the main thread alone (they cost 1.7× its CPU time), so it gets none.
 */
export function autoJobs(file: string): number {
  try {
    const stats = statSync(file);
    const workers = availableParallelism() - 1;
    return stats.isFile() && stats.size >= workersFromBytes && workers >= 2 ? workers : 1;
  } catch {
    return 1;
  }
}

export interface HarCheck {
  /** Settles once the specs are compiled: rejects with why they could not be. */
  ready: Promise<void>;
  /** The verdicts in capture order; a fault reading the file is thrown after the verdicts of the entries before it. */
  verdicts: AsyncGenerator<HarVerdict, void>;
  /** What the verdicts taken so far exercised (once ready). */
  coverage(): Coverage;
  /** Stops reading and ends the workers; verdicts not yet taken are dropped. */
  close(): void;
}

/** Entries sent to a judge at once: enough to pay for a message, few enough to spread a small capture. */
const batchEntries = 64;
const batchChars = 1 << 20;

export function checkHar(options: HarCheckOptions): HarCheck {
  const jobs = options.jobs === 'auto' ? autoJobs(options.file) : options.jobs;
  const { side, strict, format, maxBodyBytes } = options;
  const settings: HarJudgeSettings = { side, strict, format, maxBodyBytes };
  // In flight: submitted and not yet taken. Enough batches to keep every worker busy, and a bound in characters
  // too, as one entry may be as large as the body cap allows (one entry is let through even so).
  const maxEntries = jobs === 1 ? batchEntries : batchEntries * 4 * jobs;
  const maxChars = 4 * batchChars * jobs;
  let inFlightEntries = 0;
  let inFlightChars = 0;
  const sizes = new Map<number, number>();
  const arrived = new Map<number, HarVerdict>();
  let submitted = 0;
  let next = 1;
  let readDone = false;
  let readError: unknown;
  let failure: Error | undefined;
  /** The entry whose judging threw: the verdicts before it are still given, then the fault. */
  let failedAt = Infinity;
  let closed = false;
  // One waiter each, never a growing list: the reader waits for room, the consumer for a verdict.
  let wakeReader: (() => void) | undefined;
  let wakeConsumer: (() => void) | undefined;
  const wake = () => {
    wakeReader?.();
    wakeConsumer?.();
  };

  const events = {
    verdicts(verdicts: HarVerdict[]) {
      for (const verdict of verdicts) arrived.set(verdict.index, verdict);
      wakeConsumer?.();
    },
    failed(error: Error, index?: number) {
      if (failure !== undefined) return;
      failure = error;
      failedAt = index ?? 0;
      wake();
    },
  };
  const judges: Judges =
    jobs === 1 ? judgeHere(options.specs, settings, events) : judgeInWorkers(jobs, options.specs, settings, events);
  let coverage: Coverage | undefined;
  const ready = judges.ready.then((skeleton) => void (coverage = Coverage.counting(skeleton)));
  ready.catch(() => undefined);
  const entries = readHarEntries(options.file, options.shown, { maxBodyBytes });

  const submit = (batch: HarEntryText[], chars: number) => {
    for (const { index, found } of batch) sizes.set(index, 'text' in found ? found.text.length : 0);
    inFlightEntries += batch.length;
    inFlightChars += chars;
    submitted += batch.length;
    judges.submit(batch);
  };
  const full = () => inFlightEntries > 0 && (inFlightEntries >= maxEntries || inFlightChars >= maxChars);
  const room = async () => {
    while (!closed && failure === undefined && full()) {
      await new Promise<void>((resolve) => (wakeReader = resolve));
      wakeReader = undefined;
    }
  };

  const pump = async () => {
    try {
      // Judged here, entries wait for the specs; workers queue them while they compile, so reading goes ahead.
      if (jobs === 1) await ready;
      for await (const found of entries)
        for (const { batch, chars } of batchesOf(found)) {
          await room();
          if (closed || failure !== undefined) return;
          submit(batch, chars);
        }
    } catch (error) {
      readError = error;
    } finally {
      readDone = true;
      wakeConsumer?.();
    }
  };
  void pump();

  async function* verdicts(): AsyncGenerator<HarVerdict, void> {
    await ready;
    for (;;) {
      if (failure !== undefined && next >= failedAt) throw failure;
      const verdict = arrived.get(next);
      if (verdict !== undefined) {
        arrived.delete(next);
        inFlightEntries--;
        inFlightChars -= sizes.get(next) ?? 0;
        sizes.delete(next);
        next++;
        for (const observation of verdict.coverage ?? []) coverage!.record(observation);
        wakeReader?.();
        yield verdict;
        continue;
      }
      if (failure === undefined && readDone && next > submitted) {
        if (readError !== undefined) throw readError;
        return;
      }
      await new Promise<void>((resolve) => (wakeConsumer = resolve));
      wakeConsumer = undefined;
    }
  }

  return {
    ready,
    verdicts: verdicts(),
    coverage: () => coverage!,
    close() {
      closed = true;
      judges.close();
      wake();
      // Not awaited: a read still waiting (a FIFO) ends with the process.
      entries.return(undefined).catch(() => undefined);
    },
  };
}

/** Entries read at once, cut into batches of at most batchEntries entries or about batchChars characters. */
function* batchesOf(found: HarEntryText[]): Generator<{ batch: HarEntryText[]; chars: number }> {
  for (let start = 0; start < found.length; ) {
    let end = start;
    let chars = 0;
    while (end < found.length && end - start < batchEntries && chars < batchChars) {
      const entry = found[end++]!.found;
      chars += 'text' in entry ? entry.text.length : 0;
    }
    yield { batch: found.slice(start, end), chars };
    start = end;
  }
}
