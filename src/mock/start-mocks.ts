// Starts one Prism mock process per spec (Prism serves one spec per process) behind a validating front of ours
// (validating-front.ts: the mock never serves what its spec refuses), waits until each answers, and stops them all
// again. Used by `contracts mock`, `contracts fuzz` without --base-url, the tests and the conformance runner.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { specPath, type ApiEntry, type ApiName } from '../config/project.js';
import { seedProject } from '../config/seed-project.js';
import { compileContract, type Contract } from '../core/compile-contract.js';
import { documentForTools } from '../core/document-for-tools.js';
import { ContractsError } from '../core/errors.js';
import { loadSpec } from '../core/load-spec.js';
import { indexOperations } from '../core/operation-index.js';
import { startOwnMocks } from './engine/start-own-mocks.js';
import { startFront, type Front } from './validating-front.js';

export interface MockOptions {
  /** Which APIs to serve; all by default. */
  apis?: readonly ApiEntry[];
  /** Port per API; each API's default (4010, 4011) otherwise. 0 picks a free port. */
  ports?: Partial<Record<ApiName, number>>;
  host?: string;
  /** Prism's dynamic mode: bodies generated from the schemas instead of the spec's examples. */
  dynamic?: boolean;
  /** Seed for dynamic mode, so generated data repeats. */
  seed?: string;
  /** Pass Prism's own log (info level) to `onLog`; otherwise Prism logs only fatal errors. */
  verbose?: boolean;
  onLog?: (api: ApiName, line: string) => void;
  /** How long to wait for each mock to answer. */
  startTimeoutMs?: number;
  /** Another spec file for an API instead of the shipped one. */
  specFiles?: Partial<Record<ApiName, string>>;
  /**
   * Aborted (Ctrl-C while Prism starts): stop waiting, stop every Prism started so far, and throw INTERRUPTED. A big
   * spec's Prism takes half a minute to answer; a user who gives up should not have to wait for it.
   */
  signal?: AbortSignal;
  /**
   * Which engine answers: Prism behind our validating front (the default), or our own (src/mock/engine/), which
   * starts in seconds on any spec and serves only what the spec's checks accept; `dynamic` and `seed` are Prism's.
   */
  engine?: 'prism' | 'own';
}

export interface RunningMock {
  api: ApiName;
  url: string;
  port: number;
  pid: number;
}

export interface Mocks {
  urls: Partial<Record<ApiName, string>>;
  mocks: RunningMock[];
  /** Resolves when a mock process ends before stop() was called. */
  unexpectedExit: Promise<{ api: ApiName; code: number | null; signal: NodeJS.Signals | null; output: string }>;
  stop(): Promise<void>;
}

const require = createRequire(import.meta.url);
const prismBin = path.join(path.dirname(require.resolve('@stoplight/prism-cli/package.json')), 'dist/index.js');
/** Where Prism itself listens: only the front talks to it. */
const prismHost = '127.0.0.1';
const exitWithParent = fileURLToPath(new URL('./exit-with-parent.cjs', import.meta.url));

export async function startMocks(options: MockOptions = {}): Promise<Mocks> {
  const host = options.host ?? '127.0.0.1';
  const entries = options.apis ?? seedProject.apis;
  const selected = entries.map((entry) => entry.name);
  const entryOf = (api: ApiName) => entries.find((entry) => entry.name === api)!;
  if (options.engine === 'own') return startOwnMocks(options, entries);
  const started: { mock: RunningMock; child: ChildProcess; output: string[] }[] = [];
  let stopping = false;
  let reportExit: (value: Awaited<Mocks['unexpectedExit']>) => void = () => {};
  const unexpectedExit = new Promise<Awaited<Mocks['unexpectedExit']>>((resolve) => (reportExit = resolve));

  let stop = async () => {
    stopping = true;
    await Promise.all([...fronts.map((front) => front.stop()), ...started.map(({ child }) => stopChild(child))]);
  };

  // A spec Prism cannot serve fails here, in one clear line, before any process starts. Prism gets the document we
  // loaded (bundled, in a private folder), never the user's path: it would follow every $ref itself.
  const specs = new Map<ApiName, string>();
  const contracts = new Map<ApiName, Contract>();
  const fronts: Front[] = [];
  let startTimeoutMs = 0;
  const folder = await mkdtemp(path.join(os.tmpdir(), 'contracts-mock-'));
  const stopAndClean = stop;
  stop = async () => {
    await stopAndClean();
    await rm(folder, { recursive: true, force: true });
  };
  try {
    for (const api of selected) {
      if (options.signal?.aborted) throw new ContractsError('INTERRUPTED', 'interrupted before the mocks started');
      const file = options.specFiles?.[api] ?? specPath(entryOf(api));
      const shown = path.relative(process.cwd(), file) || file;
      const spec = await loadSpec(file, shown);
      if (indexOperations(spec.document).length === 0)
        throw new ContractsError(
          'MOCK_START_FAILED',
          `${shown} has no operations under paths${spec.document.webhooks ? ' (only webhooks, which the API sends rather than serves)' : ''}: a mock serves operations, so there is nothing to start for ${api}`,
        );
      const copy = path.join(folder, `${api.replace(/[^\w.-]/g, '_')}.json`);
      const text = JSON.stringify(documentForTools(spec.sourceDocument));
      await writeFile(copy, text, { mode: 0o600 });
      specs.set(api, copy);
      // Lazy: a validator is compiled when an answer first needs it, so the mock starts as fast as before.
      contracts.set(api, compileContract(spec, { lazy: true }));
      // Prism takes longer to start on a bigger spec: the default wait grows with it.
      startTimeoutMs = Math.max(startTimeoutMs, options.startTimeoutMs ?? 30_000 + (10_000 * text.length) / 2 ** 20);
    }
    // Check every port before starting anything, so a taken port fails fast and names itself.
    const ports = new Map<ApiName, number>();
    for (const api of selected)
      ports.set(api, await claimPort(api, options.ports?.[api] ?? entryOf(api).mockPort, host));
    for (const api of selected) {
      // Prism listens on loopback only: clients reach it through the validating front, on the API's port.
      const port = await claimPort(api, 0, prismHost);
      const args = [
        '--require',
        exitWithParent,
        prismBin,
        'mock',
        '-p',
        String(port),
        '-h',
        prismHost,
        '-v',
        options.verbose ? 'info' : 'fatal',
      ];
      // Generated bodies hold only the documented fields (json-schema-faker would otherwise invent extra ones): in
      // dynamic mode, and in the dynamic answers the front asks for (`Prefer: dynamic=true`) to mend a static one.
      args.push('--json-schema-faker-fillProperties=false');
      if (options.dynamic) args.push('--dynamic');
      if (options.seed !== undefined) args.push('--seed', options.seed);
      args.push(specs.get(api)!);
      const child = spawn(process.execPath, args, {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, SCARF_ANALYTICS: 'false', FORCE_COLOR: '0' },
      });
      const output: string[] = [];
      const collect = (chunk: Buffer) => {
        for (const line of chunk.toString().split('\n')) {
          if (!line.trim()) continue;
          output.push(line);
          if (output.length > 50) output.shift();
          if (options.verbose) options.onLog?.(api, line);
        }
      };
      child.stdout?.on('data', collect);
      child.stderr?.on('data', collect);
      const entry = { mock: { api, url: `http://${prismHost}:${port}`, port, pid: child.pid ?? -1 }, child, output };
      started.push(entry);
      child.once('exit', (code, signal) => {
        if (!stopping) reportExit({ api, code, signal, output: output.join('\n') });
      });
    }
    await Promise.all(started.map((entry) => waitUntilAnswering(entry, Math.round(startTimeoutMs), options.signal)));
    for (const entry of started) {
      const { api } = entry.mock;
      const front = await startFront({
        contract: contracts.get(api)!,
        prism: { host: prismHost, port: entry.mock.port },
        host,
        port: ports.get(api)!,
        inUse: `port ${ports.get(api)!} for the ${api} mock is already in use on ${host}: stop what holds it or choose another port`,
      });
      fronts.push(front);
      entry.mock.port = front.port;
      entry.mock.url = `http://${host.includes(':') ? `[${host}]` : host}:${front.port}`;
    }
  } catch (error) {
    await stop();
    throw error;
  }

  const mocks = started.map((entry) => entry.mock);
  return { urls: Object.fromEntries(mocks.map((mock) => [mock.api, mock.url])), mocks, unexpectedExit, stop };
}

/** Prism did not answer within the start timeout (it was stopped): the embedded mock may take our engine instead. */
export class PrismTimeout extends ContractsError {}

/** Resolves the port to use: fails with PORT_IN_USE when it is taken; 0 means any free port. */
async function claimPort(api: ApiName, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', (error: NodeJS.ErrnoException) => {
      const reason =
        error.code === 'EADDRINUSE' ? 'is already in use' : `cannot be used (${error.code ?? error.message})`;
      reject(
        new ContractsError(
          'PORT_IN_USE',
          `port ${port} for the ${api} mock ${reason} on ${host}: stop what holds it or choose another port`,
        ),
      );
    });
    server.listen(port, host, () => {
      const address = server.address();
      const chosen = typeof address === 'object' && address ? address.port : port;
      server.close(() => resolve(chosen));
    });
  });
}

async function waitUntilAnswering(
  entry: { mock: RunningMock; child: ChildProcess; output: string[] },
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<void> {
  const { mock, child, output } = entry;
  const deadline = Date.now() + timeoutMs;
  let exited = false;
  child.once('exit', () => (exited = true));
  while (Date.now() < deadline) {
    if (signal?.aborted)
      throw new ContractsError('INTERRUPTED', `interrupted while Prism for ${mock.api} was starting: stopped it`);
    if (exited || child.exitCode !== null) {
      const detail = output.slice(-5).join(' | ') || 'no output';
      throw new ContractsError(
        'MOCK_START_FAILED',
        `Prism for ${mock.api} exited before it answered on ${mock.url}: ${detail}`,
      );
    }
    // A bare TCP connect, not an HTTP request: Prism would log a request for no path as an error under --verbose.
    if (await accepts(new URL(mock.url))) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new PrismTimeout(
    'MOCK_START_FAILED',
    `Prism for ${mock.api} did not answer on ${mock.url} within ${(timeoutMs / 1000).toFixed(timeoutMs < 10_000 ? 1 : 0)} s: a big spec may need longer (--start-timeout SECONDS)`,
  );
}

function accepts(url: URL): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: url.hostname.replace(/^\[|\]$/g, ''), port: Number(url.port) });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** Stops a child process: SIGTERM, then SIGKILL after 5 s. */
export function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(killer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
