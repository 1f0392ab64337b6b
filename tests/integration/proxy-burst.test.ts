// The proxy under a burst of concurrent exchanges: checking happens after forwarding (src/proxy/check-queue.ts), and
// still every exchange received is judged exactly once, with what it breaks, including those in flight at Ctrl-C.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileContract, type Contract } from '../../src/core/compile-contract.js';
import { loadSpec } from '../../src/core/load-spec.js';
import { startProxy, type ProxiedExchange } from '../../src/proxy/start-proxy.js';
import { startSandbox } from '../../src/plugins/example-sandbox.js';
import { root, specFile } from '../helpers/paths.js';
import { watchProxyProcess } from '../helpers/proxy.js';

const apiKey = 'sk-proxy-burst-secret-key';
const session = { 'X-API-KEY': apiKey, 'X-API-VERSION': '2.4' };

// Each kind of exchange in the burst and the one rule it breaks (none for a conforming one).
const kinds: Record<string, { headers: Record<string, string>; breaks: string | undefined }> = {
  conforming: { headers: session, breaks: undefined },
  'without X-API-KEY': { headers: { 'X-API-VERSION': '2.4' }, breaks: 'request_security_conformance' },
  'with X-API-VERSION 2.3': {
    headers: { ...session, 'X-API-VERSION': '2.3' },
    breaks: 'request_parameters_conformance',
  },
  'answered 418': { headers: { ...session, 'x-burst-answer': '418' }, breaks: 'status_code_conformance' },
};
const kindNames = Object.keys(kinds);

let contract: Contract;
let sessionBody: string;
let dir: string;

beforeAll(async () => {
  contract = compileContract(await loadSpec(specFile('client-session')));
  // The target answers what the sandbox answers a conforming request, so that only the rule broken on purpose is.
  const sandbox = await startSandbox({ port: 0, host: '127.0.0.1' });
  try {
    sessionBody = await (await fetch(`${sandbox.url}/client-session`, { headers: session })).text();
  } finally {
    await sandbox.stop();
  }
  dir = await mkdtemp(path.join(tmpdir(), 'contracts-proxy-burst-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A target answering the session body (418 when asked to), holding every answer until `release` when `held`. */
async function sessionTarget(held: boolean) {
  const waiting: (() => void)[] = [];
  let released = !held;
  let arrivals = 0;
  let arrived: () => void = () => undefined;
  let expected = Number.POSITIVE_INFINITY;
  const allArrived = new Promise<void>((resolve) => (arrived = resolve));
  const server = http.createServer((req, res) => {
    req.resume();
    const send = () =>
      res
        .writeHead(Number(req.headers['x-burst-answer'] ?? 200), { 'content-type': 'application/json; charset=utf-8' })
        .end(sessionBody);
    if (released) send();
    else waiting.push(send);
    if (++arrivals >= expected) arrived();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    /** Resolves once `count` requests have reached the target. */
    arrivals(count: number) {
      expected = count;
      if (arrivals >= count) arrived();
      return allArrived;
    },
    release() {
      released = true;
      for (const send of waiting.splice(0)) send();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Sends `count` requests at once, cycling through the kinds, each on a connection of its own. */
function burst(url: string, count: number): Promise<number[]> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: count });
  const sent = Array.from({ length: count }, (_, index) => {
    const kind = kindNames[index % kindNames.length]!;
    return new Promise<number>((resolve, reject) => {
      http
        .get(
          `${url}/client-session`,
          { agent, headers: { ...kinds[kind]!.headers, 'x-burst-kind': kind } },
          (response) => {
            response.resume();
            response.once('end', () => resolve(response.statusCode!));
          },
        )
        .once('error', reject);
    });
  });
  return Promise.all(sent).finally(() => agent.destroy());
}

/** The rules an exchange broke, as the CLI counts them: the response side only for a matched operation. */
function broken(exchange: ProxiedExchange): string[] {
  const findings = [
    ...exchange.requestResult.findings,
    ...(exchange.operationId !== undefined ? (exchange.responseResult?.findings ?? []) : []),
  ];
  return findings.filter((finding) => finding.severity === 'error').map((finding) => finding.check);
}

describe('contracts proxy under a burst', () => {
  it.each([
    ['checking after forwarding', undefined],
    ['a check queue of none, forwarding waiting on every check', { exchanges: 0, bytes: 0 }],
  ])(
    'judges each of 120 concurrent exchanges exactly once, naming the one rule each broke (%s)',
    async (_name, checkQueue) => {
      const target = await sessionTarget(false);
      const seen: ProxiedExchange[] = [];
      const proxy = await startProxy({
        contract,
        target: target.url,
        maxBodyBytes: 1 << 20,
        ...(checkQueue ? { checkQueue } : {}),
        onExchange: (exchange) => seen.push(exchange),
      });
      try {
        const statuses = await burst(proxy.url, 120);
        expect(statuses.filter((status) => status === 418)).toHaveLength(30);
      } finally {
        await proxy.stop();
        await target.close();
      }
      expect(seen).toHaveLength(120);
      expect(proxy.stats()).toEqual({
        received: 120,
        judged: 120,
        judgedAtOnce: checkQueue ? 120 : expect.any(Number),
      });
      for (const exchange of seen) {
        const breaks = kinds[exchange.request.headers['x-burst-kind']!]!.breaks;
        expect(broken(exchange)).toEqual(breaks ? [breaks] : []);
      }
    },
    60_000,
  );

  it('at Ctrl-C in the middle of a burst, answers and judges every exchange in flight before it reports and exits', async () => {
    const target = await sessionTarget(true);
    const har = path.join(dir, 'burst.har');
    const child = spawn(
      process.execPath,
      [
        path.join(root, 'bin/contracts.js'),
        'proxy',
        '--api',
        'client-session',
        '--target',
        target.url,
        '--port',
        '0',
        '--har-out',
        har,
      ],
      {
        env: { ...process.env, SCARF_ANALYTICS: 'false', CLIENT_SESSION_API_KEY: apiKey },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const { output, url: listening } = watchProxyProcess(child);
    const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
    // A second Ctrl-C means "stop now": sent only when the test failed before its own.
    let signalled = false;
    try {
      const url = await listening;
      const answered = burst(url, 60);
      // Every request is in flight, held by the target, when the proxy is told to stop; then the target answers.
      await target.arrivals(60);
      signalled = child.kill('SIGINT');
      await new Promise((resolve) => setTimeout(resolve, 500));
      target.release();
      expect((await answered).sort()).toEqual([...Array(45).fill(200), ...Array(15).fill(418)]);
    } finally {
      if (!signalled) child.kill('SIGINT');
      await target.close();
    }
    expect(await exited).toBe(1);
    expect(output.stderr).not.toContain('were not checked');
    expect(output.stdout).toContain('SIGINT: 60 exchanges: 15 conform, 45 fail, 0 match no operation');
    for (const check of ['request_security_conformance', 'request_parameters_conformance', 'status_code_conformance']) {
      expect(
        output.stdout.split('\n').filter((line) => line.startsWith('✗ ') && line.includes(` ${check}`)),
      ).toHaveLength(15);
    }
    // Reported before the HAR was closed: every exchange is in it.
    expect((JSON.parse(await readFile(har, 'utf8')) as { log: { entries: unknown[] } }).log.entries).toHaveLength(60);
    expect(output.stdout + output.stderr).not.toContain(apiKey);
  }, 60_000);
});
