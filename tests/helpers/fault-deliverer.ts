// A fault-injecting deliverer: the real sandbox behind a proxy that breaks one delivery rule at a time. The proxy
// points every hook's config.url at its own relay (and shows the original URL back in every answer); the relay
// alters each delivery the sandbox makes as the fault says, forwards it to the original URL, and answers the
// sandbox with what the target answered. Delivery records are rewritten to hold what the relay actually sent, so a
// fault shows where it belongs (only `record-differs` makes a record lie).
import { createHmac, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sign } from '@octokit/webhooks-methods';
import { startSandbox, type Sandbox } from '../../src/plugins/example-sandbox.js';

export const deliveryFaults = [
  'wrong-secret',
  'sha1-missing',
  'sha256-other-body',
  'no-delivery-header',
  'guid-mismatch',
  'wrong-event',
  'payload-breaks-schema',
  'record-differs',
  'test-delivers-unsubscribed',
] as const;
export type DeliveryFault = (typeof deliveryFaults)[number];

export interface FaultDeliverer {
  url: string;
  stop(): Promise<void>;
}

interface RelayedHook {
  target: string;
  secret: string | null;
}

interface Sent {
  headers: Record<string, string>;
  payload: unknown;
}

export async function startFaultDeliverer(fault: DeliveryFault | undefined): Promise<FaultDeliverer> {
  const sandbox: Sandbox = await startSandbox({ port: 0 });
  const relays = new Map<string, RelayedHook>();
  const sentByGuid = new Map<string, Sent>();
  let self = '';
  const relayUrl = (id: string) => `${self}/__relay/${id}`;

  const relayFor = (config: Record<string, unknown>): void => {
    if (typeof config.url !== 'string') return;
    const id = [...relays].find(([, hook]) => hook.target === config.url)?.[0] ?? String(relays.size + 1);
    relays.set(id, {
      target: config.url,
      secret: typeof config.secret === 'string' && config.secret !== '' ? config.secret : null,
    });
    config.url = relayUrl(id);
  };
  /** Every relay URL in an answer shown as the hook's own URL again. */
  const unrelay = (text: string): string => {
    let result = text;
    for (const [id, hook] of relays)
      result = result.split(JSON.stringify(relayUrl(id))).join(JSON.stringify(hook.target));
    return result;
  };

  const relay = async (id: string, request: http.IncomingMessage, body: Buffer, response: http.ServerResponse) => {
    const hook = relays.get(id);
    if (!hook) return send(response, 404, {}, 'no such relay');
    const headers = Object.fromEntries(
      Object.entries(request.headers)
        .filter(([name]) => /^(x-|user-agent|accept|content-type)/i.test(name))
        .map(([name, value]) => [name, String(value)]),
    );
    const originalGuid = headers['x-service-delivery'] ?? '';
    let text = body.toString('utf8');
    const resign = async (key: string | null, over = text) => {
      if (key === null) return;
      headers['x-hub-signature-256'] = await sign(key, over);
      headers['x-hub-signature'] = `sha1=${createHmac('sha1', key).update(over).digest('hex')}`;
    };
    // The payload may carry the hook (a ping does): it shows the hook's own URL, as every answer does, re-signed.
    const shown = unrelay(text);
    if (shown !== text) {
      text = shown;
      await resign(hook.secret);
    }
    if (fault === 'wrong-secret' && hook.secret !== null) await resign('a-secret-the-hook-was-never-given');
    if (fault === 'sha1-missing') delete headers['x-hub-signature'];
    if (fault === 'sha256-other-body' && hook.secret !== null)
      headers['x-hub-signature-256'] = await sign(hook.secret, `${text} `);
    if (fault === 'no-delivery-header') delete headers['x-service-delivery'];
    if (fault === 'guid-mismatch') headers['x-service-delivery'] = randomUUID();
    if (fault === 'wrong-event' && headers['x-service-event'] === 'ping') headers['x-service-event'] = 'pong';
    if (fault === 'payload-breaks-schema') {
      // Ping and push payloads are open objects in the spec: a JSON array is what breaks them.
      text = JSON.stringify([JSON.parse(text)]);
      await resign(hook.secret);
    }
    sentByGuid.set(originalGuid, { headers: { ...headers }, payload: JSON.parse(text) });
    await forward(hook.target, headers, text, response);
  };

  const server = http.createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const path = request.url ?? '/';
    const relayed = /^\/__relay\/(\d+)$/.exec(path);
    if (relayed) return relay(relayed[1]!, request, body, response);

    let outgoing = body.length > 0 ? body.toString('utf8') : undefined;
    const method = request.method ?? 'GET';
    if (outgoing !== undefined && (method === 'POST' || method === 'PATCH')) {
      try {
        const json = JSON.parse(outgoing) as Record<string, unknown>;
        if (/\/config$/.test(path.split('?')[0]!)) relayFor(json);
        else if (json.config !== null && typeof json.config === 'object')
          relayFor(json.config as Record<string, unknown>);
        outgoing = JSON.stringify(json);
      } catch {
        // Not JSON: the sandbox says so.
      }
    }
    const upstream = await fetch(`${sandbox.url}${path}`, {
      method,
      headers: Object.fromEntries(
        Object.entries(request.headers)
          .filter(([name]) => !['host', 'content-length', 'connection'].includes(name))
          .map(([name, value]) => [name, String(value)]),
      ),
      ...(outgoing === undefined ? {} : { body: outgoing }),
    });
    let text = await upstream.text();
    const testOf = /^\/repos\/[^/]+\/[^/]+\/hooks\/(\d+)\/tests$/.exec(path);
    if (fault === 'test-delivers-unsubscribed' && testOf && upstream.status === 204) await pushAnyway(testOf[1]!, path);
    if (/\/deliveries\/\d+$/.test(path.split('?')[0]!) && upstream.status === 200) text = rewriteRecord(text);
    const headers = Object.fromEntries(
      [...upstream.headers].filter(
        ([name]) => !['content-length', 'transfer-encoding', 'content-encoding', 'connection'].includes(name),
      ),
    );
    send(response, upstream.status, headers, unrelay(text));
  });

  /** The record shows what the relay sent (or, for record-differs, a payload that was never sent). */
  const rewriteRecord = (text: string): string => {
    const record = JSON.parse(text) as { guid?: string; request?: { headers?: unknown; payload?: unknown } };
    const sent = typeof record.guid === 'string' ? sentByGuid.get(record.guid) : undefined;
    if (sent && record.request) {
      record.request.headers = sent.headers;
      record.request.payload = sent.payload;
    }
    if (fault === 'record-differs' && record.request) record.request.payload = { recorded: 'not what was sent' };
    return JSON.stringify(record);
  };

  /** A push delivery to a hook that is not subscribed to push, as a faulty service would make one. */
  const pushAnyway = async (hookId: string, testPath: string) => {
    const hookResponse = await fetch(`${sandbox.url}${testPath.replace(/\/tests$/, '')}`);
    const hook = (await hookResponse.json()) as { events?: string[]; config?: { url?: string } };
    const id = /\/__relay\/(\d+)$/.exec(hook.config?.url ?? '')?.[1];
    const relayed = id === undefined ? undefined : relays.get(id);
    if (!relayed || hook.events?.includes('push')) return;
    const text = JSON.stringify({ ref: 'refs/heads/main', repository: { id: 1 } });
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': 'Service-Hookshot/fault',
      'x-service-delivery': randomUUID(),
      'x-service-event': 'push',
      'x-service-hook-id': hookId,
      'x-service-hook-installation-target-id': '1',
      'x-service-hook-installation-target-type': 'repository',
    };
    if (relayed.secret !== null) {
      headers['x-hub-signature-256'] = await sign(relayed.secret, text);
      headers['x-hub-signature'] = `sha1=${createHmac('sha1', relayed.secret).update(text).digest('hex')}`;
    }
    await fetch(relayed.target, { method: 'POST', headers, body: text }).catch(() => undefined);
  };

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  self = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: self,
    async stop() {
      await sandbox.settle();
      await new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
      await sandbox.stop();
    },
  };
}

async function forward(
  target: string,
  headers: Record<string, string>,
  body: string,
  response: http.ServerResponse,
): Promise<void> {
  try {
    const answer = await fetch(target, {
      method: 'POST',
      headers,
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(10_000),
    });
    send(
      response,
      answer.status,
      { 'content-type': answer.headers.get('content-type') ?? 'text/plain' },
      await answer.text(),
    );
  } catch {
    response.destroy();
  }
}

function send(response: http.ServerResponse, status: number, headers: Record<string, string>, body: string): void {
  response.writeHead(status, headers);
  response.end(status === 204 ? undefined : body);
}
