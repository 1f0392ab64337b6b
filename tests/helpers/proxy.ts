// A validating proxy for a test, started in-process over real sockets, with every exchange it reports collected.
import type { ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';
import { expect } from 'vitest';
import type { Contract } from '../../src/core/compile-contract.js';
import { startProxy, type ProxiedExchange, type Proxy } from '../../src/proxy/start-proxy.js';

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
