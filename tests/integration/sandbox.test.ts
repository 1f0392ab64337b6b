// The sandbox as users get it: real sockets, real deliveries to a receiver the test starts.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { verify } from '@octokit/webhooks-methods';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createRepositoryWebhooksClient } from '../../src/plugins/repository-webhooks/repository-webhooks-client.js';
import { startSandbox, type Sandbox } from '../../src/plugins/example-sandbox.js';
import { freePort } from '../helpers/free-port.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { runCli } from '../helpers/run-cli.js';
import { responseProblems } from '../helpers/spec-validators.js';

let sandbox: Sandbox;
let receiver: Receiver;
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'contracts-sandbox-'));
  const sessions = path.join(dir, 'sessions.json');
  await writeFile(
    sessions,
    JSON.stringify({ 'tok-123': { paymentMethod: { vaultOnSuccess: true }, orderId: 'order-from-file' } }),
  );
  sandbox = await startSandbox({ port: 0, sessionsFile: sessions, deliveryTimeoutMs: 2000 });
  receiver = await startReceiver(202);
});
afterAll(async () => {
  await sandbox?.stop();
  await receiver?.close();
  await rm(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  await sandbox.reset();
  receiver.received.length = 0;
});

const hooks = () => createRepositoryWebhooksClient({ baseUrl: sandbox.url });
const repo = { owner: 'octo', repo: 'app' };

async function call(method: string, urlPath: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(sandbox.url + urlPath, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  const text = await response.text();
  return {
    status: response.status,
    text,
    json: text ? (JSON.parse(text) as any) : undefined,
    headers: response.headers,
  };
}

async function conforms(
  api: 'client-session' | 'repository-webhooks',
  method: string,
  urlPath: string,
  result: Awaited<ReturnType<typeof call>>,
) {
  return responseProblems(
    api,
    method,
    new URL(sandbox.url + urlPath).pathname,
    result.status,
    result.headers.get('content-type'),
    result.text,
  );
}

describe('sandbox: real deliveries', () => {
  it('delivers a ping to the receiver with a valid X-Hub-Signature-256, then lists it with the receiver status', async () => {
    const secret = 'sandbox-test-secret';
    const created = await hooks().POST('/repos/{owner}/{repo}/hooks', {
      params: { path: repo },
      body: { name: 'web', config: { url: receiver.url, content_type: 'json', secret } },
    });
    expect(created.response.status).toBe(201);
    const hookId = created.data!.id!;
    expect(JSON.stringify(created.data)).not.toContain(secret);

    const ping = await hooks().POST('/repos/{owner}/{repo}/hooks/{hook_id}/pings', {
      params: { path: { ...repo, hook_id: hookId } },
    });
    expect(ping.response.status).toBe(204);
    const [request] = await receiver.waitFor(1);
    expect(request!.method).toBe('POST');
    expect(request!.headers['x-service-event']).toBe('ping');
    expect(request!.headers['x-service-hook-id']).toBe(String(hookId));
    expect(request!.headers['x-service-hook-installation-target-type']).toBe('repository');
    expect(request!.headers['x-service-hook-installation-target-id']).toMatch(/^\d+$/);
    expect(request!.headers['x-service-delivery']).toMatch(/^[0-9a-f-]{36}$/);
    expect(request!.headers['user-agent']).toMatch(/^Service-Hookshot\//);
    expect(request!.headers['content-type']).toBe('application/json');
    expect(request!.headers['x-hub-signature']).toMatch(/^sha1=[0-9a-f]{40}$/);
    const signature = String(request!.headers['x-hub-signature-256']);
    expect(signature).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(await verify(secret, request!.body, signature)).toBe(true);
    expect(await verify('another-secret', request!.body, signature)).toBe(false);
    expect(JSON.parse(request!.body)).toMatchObject({ hook_id: hookId });

    await sandbox.settle();
    const listed = await call('GET', `/repos/octo/app/hooks/${hookId}/deliveries`);
    expect(listed.status).toBe(200);
    expect(listed.json).toEqual([
      expect.objectContaining({
        event: 'ping',
        status_code: 202,
        redelivery: false,
        guid: request!.headers['x-service-delivery'],
      }),
    ]);
    expect(await conforms('repository-webhooks', 'GET', `/repos/octo/app/hooks/${hookId}/deliveries`, listed)).toEqual(
      [],
    );
    const detail = await call('GET', `/repos/octo/app/hooks/${hookId}/deliveries/${listed.json[0].id}`);
    expect(detail.json.response).toEqual({
      headers: expect.objectContaining({ 'x-receiver': 'yes' }),
      payload: 'thanks',
    });
    expect(detail.json.request.headers['X-Service-Event']).toBe('ping');
    expect(
      await conforms('repository-webhooks', 'GET', `/repos/octo/app/hooks/${hookId}/deliveries/1`, detail),
    ).toEqual([]);

    const redeliver = await call('POST', `/repos/octo/app/hooks/${hookId}/deliveries/${listed.json[0].id}/attempts`);
    expect(redeliver.status).toBe(202);
    expect(redeliver.text).toBe('');
    await receiver.waitFor(2);
    await sandbox.settle();
    const after = await call('GET', `/repos/octo/app/hooks/${hookId}/deliveries`);
    expect(after.json[0]).toMatchObject({ event: 'ping', redelivery: true });
  });

  it('sends a push test only to a hook subscribed to push, answering 204 either way', async () => {
    const pushHook = await call('POST', '/repos/octo/app/hooks', { config: { url: receiver.url + '?push' } });
    const prHook = await call('POST', '/repos/octo/app/hooks', {
      events: ['pull_request'],
      config: { url: receiver.url + '?pr' },
    });
    expect(pushHook.json.events).toEqual(['push']);
    expect((await call('POST', `/repos/octo/app/hooks/${prHook.json.id}/tests`)).status).toBe(204);
    expect((await call('POST', `/repos/octo/app/hooks/${pushHook.json.id}/tests`)).status).toBe(204);
    await sandbox.settle();
    expect(receiver.received.map((r) => r.headers['x-service-event'])).toEqual(['push']);
    expect((await call('GET', `/repos/octo/app/hooks/${prHook.json.id}/deliveries`)).json).toEqual([]);
  });

  it('records a failed connection as a delivery instead of failing', async () => {
    const port = await freePort();
    const hook = await call('POST', '/repos/octo/app/hooks', { config: { url: `http://127.0.0.1:${port}/nowhere` } });
    expect((await call('POST', `/repos/octo/app/hooks/${hook.json.id}/pings`)).status).toBe(204);
    await sandbox.settle();
    const listed = await call('GET', `/repos/octo/app/hooks/${hook.json.id}/deliveries`);
    expect(listed.json).toEqual([
      expect.objectContaining({ status_code: 0, status: expect.stringContaining('ECONNREFUSED') }),
    ]);
    const read = await call('GET', `/repos/octo/app/hooks/${hook.json.id}`);
    expect(read.json.last_response).toMatchObject({ code: null, status: 'failed' });
    expect(await conforms('repository-webhooks', 'GET', `/repos/octo/app/hooks/${hook.json.id}`, read)).toEqual([]);
  });
});

describe('sandbox: webhooks state and rules', () => {
  it('keeps what you create, masks the secret, and follows events, add_events and remove_events', async () => {
    const created = await call('POST', '/repos/octo/app/hooks', {
      name: 'web',
      events: ['push'],
      config: { url: 'http://127.0.0.1:9/a', secret: 'shh-123456' },
    });
    const id = created.json.id;
    const config = await call('GET', `/repos/octo/app/hooks/${id}/config`);
    expect(config.json.secret).toBe('********');
    expect(await conforms('repository-webhooks', 'GET', `/repos/octo/app/hooks/${id}/config`, config)).toEqual([]);
    const replaced = await call('PATCH', `/repos/octo/app/hooks/${id}`, { events: ['issues'] });
    expect(replaced.json.events).toEqual(['issues']);
    expect(
      (await call('PATCH', `/repos/octo/app/hooks/${id}`, { add_events: ['push', 'issues'] })).json.events,
    ).toEqual(['issues', 'push']);
    expect((await call('PATCH', `/repos/octo/app/hooks/${id}`, { remove_events: ['issues'] })).json.events).toEqual([
      'push',
    ]);
    // Sending config without the secret removes it (seed, update rule).
    await call('PATCH', `/repos/octo/app/hooks/${id}`, { config: { url: 'http://127.0.0.1:9/a' } });
    expect((await call('GET', `/repos/octo/app/hooks/${id}/config`)).json.secret).toBeUndefined();
    expect((await call('DELETE', `/repos/octo/app/hooks/${id}`)).status).toBe(204);
    expect((await call('GET', `/repos/octo/app/hooks/${id}`)).status).toBe(404);
  });

  it('pages the webhook list with per_page and page, with a Link header', async () => {
    for (let i = 0; i < 3; i++)
      await call('POST', '/repos/octo/app/hooks', { events: [`e${i}`], config: { url: `http://127.0.0.1:9/${i}` } });
    const first = await call('GET', '/repos/octo/app/hooks?per_page=2');
    expect(first.json).toHaveLength(2);
    expect(first.headers.get('link')).toContain('page=2>; rel="next"');
    const second = await call('GET', '/repos/octo/app/hooks?per_page=2&page=2');
    expect(second.json).toHaveLength(1);
  });

  it('refuses a second hook with the same config and overlapping events', async () => {
    await call('POST', '/repos/octo/app/hooks', { config: { url: 'http://127.0.0.1:9/same' } });
    const clash = await call('POST', '/repos/octo/app/hooks', {
      events: ['push', 'issues'],
      config: { url: 'http://127.0.0.1:9/same' },
    });
    expect(clash.status).toBe(422);
    const fine = await call('POST', '/repos/octo/app/hooks', {
      events: ['issues'],
      config: { url: 'http://127.0.0.1:9/same' },
    });
    expect(fine.status).toBe(201);
  });

  const bad: [string, { method: string; path: string; body?: unknown; status: number; message: RegExp }][] = [
    [
      'a create with wrong types',
      {
        method: 'POST',
        path: '/repos/octo/app/hooks',
        body: { name: 5, events: 'push' },
        status: 422,
        message: /\/events must be array/,
      },
    ],
    [
      'a create with an unknown field',
      {
        method: 'POST',
        path: '/repos/octo/app/hooks',
        body: { name: 'web', colour: 'red' },
        status: 422,
        message: /"colour"/,
      },
    ],
    [
      'a create with an update-only config field',
      {
        method: 'POST',
        path: '/repos/octo/app/hooks',
        body: { config: { url: 'https://x', room: 'r' } },
        status: 422,
        message: /"room"/,
      },
    ],
    [
      'an update with config but no url',
      {
        method: 'PATCH',
        path: '/repos/octo/app/hooks/HOOK',
        body: { config: { content_type: 'json' } },
        status: 422,
        message: /required property "url"/,
      },
    ],
    [
      'per_page over 100',
      {
        method: 'GET',
        path: '/repos/octo/app/hooks?per_page=101',
        status: 422,
        message: /per_page must be at most 100/,
      },
    ],
    [
      'per_page over 100 on deliveries',
      {
        method: 'GET',
        path: '/repos/octo/app/hooks/HOOK/deliveries?per_page=101',
        status: 422,
        message: /at most 100/,
      },
    ],
    [
      'a body that is not JSON',
      {
        method: 'POST',
        path: '/repos/octo/app/hooks',
        body: '{"name":',
        status: 400,
        message: /Problems parsing JSON/,
      },
    ],
    [
      'an unknown repository',
      { method: 'GET', path: '/repos/nobody/nothing/hooks', status: 404, message: /Not Found/ },
    ],
    ['an unknown hook', { method: 'GET', path: '/repos/octo/app/hooks/999999', status: 404, message: /Not Found/ }],
    ['a non-integer hook id', { method: 'GET', path: '/repos/octo/app/hooks/abc', status: 404, message: /Not Found/ }],
    [
      'an unknown delivery',
      {
        method: 'GET',
        path: '/repos/octo/app/hooks/HOOK/deliveries/999999',
        status: 422,
        message: /delivery 999999 does not exist/,
      },
    ],
  ];

  it.each(bad)(
    'answers %s with a message and changes nothing',
    async (_name, { method, path: urlPath, body, status, message }) => {
      const existing = await call('POST', '/repos/octo/app/hooks', { config: { url: 'http://127.0.0.1:9/keep' } });
      const before = await call('GET', '/repos/octo/app/hooks');
      const result = await call(method, urlPath.replace('HOOK', String(existing.json.id)), body);
      expect(result.status).toBe(status);
      const errors = ((result.json.errors ?? []) as { message: string }[]).map((error) => error.message);
      expect([result.json.message, ...errors].join('\n')).toMatch(message);
      expect((await call('GET', '/repos/octo/app/hooks')).text).toBe(before.text);
    },
  );
});

describe('sandbox: client session', () => {
  const headers = { 'X-API-KEY': 'any-key', 'X-API-VERSION': '2.4' };
  it.each([
    ['the demo session without a client token', { query: '', headers, status: 200 }],
    ['the demo session for demo-client-token', { query: '?clientToken=demo-client-token', headers, status: 200 }],
    ['a session from --sessions', { query: '?clientToken=tok-123', headers, status: 200 }],
    ['404 for an unknown client token', { query: '?clientToken=unknown', headers, status: 404 }],
    ['401 without X-API-KEY', { query: '', headers: { 'X-API-VERSION': '2.4' }, status: 401 }],
    ['400 for X-API-VERSION 2.3', { query: '', headers: { 'X-API-KEY': 'k', 'X-API-VERSION': '2.3' }, status: 400 }],
  ])('answers %s', async (_name, { query, headers: sent, status }) => {
    const result = await call('GET', `/client-session${query}`, undefined, sent);
    expect(result.status).toBe(status);
    if (status === 200) expect(await conforms('client-session', 'GET', '/client-session', result)).toEqual([]);
    else expect(result.json.message).toBeTruthy();
    if (query.includes('tok-123')) expect(result.json.orderId).toBe('order-from-file');
  });
});

describe('sandbox: reset and the full conformance sequence', () => {
  it('POST /__sandbox/reset clears every hook', async () => {
    await call('POST', '/repos/octo/app/hooks', { config: { url: 'http://127.0.0.1:9/x' } });
    expect((await call('POST', '/__sandbox/reset')).status).toBe(204);
    expect((await call('GET', '/repos/octo/app/hooks')).json).toEqual([]);
  });

  it('passes `contracts check --api all --base-url <sandbox>` with nothing skipped, also with --strict', async () => {
    for (const extra of [[], ['--strict']]) {
      const result = await runCli(['check', '--api', 'all', '--base-url', sandbox.url, ...extra]);
      expect(result.stdout, result.stdout).toMatch(/\n\d+ passed, 0 failed, 0 skipped$/m);
      expect(result.code).toBe(0);
    }
  });
});

describe('contracts sandbox (real process)', () => {
  it.each([
    ['a sessions file that does not exist', ['--sessions', 'nope.json'], /sessions file not found: nope\.json/],
    ['a bad port', ['--port', 'x'], /--port must be a port number/],
    ['a bad repository', ['--repository', 'justone'], /a repository is owner\/name/],
  ])('exits 2 for %s', async (_name, args, message) => {
    const result = await runCli(['sandbox', ...args]);
    expect(result.stderr).toMatch(message);
    expect(result.code).toBe(2);
  });

  it('exits 2 for a sessions file whose session breaks the schema, without printing the token', async () => {
    const file = path.join(dir, 'bad-sessions.json');
    await writeFile(file, JSON.stringify({ 'secret-token-xyz': { orderId: 'no payment method' } }));
    const result = await runCli(['sandbox', '--port', '0', '--sessions', file]);
    expect(result.stderr).toContain(
      'session #1 does not match the ClientSession schema: paymentMethod is missing: put it at the top level, under order, or both',
    );
    expect(result.stderr).not.toContain('secret-token-xyz');
    expect(result.code).toBe(2);
  });

  it('exits 2 naming the port when it is taken', async () => {
    const result = await runCli(['sandbox', '--port', String(sandbox.port)]);
    expect(result.stderr).toContain(`port ${sandbox.port} for the sandbox is already in use`);
    expect(result.code).toBe(2);
  });
});
