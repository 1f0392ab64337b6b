// Directus on the throw-away PostgreSQL: bootstrapped (its tables, an admin user whose static token is made up here),
// then started on a loopback port with its IP rate limiter on, so that a fuzz run meets 429 answers with
// Retry-After (rate-limiter-ip.ts of @directus/api: `Retry-After` in seconds, then HitRateLimitError, a 429).
// Everything it writes (uploads, extensions) goes to a temp folder removed at stop; telemetry and the update check
// stay off (this machine reaches no other host).
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { type Postgres, RealServerUnavailable } from './postgres.js';

export interface RateLimit {
  /** Requests allowed per window and client address (RATE_LIMITER_POINTS). */
  points: number;
  /** The window, in seconds (RATE_LIMITER_DURATION). */
  seconds: number;
}

export interface Directus {
  url: string;
  /** The admin's static token: `Authorization: Bearer TOKEN`. */
  token: string;
  /** Stops the server (SIGTERM, then SIGKILL after 10 s) and removes its files; safe to call twice. */
  stop: () => Promise<void>;
}

const bootstrapTimeoutMs = 5 * 60_000;
const startTimeoutMs = 3 * 60_000;

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function directusEnv(db: Postgres, port: number, dir: string, token: string, limit: RateLimit): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    KEY: randomBytes(16).toString('hex'),
    SECRET: randomBytes(32).toString('hex'),
    DB_CLIENT: 'pg',
    DB_HOST: db.host,
    DB_PORT: String(db.port),
    DB_DATABASE: db.database,
    DB_USER: db.user,
    DB_PASSWORD: '',
    ADMIN_EMAIL: 'admin@example.com',
    ADMIN_PASSWORD: randomBytes(12).toString('hex'),
    ADMIN_TOKEN: token,
    STORAGE_LOCATIONS: 'local',
    STORAGE_LOCAL_ROOT: path.join(dir, 'uploads'),
    EXTENSIONS_PATH: path.join(dir, 'extensions'),
    SERVE_APP: 'false',
    TELEMETRY: 'false',
    CACHE_ENABLED: 'false',
    LOG_LEVEL: 'warn',
    // Its load shedding off: on a busy machine it answered 503 "Under pressure" to whatever came, and those
    // answers said the machine's load, not the request (31 of 221 failures of one run; --replay could not tell).
    PRESSURE_LIMITER_ENABLED: 'false',
    RATE_LIMITER_ENABLED: 'true',
    RATE_LIMITER_STORE: 'memory',
    RATE_LIMITER_POINTS: String(limit.points),
    RATE_LIMITER_DURATION: String(limit.seconds),
  };
}

/** Runs `directus bootstrap` (tables, the admin and its token) to its end, bounded in time. */
function bootstrap(cli: string, env: NodeJS.ProcessEnv, log: string[]): Promise<void> {
  const child = spawn(process.execPath, [cli, 'bootstrap'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  collect(child, log);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), bootstrapTimeoutMs);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else
        reject(
          new RealServerUnavailable(
            `directus bootstrap ${signal ? `was stopped after ${bootstrapTimeoutMs / 1000} s` : `exited ${code}`}: ${log.at(-1) ?? ''}`,
          ),
        );
    });
  });
}

/** The last lines the server printed, for a message when it will not come up. */
function collect(child: ChildProcess, log: string[]): void {
  const add = (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n')) if (line.trim() !== '') log.push(line.slice(0, 300));
    if (log.length > 50) log.splice(0, log.length - 50);
  };
  child.stdout?.on('data', add);
  child.stderr?.on('data', add);
}

async function waitUntilUp(url: string, child: ChildProcess, log: string[]): Promise<void> {
  const deadline = Date.now() + startTimeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new RealServerUnavailable(`directus start ended (${child.exitCode ?? child.signalCode}): ${log.at(-1)}`);
    const answer = await fetch(`${url}/server/ping`, { signal: AbortSignal.timeout(5000) }).catch(() => undefined);
    if (answer?.ok) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new RealServerUnavailable(`directus did not answer /server/ping within ${startTimeoutMs / 1000} s`);
}

export async function startDirectus(cli: string, db: Postgres, limit: RateLimit): Promise<Directus> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'contracts-real-directus-'));
  mkdirSync(path.join(dir, 'uploads'));
  mkdirSync(path.join(dir, 'extensions'));
  const port = await freePort();
  const token = randomBytes(24).toString('hex');
  const env = directusEnv(db, port, dir, token, limit);
  const log: string[] = [];
  let child: ChildProcess | undefined;
  const stop = async () => {
    const running = child;
    child = undefined;
    if (running && running.exitCode === null && running.signalCode === null) {
      const closed = new Promise((resolve) => running.once('close', resolve));
      signalGroup(running, 'SIGTERM');
      const timer = setTimeout(() => signalGroup(running, 'SIGKILL'), 10_000);
      await closed;
      clearTimeout(timer);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await bootstrap(cli, env, log);
    // Its own process group, so that stop() reaches whatever it starts.
    child = spawn(process.execPath, [cli, 'start'], { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    collect(child, log);
    const url = `http://127.0.0.1:${port}`;
    await waitUntilUp(url, child, log);
    return { url, token, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    // already gone
  }
}

/** The OpenAPI description Directus serves for what the token may do (an admin: every collection and endpoint). */
export async function fetchSpec(directus: Directus): Promise<string> {
  const answer = await fetch(`${directus.url}/server/specs/oas`, {
    headers: { authorization: `Bearer ${directus.token}` },
    signal: AbortSignal.timeout(60_000),
  });
  const text = await answer.text();
  if (!answer.ok) throw new RealServerUnavailable(`GET /server/specs/oas answered ${answer.status}`);
  return text;
}
