// `contracts sandbox --max-delivery-memory`: what every hook's deliveries hold together is bounded. Ten hooks pinged
// without end once took the sandbox from 96 to 1,005 MB (1,000 deliveries kept per hook, each hook on its own). Past
// the bound the oldest deliveries go first, whichever hook they belong to: they are no longer listed, and reading one
// answers 422. Counted, not timed: the sandbox runs as its own process and is read through its API.
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { root } from '../helpers/paths.js';

const hooks = 10;
const pingsPerHook = 5;
let child: ChildProcessByStdio<null, Readable, Readable>;
let sandbox: string;
let target: http.Server;
let targetUrl: string;

beforeAll(async () => {
  target = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(204).end());
  });
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}/hook`;
  // 0.1 MB: some thirteen ping deliveries (each is estimated at about 7.6 KB), far fewer than the fifty pings of each half below.
  child = spawn(
    process.execPath,
    [path.join(root, 'bin/contracts.js'), 'sandbox', '--port', '0', '--max-delivery-memory', '0.1'],
    { cwd: root, env: { ...process.env, SCARF_ANALYTICS: 'false' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  sandbox = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /at (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout);
      if (match) resolve(match[1]!);
    });
    child.once('close', () => reject(new Error(`contracts sandbox exited: ${stderr}`)));
  });
}, 60_000);
afterAll(async () => {
  if (child?.exitCode === null) child.kill('SIGKILL');
  await new Promise((resolve) => target?.close(resolve));
});

async function call(method: string, urlPath: string, body?: unknown): Promise<{ status: number; json: unknown }> {
  const response = await fetch(sandbox + urlPath, {
    method,
    ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
  });
  const text = await response.text();
  return { status: response.status, json: text === '' ? undefined : JSON.parse(text) };
}

const hookPath = (id: number) => `/repos/octo/app/hooks/${id}`;

/** Pings each hook in turn, `pingsPerHook` rounds; each delivery (ids are given in order) is listed before the next ping. */
async function pingAll(ids: number[], firstDeliveryId: number): Promise<number> {
  let next = firstDeliveryId;
  for (let round = 0; round < pingsPerHook; round++) {
    for (const id of ids) {
      expect((await call('POST', `${hookPath(id)}/pings`)).status).toBe(204);
      await expect
        .poll(
          async () => ((await call('GET', `${hookPath(id)}/deliveries?per_page=1`)).json as { id: number }[])[0]?.id,
        )
        .toBe(next);
      next++;
    }
  }
  return next;
}

/** Every delivery id listed, across the hooks, smallest first. */
async function listed(ids: number[]): Promise<number[]> {
  const all: number[] = [];
  for (const id of ids) {
    const answer = await call('GET', `${hookPath(id)}/deliveries?per_page=100`);
    all.push(...(answer.json as { id: number }[]).map((delivery) => delivery.id));
  }
  return all.sort((a, b) => a - b);
}

describe('contracts sandbox --max-delivery-memory', () => {
  it("keeps all hooks' deliveries within the bound, dropping the oldest of any hook first", async () => {
    const ids: number[] = [];
    for (let index = 0; index < hooks; index++) {
      const created = await call('POST', '/repos/octo/app/hooks', {
        name: 'web',
        config: { url: `${targetUrl}?hook=${index}` },
      });
      expect(created.status).toBe(201);
      ids.push((created.json as { id: number }).id);
    }
    const afterFirst = await pingAll(ids, 1);
    const first = await listed(ids);
    // Fewer than one round of pings is kept, and what is kept is the newest: the ids up to the last one, no gap.
    expect(first.length).toBeGreaterThan(1);
    expect(first.length).toBeLessThan(hooks * pingsPerHook);
    expect(first).toEqual(Array.from({ length: first.length }, (_, index) => afterFirst - first.length + index));

    // As many pings again: the sandbox keeps no more than it did (each delivery holds as much as the others).
    const afterSecond = await pingAll(ids, afterFirst);
    const second = await listed(ids);
    expect(second.length).toBeLessThanOrEqual(first.length + 1);
    expect(second).toEqual(Array.from({ length: second.length }, (_, index) => afterSecond - second.length + index));
    // The first hook kept only its newest deliveries (one a round at most); its first is no longer there to read.
    const [oldestHook] = ids;
    const kept = (await call('GET', `${hookPath(oldestHook!)}/deliveries?per_page=100`)).json as { id: number }[];
    expect(kept.length).toBeLessThanOrEqual(Math.ceil(second.length / hooks));
    expect((await call('GET', `${hookPath(oldestHook!)}/deliveries/1`)).status).toBe(422);
  }, 120_000);
});
