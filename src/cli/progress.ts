// The progress line of a long run on a terminal: what is done, the rate, the findings so far, on standard error,
// redrawn in place (\r) and cleared at the end. Nothing at all when standard error is not a terminal (a CI log,
// a pipe) or with --quiet. The stream and the clock are injected, so it is tested without a real terminal.
import type { Io } from './command.js';

/** The part of a tty.WriteStream the line needs. */
export interface ProgressStream {
  isTTY?: boolean;
  columns?: number;
  write(text: string): unknown;
}

export interface ProgressClock {
  now(): number;
  /** Calls `tick` every `ms` until the returned function is called; must not keep the process alive. */
  every(ms: number, tick: () => void): () => void;
}

export const realClock: ProgressClock = {
  now: () => performance.now(),
  every(ms, tick) {
    const timer = setInterval(tick, ms);
    timer.unref();
    return () => clearInterval(timer);
  },
};

export interface ProgressOptions {
  stream: ProgressStream | undefined;
  clock?: ProgressClock;
  quiet?: boolean;
  /** `validate`, `fuzz`: the line starts with it. */
  label: string;
  /** What is counted: `exchanges`, `requests`. */
  unit: string;
  /** What the findings are: `failing`, `failures`. */
  findings: string;
  snapshot: () => { done: number; findings: number };
  /** A run shorter than this shows no line at all. */
  delayMs?: number;
  intervalMs?: number;
}

export interface Progress {
  /** Clears the line (if shown) so that a line of output can be written; the next tick draws it again. */
  clear(): void;
  /** Clears the line for good. */
  stop(): void;
  /** `io` whose out and err clear the line before they write, so the line never mixes into output. */
  around(io: Io): Io;
}

const clearLine = '\r\x1b[K';

export function startProgress(options: ProgressOptions): Progress {
  const { stream } = options;
  if (options.quiet || !stream?.isTTY) return { clear() {}, stop() {}, around: (io) => io };
  const clock = options.clock ?? realClock;
  const started = clock.now();
  const delayMs = options.delayMs ?? 2000;
  let shown = false;
  let stopped = false;
  const draw = () => {
    const elapsedMs = clock.now() - started;
    if (stopped || elapsedMs < delayMs) return;
    const { done, findings } = options.snapshot();
    const rate = done / (elapsedMs / 1000);
    const line = `${options.label}: ${count(done)} ${options.unit} · ${count(Math.round(rate))}/s · ${count(findings)} ${options.findings} · ${seconds(elapsedMs)}`;
    // One column short of the width: a line that fills it would wrap on some terminals and \r would no longer
    // reach its start. A pseudo-terminal without a size says 0 columns.
    const width = Math.max(20, (stream.columns || 80) - 1);
    stream.write(`${clearLine}${[...line].slice(0, width).join('')}`);
    shown = true;
  };
  const cancel = clock.every(options.intervalMs ?? 250, draw);
  const clear = () => {
    if (!shown) return;
    stream.write(clearLine);
    shown = false;
  };
  return {
    clear,
    stop() {
      stopped = true;
      cancel();
      clear();
    },
    around: (io) => ({
      ...io,
      out: (text) => {
        clear();
        io.out(text);
      },
      err: (text) => {
        clear();
        io.err(text);
      },
    }),
  };
}

function count(value: number): string {
  return value.toLocaleString('en-US');
}

function seconds(ms: number): string {
  const total = Math.floor(ms / 1000);
  return total < 60 ? `${total} s` : `${Math.floor(total / 60)} min ${String(total % 60).padStart(2, '0')} s`;
}
