// Shared by the benchmarks: timing loops, child processes, the result line each benchmark prints.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const quick = process.argv.includes('--quick');

/** autocannon (CommonJS, untyped here): the figures the benchmarks read of a load. */
export const autocannon = createRequire(import.meta.url)('autocannon') as (options: object) => Promise<{
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  errors: number;
  non2xx: number;
  timeouts: number;
}>;

export interface Timing {
  opsPerSecond: number;
  nsPerOp: number;
}

/**
 * Runs `fn` repeatedly for about `ms` milliseconds (after a warm-up) and reports its rate in CPU time: the time
 * this process actually ran, so that being descheduled on a busy machine does not count against `fn`.
 */
export function measure(fn: () => unknown, ms: number): Timing {
  const warmUntil = performance.now() + Math.min(200, ms / 4);
  while (performance.now() < warmUntil) fn();
  let ops = 0;
  const started = process.cpuUsage();
  const deadline = performance.now() + ms;
  while (performance.now() < deadline) {
    for (let i = 0; i < 100; i++) fn();
    ops += 100;
  }
  const used = process.cpuUsage(started);
  const ns = (used.user + used.system) * 1000;
  return { opsPerSecond: Math.round((ops / ns) * 1e9), nsPerOp: Math.round(ns / ops) };
}

export interface ChildRun {
  code: number | null;
  seconds: number;
  stdout: string;
  stderr: string;
  /** Peak resident set size of the child, in MB (from a preload that reports it at exit). */
  peakRssMb: number | undefined;
}

/** Runs a command, timing it from spawn to exit, and records the child's peak RSS. */
export function runChild(
  command: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv } = {},
): Promise<ChildRun> {
  const rssFile = path.join(root, 'bench', `.rss-${process.pid}-${Math.random().toString(36).slice(2)}`);
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(command, args, {
      cwd: root,
      env: {
        ...process.env,
        SCARF_ANALYTICS: 'false',
        ...options.env,
        BENCH_RSS_FILE: rssFile,
        NODE_OPTIONS: `--import ${path.join(root, 'bench/rss-probe.mjs')}`,
      },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', async (code) => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const { readFile, rm } = await import('node:fs/promises');
      const rss = await readFile(rssFile, 'utf8')
        .then(Number)
        .catch(() => undefined);
      await rm(rssFile, { force: true });
      resolve({ code, seconds, stdout, stderr, peakRssMb: rss === undefined ? undefined : Math.round(rss / 1024) });
    });
  });
}

/** Each benchmark ends by printing one line: its figures as JSON. */
export function report(name: string, figures: Record<string, unknown>): void {
  process.stdout.write(`BENCH_RESULT ${JSON.stringify({ name, figures })}\n`);
}

export const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;
