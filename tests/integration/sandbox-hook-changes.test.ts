// The sandbox answers GET of a hook and lists of hooks from the engine's store (the hook kept there by the
// repository-webhooks plug-in's hooks): every change to a hook must show in the next answer, however the hook was
// read before it.
import http from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/plugins/example-sandbox.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';

let sandbox: Sandbox;
let receiver: Receiver;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, deliveryTimeoutMs: 2000 });
  receiver = await startReceiver(202);
});
afterAll(async () => {
  await sandbox?.stop();
  await receiver?.close();
});
beforeEach(async () => {
  await sandbox.reset();
});

async function call(method: string, urlPath: string, body?: unknown) {
  const response = await fetch(sandbox.url + urlPath, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, json: text ? (JSON.parse(text) as any) : undefined };
}

const list = async () => (await call('GET', '/repos/octo/app/hooks')).json as Record<string, any>[];
const one = async (id: number) => (await call('GET', `/repos/octo/app/hooks/${id}`)).json as Record<string, any>;

interface Case {
  change: string;
  /** Changes hook 1 (of hooks 1 and 2, both listed and read once before) and says what the list must then hold. */
  apply(): Promise<(listed: Record<string, any>[]) => void>;
}

const cases: Case[] = [
  {
    change: 'an update of the hook',
    async apply() {
      const updated = await call('PATCH', '/repos/octo/app/hooks/1', { active: false, add_events: ['issues'] });
      expect(updated.status).toBe(200);
      return (listed) => expect(listed[0]).toEqual(updated.json);
    },
  },
  {
    change: 'an update of its config',
    async apply() {
      const updated = await call('PATCH', '/repos/octo/app/hooks/1/config', { content_type: 'form' });
      expect(updated.status).toBe(200);
      return (listed) => expect(listed[0]!.config).toEqual(updated.json);
    },
  },
  {
    change: 'a delete',
    async apply() {
      expect((await call('DELETE', '/repos/octo/app/hooks/1')).status).toBe(204);
      return (listed) => expect(listed.map((hook) => hook.id)).toEqual([2]);
    },
  },
  {
    change: 'a reset and a new hook taking the same id',
    async apply() {
      await sandbox.reset();
      expect(
        (await call('POST', '/repos/octo/app/hooks', { config: { url: 'https://example.com/after-reset' } })).status,
      ).toBe(201);
      return (listed) =>
        expect(listed.map((hook) => [hook.id, hook.config.url])).toEqual([[1, 'https://example.com/after-reset']]);
    },
  },
  {
    change: 'a delivery (its last_response)',
    async apply() {
      expect((await call('POST', '/repos/octo/app/hooks/1/pings')).status).toBe(204);
      await sandbox.settle();
      return (listed) => expect(listed[0]!.last_response).toEqual({ code: 202, status: 'active', message: 'OK' });
    },
  },
  {
    change: 'a create',
    async apply() {
      expect(
        (await call('POST', '/repos/octo/app/hooks', { config: { url: 'https://example.com/third' } })).status,
      ).toBe(201);
      return (listed) => expect(listed.map((hook) => hook.id)).toEqual([1, 2, 3]);
    },
  },
];

describe('sandbox: answers built from cached hook JSON', () => {
  it.each(cases)('a list and a GET made after $change show it', async ({ apply }) => {
    for (const [index, url] of [receiver.url, 'https://example.com/two'].entries()) {
      const created = await call('POST', '/repos/octo/app/hooks', {
        events: ['push'],
        config: { url, content_type: 'json' },
      });
      expect(created.json.id).toBe(index + 1);
    }
    const before = await list();
    expect(before.map((hook) => hook.id)).toEqual([1, 2]);
    expect(await one(1)).toEqual(before[0]);
    const check = await apply();
    const after = await list();
    check(after);
    // A GET of each listed hook gives the same hook: neither answer kept a stale copy.
    for (const hook of after) expect(await one(hook.id)).toEqual(hook);
    // And the list is exactly what the hooks serialize to, item by item.
    expect(after).toEqual(await Promise.all(after.map((hook) => one(hook.id))));
  });

  it('a hook read through another Host is answered with that host in its URLs', async () => {
    await call('POST', '/repos/octo/app/hooks', { config: { url: 'https://example.com/one' } });
    const port = new URL(sandbox.url).port;
    const viaIp = (await list())[0]!;
    // fetch cannot set Host; node:http can.
    const viaName = await new Promise<Record<string, any>>((resolve, reject) => {
      http
        .get(`${sandbox.url}/repos/octo/app/hooks`, { headers: { host: `localhost:${port}` } }, (response) => {
          let text = '';
          response
            .setEncoding('utf8')
            .on('data', (chunk: string) => (text += chunk))
            .on('end', () => resolve(JSON.parse(text)[0]));
        })
        .on('error', reject);
    });
    expect(viaIp.url).toBe(`http://127.0.0.1:${port}/repos/octo/app/hooks/1`);
    expect(viaName.url).toBe(`http://localhost:${port}/repos/octo/app/hooks/1`);
    expect((await list())[0]).toEqual(viaIp);
  });
});
