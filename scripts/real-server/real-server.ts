// The real server of the real-server lane, whole: Directus installed into its cache, PostgreSQL and Directus started
// on loopback, its OpenAPI description fetched; and everything stopped again, whatever happens (an error, a
// deadline, Ctrl-C or SIGTERM of this process).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Directus, fetchSpec, freePort, type RateLimit, startDirectus } from './directus.js';
import { defaultRealCache, ensureDirectus } from './directus-install.js';
import { type Postgres, startPostgres } from './postgres.js';

export interface RealServer {
  url: string;
  token: string;
  /** A folder of the run's own with the server's description as directus.json; removed at stop. */
  dir: string;
  specFile: string;
  /** Seconds each step took: install (0 when cached), postgres, directus (bootstrap and start), spec. */
  timings: Record<'install' | 'postgres' | 'directus' | 'spec', number>;
  stop: () => Promise<void>;
}

/** 40 requests per 2 s from one address: a fuzz run at its default rate (100/s) meets 429s within seconds. */
export const defaultRateLimit: RateLimit = { points: 40, seconds: 2 };

export async function startRealServer(options: { cache?: string; rateLimit?: RateLimit } = {}): Promise<RealServer> {
  const timings = { install: 0, postgres: 0, directus: 0, spec: 0 };
  const step = async <T>(name: keyof typeof timings, work: () => T | Promise<T>): Promise<T> => {
    const started = performance.now();
    try {
      return await work();
    } finally {
      timings[name] = Math.round((performance.now() - started) / 100) / 10;
    }
  };
  const cli = await step('install', () => ensureDirectus(options.cache ?? defaultRealCache));
  const dir = mkdtempSync(path.join(os.tmpdir(), 'contracts-real-'));
  let db: Postgres | undefined;
  let directus: Directus | undefined;
  const stop = async () => {
    await directus?.stop();
    db?.stop();
    rmSync(dir, { recursive: true, force: true });
  };
  const onSignal = (signal: NodeJS.Signals) => () => void stop().finally(() => process.kill(process.pid, signal));
  const handlers = { SIGINT: onSignal('SIGINT'), SIGTERM: onSignal('SIGTERM') };
  for (const [signal, handler] of Object.entries(handlers)) process.once(signal, handler);
  const stopAll = async () => {
    for (const [signal, handler] of Object.entries(handlers)) process.off(signal, handler);
    await stop();
  };
  try {
    const port = await freePort();
    db = await step('postgres', () => startPostgres(port));
    directus = await step('directus', () => startDirectus(cli, db!, options.rateLimit ?? defaultRateLimit));
    const specFile = path.join(dir, 'directus.json');
    writeFileSync(specFile, await step('spec', () => fetchSpec(directus!)));
    return { url: directus.url, token: directus.token, dir, specFile, timings, stop: stopAll };
  } catch (error) {
    await stopAll();
    throw error;
  }
}
