// A validating proxy for a test, started in-process over real sockets, with every exchange it reports collected;
// or started as `contracts proxy` in a child process, and raw clients for either.
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { once } from 'node:events';
import net from 'node:net';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { expect } from 'vitest';
import type { Contract } from '../../src/core/compile-contract.js';
import { startProxy, type ProxiedExchange, type Proxy } from '../../src/proxy/start-proxy.js';
import { root } from './paths.js';

export interface ProxyTestOptions {
  contract: Contract;
  /** Where it forwards; the caller's default target otherwise. */
  target?: string;
  errors?: boolean;
  maxBodyBytes?: number;
  timeoutMs?: number;
}

/** Starts a proxy in front of `options.target` (or `defaultTarget`), runs `body`, and always stops it. */
export async function withProxyTo(
  defaultTarget: string,
  options: ProxyTestOptions,
  body: (proxy: Proxy, seen: ProxiedExchange[]) => Promise<void>,
): Promise<void> {
  const seen: ProxiedExchange[] = [];
  const proxy = await startProxy({
    target: defaultTarget,
    maxBodyBytes: 1 << 20,
    ...options,
    onExchange: (exchange) => seen.push(exchange),
  });
  try {
    await body(proxy, seen);
  } finally {
    await proxy.stop();
  }
}

/** Waits until the proxy has judged `count` exchanges: it does so after answering the client, never before. */
export async function judged(seen: ProxiedExchange[], count: number): Promise<void> {
  await expect.poll(() => seen.length, { timeout: 10_000 }).toBe(count);
}

/**
 * Follows a `contracts proxy` child process: `output` collects what it prints, and `url` resolves with the address
 * it listens at (or rejects, with its stderr, when it exits first).
 */
export function watchProxyProcess(child: ChildProcessByStdio<null, Readable, Readable>, api = 'client-session') {
  const output = { stdout: '', stderr: '' };
  child.stderr.on('data', (chunk: Buffer) => (output.stderr += chunk.toString()));
  const listening = new RegExp(`Proxy for ${api} at (http://127\\.0\\.0\\.1:\\d+)`);
  const url = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output.stdout += chunk.toString();
      const match = listening.exec(output.stdout);
      if (match) resolve(match[1]!);
    });
    child.once('close', () => reject(new Error(`the proxy exited: ${output.stderr}`)));
  });
  // A test that fails before awaiting it must not also leave an unhandled rejection behind.
  url.catch(() => undefined);
  return { output, url };
}

/** A `contracts proxy` child process, started with `args` after `proxy`; `stop` signals it and waits for its exit. */
export async function spawnProxy(args: readonly string[], api: string, env: NodeJS.ProcessEnv = {}) {
  const child = spawn(process.execPath, [path.join(root, 'bin/contracts.js'), 'proxy', '--api', api, ...args], {
    env: { ...process.env, SCARF_ANALYTICS: 'false', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
  const { output, url } = watchProxyProcess(child, api);
  return {
    child,
    output,
    url: await url,
    exited,
    /** Sends `signal` and resolves with the exit code and how long the exit took, or kills it after `withinMs`. */
    async stop(signal: NodeJS.Signals = 'SIGINT', withinMs = 15_000) {
      const started = performance.now();
      child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), withinMs);
      const code = await exited;
      clearTimeout(timer);
      return { code, ms: performance.now() - started };
    },
  };
}

export interface RawAnswers {
  /** Final answers complete in what arrived (1xx skipped), in order. */
  answers: { status: number; headers: string; body: string }[];
  /** The proxy closed the connection. */
  closed: boolean;
  /** Every byte that arrived, latin1. */
  raw: string;
}

/**
 * Writes `bytes` to the proxy on a new connection and collects what comes back until `count` answers are complete
 * or the connection closes (at most `timeoutMs`); then waits `settleMs` more, to see whether it closes.
 */
export async function rawExchange(
  port: number,
  bytes: string,
  { count = 1, timeoutMs = 5_000, settleMs = 0 }: { count?: number; timeoutMs?: number; settleMs?: number } = {},
): Promise<RawAnswers> {
  const socket = net.connect(port, '127.0.0.1');
  socket.on('error', () => undefined);
  await once(socket, 'connect');
  const result: RawAnswers = { answers: [], closed: false, raw: '' };
  let wake: () => void = () => undefined;
  socket.on('data', (chunk: Buffer) => {
    result.raw += chunk.toString('latin1');
    wake();
  });
  socket.on('close', () => {
    result.closed = true;
    wake();
  });
  socket.write(Buffer.from(bytes, 'latin1'));
  const done = () => result.closed || parseAnswers(result.raw, false).length >= count;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, timeoutMs);
    wake = () => {
      if (!done()) return;
      clearTimeout(timer);
      resolve();
    };
    wake();
  });
  if (settleMs > 0 && !result.closed) await new Promise((resolve) => setTimeout(resolve, settleMs));
  socket.destroy();
  result.answers = parseAnswers(result.raw, result.closed);
  return result;
}

/** The proxy's own answers are well framed: a Content-Length, chunked, or (to the close) neither. */
function parseAnswers(raw: string, closed: boolean): RawAnswers['answers'] {
  const answers: RawAnswers['answers'] = [];
  let at = 0;
  for (;;) {
    const headEnd = raw.indexOf('\r\n\r\n', at);
    if (headEnd < 0) return answers;
    const headers = raw.slice(at, headEnd);
    const status = Number(headers.split(' ')[1]);
    let next = headEnd + 4;
    let body = '';
    const length = /\r\ncontent-length: *(\d+)/i.exec(headers)?.[1];
    if (status < 200) {
      at = next;
      continue;
    }
    if (/\r\ntransfer-encoding: *chunked/i.test(headers)) {
      for (;;) {
        const lineEnd = raw.indexOf('\r\n', next);
        if (lineEnd < 0) return answers;
        const size = Number.parseInt(raw.slice(next, lineEnd), 16);
        if (raw.length < lineEnd + 2 + size + 2) return answers;
        body += raw.slice(lineEnd + 2, lineEnd + 2 + size);
        next = lineEnd + 2 + size + 2;
        if (size === 0) break;
      }
    } else if (length !== undefined) {
      if (raw.length < next + Number(length)) return answers;
      body = raw.slice(next, next + Number(length));
      next += Number(length);
    } else {
      if (!closed) return answers;
      body = raw.slice(next);
      next = raw.length;
    }
    answers.push({ status, headers, body });
    at = next;
  }
}
