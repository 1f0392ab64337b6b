// Load on loopback only, bounded in connections and time: the sandbox and each Prism mock hold 100 concurrent
// connections for 5 s with no errors and no memory growth beyond a bound.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMocks, type Mocks } from '../../src/mock/start-mocks.js';
import { startSandbox, type Sandbox } from '../../src/plugins/example-sandbox.js';

const require = createRequire(import.meta.url);
const autocannon = require('autocannon') as (options: object) => Promise<{
  requests: { total: number };
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCodeStats: Record<string, { count: number }>;
}>;
const connections = 100;
const duration = 5;
const growthBoundMb = 150;

let mocks: Mocks;
let sandbox: Sandbox;
beforeAll(async () => {
  mocks = await startMocks({ ports: { 'client-session': 0, 'repository-webhooks': 0 } });
  sandbox = await startSandbox({ port: 0 });
});
afterAll(async () => {
  await mocks?.stop();
  await sandbox?.stop();
});

async function rssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? NaN) / 1024;
}

async function load(url: string, headers: Record<string, string> = {}) {
  const result = await autocannon({ url, connections, duration, headers, timeout: 10 });
  expect(result.errors).toBe(0);
  expect(result.timeouts).toBe(0);
  expect(result.non2xx).toBe(0);
  // Every connection was answered, more than once: the load was applied. How many answers fit in 5 s is the
  // machine's, and is measured by `npm run bench`, not here.
  expect(result.requests.total).toBeGreaterThan(connections);
  return result;
}

describe('under load', () => {
  it('the sandbox holds 100 connections for 5 s, errors 0, memory bounded', async () => {
    const hook = await fetch(`${sandbox.url}/repos/octo/app/hooks`, {
      method: 'POST',
      body: JSON.stringify({ config: { url: 'http://127.0.0.1:9/x' } }),
    });
    const { id } = (await hook.json()) as { id: number };
    const before = await rssMb(process.pid);
    await load(`${sandbox.url}/repos/octo/app/hooks/${id}`);
    await load(`${sandbox.url}/client-session`, { 'X-API-KEY': 'k', 'X-API-VERSION': '2.4' });
    expect((await rssMb(process.pid)) - before).toBeLessThan(growthBoundMb);
  }, 40_000);

  it.each(['client-session', 'repository-webhooks'] as const)(
    'the %s Prism mock holds 100 connections for 5 s, errors 0, memory bounded',
    async (api) => {
      const mock = mocks.mocks.find((m) => m.api === api)!;
      const before = await rssMb(mock.pid);
      if (api === 'client-session')
        await load(`${mock.url}/client-session`, { 'X-API-KEY': 'k', 'X-API-VERSION': '2.4' });
      else await load(`${mock.url}/repos/octo/app/hooks/1`);
      expect((await rssMb(mock.pid)) - before).toBeLessThan(growthBoundMb);
    },
    40_000,
  );
});
