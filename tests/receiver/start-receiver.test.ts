// startReceiver over real sockets: the sandbox's signed deliveries verify; a wrong secret, a body over the cap and
// more deliveries than it keeps are handled within bounds.
import { createHmac } from 'node:crypto';
import { sign } from '@octokit/webhooks-methods';
import { afterEach, describe, expect, it } from 'vitest';
import { startReceiver, type Receiver } from '../../src/receiver/start-receiver.js';
import { startSandbox, type Sandbox } from '../../src/plugins/example-sandbox.js';

const secret = 'receiver-test-secret-1234';
let receiver: Receiver | undefined;
let sandbox: Sandbox | undefined;
afterEach(async () => {
  await receiver?.stop();
  await sandbox?.stop();
  receiver = sandbox = undefined;
});

const api = (base: string) => ({
  post: (path: string, body?: unknown) =>
    fetch(`${base}/repos/octo/app${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      ...(body ? { body: JSON.stringify(body) } : {}),
    }),
});

async function signedPost(
  url: string,
  body: string,
  key: string,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    body,
    headers: {
      'content-type': 'application/json',
      'user-agent': 'test',
      'x-service-delivery': '0b989ba4-242f-11e5-81e1-c7b6966d2516',
      'x-service-event': 'ping',
      'x-service-hook-id': '1',
      'x-service-hook-installation-target-id': '2',
      'x-service-hook-installation-target-type': 'repository',
      'x-hub-signature-256': await sign(key, body),
      'x-hub-signature': `sha1=${createHmac('sha1', key).update(body).digest('hex')}`,
      ...headers,
    },
  });
}

describe('startReceiver', () => {
  it.each([
    ['json', 'application/json'],
    ['form', 'application/x-www-form-urlencoded'],
  ])("verifies the sandbox's signed ping and push deliveries with content_type %s", async (contentType, mediaType) => {
    receiver = await startReceiver({ port: 0, secret, expect: () => ({ contentType }) });
    sandbox = await startSandbox({ port: 0 });
    const created = await api(sandbox.url).post('/hooks', {
      name: 'web',
      events: ['push'],
      config: { url: `${receiver.url}/hook`, content_type: contentType, secret },
    });
    const { id } = (await created.json()) as { id: number };
    await api(sandbox.url).post(`/hooks/${id}/pings`);
    await api(sandbox.url).post(`/hooks/${id}/tests`);
    const ping = await receiver.waitFor((delivery) => delivery.result.event === 'ping', 10_000);
    const push = await receiver.waitFor((delivery) => delivery.result.event === 'push', 10_000);
    for (const delivery of [ping, push]) {
      expect(delivery?.result.findings).toEqual([]);
      expect(delivery?.result.applied).toContain('delivery_signature');
      expect(delivery?.headers['content-type']).toBe(mediaType);
      expect(delivery?.status).toBe(200);
    }
    expect(ping?.result.hookId).toBe(String(id));
  });

  it('finds a delivery signed with another secret, and answers 400 with --reject-invalid', async () => {
    receiver = await startReceiver({ port: 0, secret, rejectInvalid: true });
    const response = await signedPost(receiver.url, '{"zen":"z"}', 'some-other-secret');
    expect(response.status).toBe(400);
    expect(receiver.deliveries[0]?.result.findings.map((finding) => finding.check)).toEqual([
      'delivery_signature',
      'delivery_signature',
    ]);
    const ok = await signedPost(receiver.url, '{"zen":"z"}', secret);
    expect(ok.status).toBe(200);
  });

  it('answers 413 to a body over its cap without reading it, and reports it as a delivery_payload_schema finding', async () => {
    receiver = await startReceiver({ port: 0, secret, maxBodyBytes: 1024 });
    const response = await signedPost(receiver.url, JSON.stringify({ zen: 'x'.repeat(4096) }), secret);
    expect(response.status).toBe(413);
    const [stored] = receiver.deliveries;
    expect(stored?.result.findings.map((finding) => finding.message)).toEqual([
      expect.stringContaining("over the receiver's 1024-byte limit"),
    ]);
  });

  it('answers 431 to headers over its cap', async () => {
    receiver = await startReceiver({ port: 0, maxHeaderBytes: 2048 });
    const response = await signedPost(receiver.url, '{}', secret, { 'x-padding': 'p'.repeat(4096) });
    expect(response.status).toBe(431);
    expect(receiver.deliveries).toHaveLength(0);
  });

  it('keeps at most maxStored deliveries, the newest, and counts the ones it let go', async () => {
    receiver = await startReceiver({ port: 0, maxStored: 3 });
    for (let index = 0; index < 5; index++) await signedPost(receiver.url, `{"n":${index}}`, secret);
    expect(receiver.deliveries.map((delivery) => delivery.seq)).toEqual([3, 4, 5]);
    expect(receiver.dropped).toBe(2);
  });

  it('waitFor resolves with a delivery still to come, and with undefined when none comes in time', async () => {
    receiver = await startReceiver({ port: 0 });
    const waiting = receiver.waitFor((delivery) => delivery.result.event === 'ping', 10_000);
    await signedPost(receiver.url, '{}', secret);
    expect((await waiting)?.result.event).toBe('ping');
    expect(await receiver.waitFor((delivery) => delivery.result.event === 'push', 50)).toBeUndefined();
  });
});
