// Ctrl-C or SIGTERM during a full run against the sandbox, at several points: afterwards the sandbox holds no
// webhook. A delaying proxy in front of the sandbox picks the moment.
import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/plugins/example-sandbox.js';
import { root } from '../helpers/paths.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, deliveryTimeoutMs: 500 });
});
afterAll(async () => {
  await sandbox?.stop();
});

async function hooksOnSandbox(): Promise<unknown[]> {
  return (await (await fetch(`${sandbox.url}/repos/octo/app/hooks?per_page=100`)).json()) as unknown[];
}

/** Forwards to the sandbox; the first request that `matches` (while `ready()`) triggers `onMatch` and is held 300 ms. */
async function startProxy(
  matches: (method: string, url: string) => boolean,
  ready: () => Promise<boolean>,
  onMatch: () => void,
) {
  let fired = false;
  const server = http.createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    if (!fired && matches(request.method ?? '', request.url ?? '') && (await ready())) {
      fired = true;
      onMatch();
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    const upstream = await fetch(sandbox.url + request.url, {
      method: request.method,
      headers: Object.fromEntries(
        Object.entries(request.headers)
          .filter(([name]) => !['host', 'connection', 'content-length'].includes(name))
          .map(([k, v]) => [k, String(v)]),
      ),
      ...(chunks.length ? { body: Buffer.concat(chunks) } : {}),
    });
    const body = Buffer.from(await upstream.arrayBuffer());
    response.writeHead(
      upstream.status,
      Object.fromEntries(
        [...upstream.headers].filter(([name]) => name !== 'content-length' && name !== 'content-encoding'),
      ),
    );
    response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    fired: () => fired,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('interrupting a full run against the sandbox', () => {
  const points: [string, { signal: NodeJS.Signals; matches: (method: string, url: string) => boolean }][] = [
    ['after the first hook is created', { signal: 'SIGINT', matches: (m, u) => m === 'POST' && /\/hooks$/.test(u) }],
    ['while updating events', { signal: 'SIGTERM', matches: (m, u) => m === 'PATCH' && /\/hooks\/\d+$/.test(u) }],
    ['while pinging', { signal: 'SIGINT', matches: (m, u) => m === 'POST' && u.endsWith('/pings') }],
    ['while listing deliveries', { signal: 'SIGTERM', matches: (m, u) => m === 'GET' && u.includes('/deliveries') }],
    ['while redelivering', { signal: 'SIGINT', matches: (m, u) => m === 'POST' && u.endsWith('/attempts') }],
  ];

  it.each(points)('%s, leaves no webhook behind', async (_point, { signal, matches }) => {
    await sandbox.reset();
    let child: ReturnType<typeof spawn> | undefined;
    const proxy = await startProxy(
      matches,
      async () => (await hooksOnSandbox()).length > 0,
      () => child?.kill(signal),
    );
    try {
      child = spawn(
        process.execPath,
        [
          path.join(root, 'bin/contracts.js'),
          'check',
          '--api',
          'repository-webhooks',
          '--base-url',
          proxy.url,
          '--hook-url',
          'http://127.0.0.1:9/none',
        ],
        {
          cwd: root,
          env: { ...process.env, SCARF_ANALYTICS: 'false' },
        },
      );
      let stderr = '';
      child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => child!.once('exit', (c) => resolve(c)));
      expect(proxy.fired()).toBe(true);
      expect(stderr).toContain(`${signal}: stopping after the request in flight`);
      expect(stderr).toMatch(/deleting the \d+ webhooks? this run created/);
      expect(code).toBe(2);
      expect(await hooksOnSandbox()).toEqual([]);
    } finally {
      await proxy.close();
    }
  });
});
