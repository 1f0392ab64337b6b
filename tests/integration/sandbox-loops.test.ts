// The sandbox against delivery loops and slow targets: a hook cannot point at the sandbox, a loop through another
// host stops after a few hops, stop and reset abort deliveries in flight, and each hook keeps its last N deliveries.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { deliveryDepthHeader, maxDeliveryDepth } from '../../src/plugins/repository-webhooks/sandbox/deliver.js';
import { startSandbox, type Sandbox } from '../../src/plugins/example-sandbox.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { runCli } from '../helpers/run-cli.js';

interface Target {
  url: string;
  received: http.IncomingHttpHeaders[];
  close(): Promise<void>;
}

/** A loopback server that records each request's headers, then calls `answer` (which may never answer). */
async function startTarget(
  answer: (request: http.IncomingMessage, response: http.ServerResponse) => void | Promise<void>,
): Promise<Target> {
  const received: http.IncomingHttpHeaders[] = [];
  const server = http.createServer(async (request, response) => {
    for await (const _chunk of request);
    received.push(request.headers);
    await answer(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function call(base: string, method: string, urlPath: string, body?: unknown) {
  const response = await fetch(base + urlPath, {
    method,
    ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
  });
  const text = await response.text();
  return { status: response.status, text, json: text ? (JSON.parse(text) as any) : undefined };
}

/** Rejects when `work` takes longer than `ms`: a hang must fail the test, not stall it. */
function within<T>(ms: number, work: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>(
    (_resolve, reject) => (timer = setTimeout(() => reject(new Error(`${what} took over ${ms} ms`)), ms)),
  );
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await within(10_000, cleanup(), 'cleanup').catch(() => undefined);
});

async function sandboxFor(options: Parameters<typeof startSandbox>[0] = {}): Promise<Sandbox> {
  const sandbox = await startSandbox({ port: 0, ...options });
  cleanups.push(() => sandbox.stop());
  return sandbox;
}

async function targetFor(answer: Parameters<typeof startTarget>[0]): Promise<Target> {
  const target = await startTarget(answer);
  cleanups.push(() => target.close());
  return target;
}

describe('sandbox: delivery loops', () => {
  let sandbox: Sandbox;
  let receiver: Receiver;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, deliveryTimeoutMs: 5000 });
    receiver = await startReceiver(200);
  });
  afterAll(async () => {
    await sandbox?.stop();
    await receiver?.close();
  });

  it('refuses with 422 a hook whose config.url is the sandbox itself, on create and on both updates, storing nothing', async () => {
    await sandbox.reset();
    const port = sandbox.port;
    const hook = await call(sandbox.url, 'POST', '/repos/octo/app/hooks', { config: { url: receiver.url } });
    expect(hook.status).toBe(201);
    const before = await call(sandbox.url, 'GET', '/repos/octo/app/hooks');
    const selves = [
      `${sandbox.url}/repos/octo/app/hooks/${hook.json.id}/pings`,
      `http://localhost:${port}/x`,
      `http://[::1]:${port}/x`,
      `http://0.0.0.0:${port}/x`,
    ];
    for (const url of selves) {
      for (const [method, urlPath, body] of [
        ['POST', '/repos/octo/app/hooks', { events: ['issues'], config: { url } }],
        ['PATCH', `/repos/octo/app/hooks/${hook.json.id}`, { config: { url } }],
        ['PATCH', `/repos/octo/app/hooks/${hook.json.id}/config`, { url }],
      ] as const) {
        const result = await call(sandbox.url, method, urlPath, body);
        expect(result.status, `${method} ${urlPath} ${url}`).toBe(422);
        expect(result.json.message).toContain('points at the sandbox itself');
      }
    }
    expect((await call(sandbox.url, 'GET', '/repos/octo/app/hooks')).text).toBe(before.text);
  });

  it(`stops a loop through another host after ${maxDeliveryDepth} deliveries, recording why the next was not sent`, async () => {
    await sandbox.reset();
    let pingUrl = '';
    // Forwards every delivery, headers and all, to the hook's own ping URL: each delivery triggers the next.
    const forwarder = await targetFor(async (request, response) => {
      const headers = Object.fromEntries(
        Object.entries(request.headers)
          .filter(([name]) => !['host', 'connection', 'content-length'].includes(name))
          .map(([name, value]) => [name, String(value)]),
      );
      await fetch(pingUrl, { method: 'POST', headers });
      response.end('forwarded');
    });
    const hook = await call(sandbox.url, 'POST', '/repos/octo/app/hooks', { config: { url: forwarder.url } });
    pingUrl = `${sandbox.url}/repos/octo/app/hooks/${hook.json.id}/pings`;
    expect((await call(sandbox.url, 'POST', `/repos/octo/app/hooks/${hook.json.id}/pings`)).status).toBe(204);
    await within(15_000, sandbox.settle(), 'the loop');
    expect(forwarder.received.map((headers) => headers[deliveryDepthHeader.toLowerCase()])).toEqual(['1', '2', '3']);
    const deliveries = await call(sandbox.url, 'GET', `/repos/octo/app/hooks/${hook.json.id}/deliveries`);
    expect(deliveries.json).toHaveLength(maxDeliveryDepth + 1);
    const notSent = deliveries.json.filter((delivery: { status_code: number }) => delivery.status_code === 0);
    expect(notSent).toEqual([
      expect.objectContaining({
        status: expect.stringContaining(`not sent: ${maxDeliveryDepth + 1} chained deliveries`),
      }),
    ]);
  });
});

describe('sandbox: deliveries in flight', () => {
  // A target that takes each delivery and never answers; the delivery timeout is far longer than any bound below.
  const neverAnswers = () => targetFor(() => undefined);

  async function pingInFlight(sandbox: Sandbox, target: Target): Promise<number> {
    const hook = await call(sandbox.url, 'POST', '/repos/octo/app/hooks', { config: { url: target.url } });
    await call(sandbox.url, 'POST', `/repos/octo/app/hooks/${hook.json.id}/pings`);
    for (let i = 0; i < 200 && target.received.length === 0; i++)
      await new Promise((resolve) => setTimeout(resolve, 25));
    expect(target.received).toHaveLength(1);
    return hook.json.id as number;
  }

  it('stop aborts a delivery in flight instead of waiting for its timeout', async () => {
    const sandbox = await startSandbox({ port: 0, deliveryTimeoutMs: 120_000 });
    await pingInFlight(sandbox, await neverAnswers());
    await within(10_000, sandbox.stop(), 'stop');
    await expect(fetch(sandbox.url)).rejects.toThrow();
  });

  it('POST /__sandbox/reset aborts a delivery in flight, answers, and leaves no delivery behind', async () => {
    const sandbox = await sandboxFor({ deliveryTimeoutMs: 120_000 });
    const target = await neverAnswers();
    const id = await pingInFlight(sandbox, target);
    expect((await within(10_000, call(sandbox.url, 'POST', '/__sandbox/reset'), 'reset')).status).toBe(204);
    expect((await call(sandbox.url, 'GET', '/repos/octo/app/hooks')).json).toEqual([]);
    const again = await call(sandbox.url, 'POST', '/repos/octo/app/hooks', { config: { url: target.url } });
    expect(again.json.id).toBe(id);
    expect((await call(sandbox.url, 'GET', `/repos/octo/app/hooks/${id}/deliveries`)).json).toEqual([]);
  });
});

describe('sandbox: deliveries kept per hook', () => {
  it('keeps only the newest maxDeliveries deliveries of a hook', async () => {
    const receiver = await startReceiver(200);
    cleanups.push(() => receiver.close());
    const sandbox = await sandboxFor({ maxDeliveries: 3 });
    const hook = await call(sandbox.url, 'POST', '/repos/octo/app/hooks', { config: { url: receiver.url } });
    for (let i = 0; i < 5; i++) {
      await call(sandbox.url, 'POST', `/repos/octo/app/hooks/${hook.json.id}/pings`);
      await sandbox.settle();
    }
    const listed = await call(sandbox.url, 'GET', `/repos/octo/app/hooks/${hook.json.id}/deliveries?per_page=100`);
    expect(receiver.received).toHaveLength(5);
    expect(listed.json.map((delivery: { id: number }) => delivery.id)).toEqual([5, 4, 3]);
    expect((await call(sandbox.url, 'GET', `/repos/octo/app/hooks/${hook.json.id}/deliveries/1`)).status).toBe(422);
  });

  it.each([['0'], ['-1'], ['1.5'], ['lots']])(
    'contracts sandbox --max-deliveries %s exits 2 with one line',
    async (value) => {
      const result = await runCli(['sandbox', '--port', '0', `--max-deliveries=${value}`]);
      expect(result.stderr).toContain(`--max-deliveries must be a whole number of at least 1, not "${value}"`);
      expect(result.stderr).not.toMatch(/\n\s+at /);
      expect(result.code).toBe(2);
    },
  );
});
