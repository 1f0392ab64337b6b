// The sandbox behind a proxy that plants bugs of different classes, each tied to an input or a sequence a careful
// fuzzer reaches: `contracts fuzz` must find every one, under several seeds, with a curl line that reproduces it.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startSandbox } from '../../src/plugins/example-sandbox.js';

export interface PlantedBug {
  name: string;
  /** What the fuzzer must report: the check and the operation. */
  check: string;
  operation: string;
}

export const plantedBugs: PlantedBug[] = [
  { name: 'a 500 on a non-ASCII hook name', check: 'not_a_server_error', operation: 'createWebhook' },
  { name: 'a 500 on a very long content_type', check: 'not_a_server_error', operation: 'updateWebhookConfig' },
  { name: 'an unknown body field accepted', check: 'negative_data_rejection', operation: 'createWebhook' },
  { name: 'any X-API-VERSION accepted', check: 'negative_data_rejection', operation: 'retrieveClientSession' },
  { name: 'a request without X-API-KEY served', check: 'ignored_auth', operation: 'retrieveClientSession' },
  // In a parameter the run fills from a credential (CLIENT_SESSION_CLIENT_TOKEN): out of reach until such a
  // parameter had cases of its own (Schemathesis found it).
  {
    name: 'a 500 on a clientToken over 64 characters',
    check: 'not_a_server_error',
    operation: 'retrieveClientSession',
  },
  { name: 'active: false refused', check: 'positive_data_acceptance', operation: 'updateWebhook' },
  { name: 'a 203 for per_page=1', check: 'status_code_conformance', operation: 'listWebhookDeliveries' },
  { name: 'string ids for per_page=100', check: 'response_schema_conformance', operation: 'listWebhooks' },
  { name: 'a deleted hook still served', check: 'use_after_free', operation: 'getWebhook' },
  {
    name: 'hooks with a secret left out of the list',
    check: 'ensure_resource_availability',
    operation: 'createWebhook',
  },
  { name: 'remove_events ignored once the hook was pinged', check: 'remove_events', operation: 'updateWebhook' },
  { name: 'the secret in clear in the config', check: 'secret_masked', operation: 'getWebhookConfig' },
  { name: 'events default to push and pull_request', check: 'events_default_push', operation: 'createWebhook' },
  // Reached only at the end of a three-step sequence: a hook created with a secret, its config updated, then read.
  {
    name: 'a 500 reading the config of a secret hook after a config update',
    check: 'not_a_server_error',
    operation: 'getWebhookConfig',
  },
  {
    name: 'a redelivery of a redelivery answered 200 with a body',
    check: 'status_code_conformance',
    operation: 'redeliverWebhookDelivery',
  },
];

export interface BuggyServer {
  url: string;
  close(): Promise<void>;
}

export async function startBuggyServer(): Promise<BuggyServer> {
  const sandbox = await startSandbox({ port: 0, host: '127.0.0.1' });
  const deleted = new Map<string, string>();
  const lastBody = new Map<string, string>();
  const pinged = new Set<string>();
  const withSecret = new Set<number>();
  const secrets = new Map<number, string>();
  const configUpdated = new Set<number>();
  const server = http.createServer(async (incoming, outgoing) => {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    let bodyText = Buffer.concat(chunks).toString('utf8');
    const url = new URL(incoming.url ?? '/', 'http://buggy.invalid');
    const method = incoming.method ?? 'GET';
    const headers = Object.fromEntries(
      Object.entries(incoming.headers)
        .filter(([name]) => !['host', 'content-length', 'connection'].includes(name))
        .map(([name, value]) => [name, String(value)]),
    );
    const json = parse(bodyText);
    const hookPath = /^\/repos\/[^/]+\/[^/]+\/hooks\/(\d+)$/.exec(url.pathname);
    const answer = (status: number, body?: unknown, extra: Record<string, string> = {}) => {
      outgoing.writeHead(status, { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...extra });
      outgoing.end(body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body));
    };
    const isCreate = method === 'POST' && /^\/repos\/[^/]+\/[^/]+\/hooks$/.test(url.pathname);
    if (isCreate && isObject(json) && typeof json.name === 'string' && /[^\x00-\x7f]/.test(json.name))
      return answer(500, { message: 'internal error' });
    if (
      method === 'PATCH' &&
      url.pathname.endsWith('/config') &&
      isObject(json) &&
      typeof json.content_type === 'string' &&
      json.content_type.length > 1000
    )
      return answer(500, { message: 'value too long for column' });
    if (isCreate && isObject(json) && 'unexpected_field' in json) {
      delete json.unexpected_field;
      bodyText = JSON.stringify(json);
    }
    if (url.pathname === '/client-session' && (url.searchParams.get('clientToken') ?? '').length > 64)
      return answer(500, { message: 'token column overflow' });
    if (url.pathname === '/client-session') {
      if (!headers['x-api-key']) headers['x-api-key'] = 'injected';
      headers['x-api-version'] = '2.4';
    }
    if (method === 'PATCH' && hookPath && isObject(json) && json.active === false)
      return answer(422, { message: 'cannot deactivate' });
    if (hookPath && method === 'GET' && deleted.has(hookPath[1]!)) return answer(200, deleted.get(hookPath[1]!));
    const pingPath = /\/hooks\/(\d+)\/pings$/.exec(url.pathname);
    if (hookPath && method === 'PATCH' && isObject(json) && 'remove_events' in json && pinged.has(hookPath[1]!)) {
      delete json.remove_events;
      bodyText = JSON.stringify(json);
    }

    // Reached only by following links: list a hook's deliveries after a redelivery, then redeliver the newest again.
    const attempts = method === 'POST' ? /^(.*\/deliveries\/\d+)\/attempts$/.exec(url.pathname) : null;
    const original = attempts ? parse(await (await fetch(sandbox.url + attempts[1], { headers })).text()) : undefined;
    const redeliveredAgain = isObject(original) && original.redelivery === true;
    const response = await fetch(sandbox.url + url.pathname + url.search, {
      method,
      headers,
      redirect: 'manual',
      ...(bodyText && method !== 'GET' ? { body: bodyText } : {}),
    });
    let text = await response.text();
    const out: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      if (!['content-length', 'connection', 'keep-alive', 'transfer-encoding'].includes(name)) out[name] = value;
    });
    let status = response.status;
    if (pingPath && status === 204) pinged.add(pingPath[1]!);
    if (hookPath && method === 'GET' && status === 200) lastBody.set(hookPath[1]!, text);
    if (hookPath && method === 'DELETE' && status === 204 && lastBody.has(hookPath[1]!))
      deleted.set(hookPath[1]!, lastBody.get(hookPath[1]!)!);
    const result = parse(text);
    if (isCreate && status === 201 && isObject(result)) {
      if (
        isObject(json) &&
        isObject(json.config) &&
        typeof json.config.secret === 'string' &&
        typeof result.id === 'number'
      ) {
        withSecret.add(result.id);
        secrets.set(result.id, json.config.secret);
      }
      if (isObject(json) && json.events === undefined)
        text = JSON.stringify({ ...result, events: ['push', 'pull_request'] });
    }
    if (method === 'GET' && /\/hooks$/.test(url.pathname) && status === 200 && Array.isArray(result)) {
      let items = result.filter((item) => !(isObject(item) && typeof item.id === 'number' && withSecret.has(item.id)));
      if (url.searchParams.get('per_page') === '100')
        items = items.map((item) => (isObject(item) ? { ...item, id: String(item.id) } : item));
      text = JSON.stringify(items);
    }
    if (
      method === 'GET' &&
      url.pathname.endsWith('/deliveries') &&
      url.searchParams.get('per_page') === '1' &&
      status === 200
    )
      status = 203;
    const configPath = /\/hooks\/(\d+)\/config$/.exec(url.pathname);
    if (configPath && method === 'PATCH' && status === 200) configUpdated.add(Number(configPath[1]));
    if (
      configPath &&
      method === 'GET' &&
      withSecret.has(Number(configPath[1])) &&
      configUpdated.has(Number(configPath[1]))
    )
      return answer(500, { message: 'config cache out of step' });
    if (configPath && method === 'GET' && status === 200 && isObject(result) && result.secret !== undefined) {
      // The secret sent on create, returned in clear.
      text = JSON.stringify({ ...result, secret: secrets.get(Number(configPath[1])) ?? result.secret });
    }
    if (redeliveredAgain && status === 202) {
      outgoing.writeHead(200, { 'content-type': 'application/json' });
      return outgoing.end(JSON.stringify({ message: 'queued again' }));
    }
    outgoing.writeHead(status, out);
    outgoing.end(status === 204 || status === 202 ? undefined : text);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await sandbox.stop();
    },
  };
}

function parse(text: string): unknown {
  try {
    return text === '' ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
