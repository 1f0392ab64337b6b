// A small stateful server for both APIs that conforms to the specs, unless told to break exactly one rule
// (a fault). The conformance tests point `contracts check` at it over a real socket.
import { createHmac, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export const faults = [
  'status_code',
  'content_type',
  'body_on_202',
  'schema',
  'placement',
  'auth',
  'version',
  'events_default',
  'events_replace',
  'add_events',
  'remove_events',
  'secret_in_hook',
  'redelivery_flag',
  'deleted_hook',
  'per_page',
  'per_page_cap',
  'headers',
  'echo_secrets',
  // Webhooks seed rules (issue 10) and answers that keep checks from being exercised.
  'config_whole_hook',
  'secret_kept',
  'secret_dropped',
  'ping_wrong_event',
  'test_no_push',
  'test_unsubscribed',
  'delivery_headers',
  'shared_config',
  'page_ignored',
  'cursor_ignored',
  'created_not_found',
  'unknown_repo',
  'create_without_id',
  'list_406',
  'no_deliveries',
  'per_page_cap_406',
  'null_in_list',
  'bad_delivery_item',
  // Hostile client-session bodies and answers (reliability tests).
  'not_json',
  'html',
  'empty_200',
  'truncated',
  'huge',
  'deep',
  'bad_utf8',
  'duplicate_keys',
  'server_error',
  'rate_limit_twice',
  'rate_limit_always',
  'reset_mid_body',
  // Issue 11: headers over Node's limit, a body that never ends, and the API key echoed where redaction must find it
  // (a response header, a body that is not JSON, a duplicate key written with an escape).
  'huge_header',
  'stalled_body',
  'echo_in_headers',
  'echo_not_json',
  'echo_duplicate_key',
] as const;
export type Fault = (typeof faults)[number];

export interface FaultServerOptions {
  faults?: Fault[];
  /** Delay the answer to requests whose path ends like this (to interrupt a run mid-way). */
  slow?: { pathSuffix: string; ms: number; onRequest?: () => void };
  /**
   * Answer every request with this status and a Location on another server (`to`), carrying the request's path
   * and query and, as `seen`, the X-API-KEY it was sent.
   */
  redirect?: { to: string; status: number };
}

interface Hook {
  id: number;
  owner: string;
  repo: string;
  name: string;
  active: boolean;
  events: string[];
  config: Record<string, unknown>;
  created_at: string;
  updated_at: string;
  deleted: boolean;
}
interface Delivery {
  id: number;
  hookId: number;
  guid: string;
  event: string;
  redelivery: boolean;
  delivered_at: string;
  signed: boolean;
  headers: Record<string, string>;
  payload: Record<string, unknown>;
  statusCode: number;
}

export interface FaultServer {
  url: string;
  /** Hooks that exist (not deleted). */
  liveHooks(): Hook[];
  /** Every config.secret the server was sent. */
  secretsSeen: string[];
  /** Every request seen, as `METHOD path`. */
  requests: string[];
  close(): Promise<void>;
}

const session = (pm: unknown) => ({
  customerId: 'customer-123',
  orderId: 'order-1',
  currencyCode: 'EUR',
  amount: 1300,
  order: {
    lineItems: [{ itemId: 'i-1', description: 'Shoes', amount: 1000, quantity: 1 }],
    paymentMethod: pm,
    authorizationType: 'ESTIMATED',
  },
});

export async function startFaultServer(options: FaultServerOptions = {}): Promise<FaultServer> {
  const broken = new Set(options.faults ?? []);
  const hooks: Hook[] = [];
  const deliveries: Delivery[] = [];
  const secretsSeen: string[] = [];
  const requests: string[] = [];
  let nextId = 100;
  const now = () => new Date().toISOString();

  const hookBody = (hook: Hook, base: string) => {
    const { secret, ...config } = hook.config;
    return {
      type: 'Repository',
      id: hook.id,
      name: hook.name,
      active: hook.active,
      events: hook.events,
      config: broken.has('secret_in_hook') && secret !== undefined ? { ...config, secret } : config,
      created_at: hook.created_at,
      updated_at: hook.updated_at,
      url: `${base}/repos/${hook.owner}/${hook.repo}/hooks/${hook.id}`,
      test_url: `${base}/repos/${hook.owner}/${hook.repo}/hooks/${hook.id}/tests`,
      ping_url: `${base}/repos/${hook.owner}/${hook.repo}/hooks/${hook.id}/pings`,
      deliveries_url: `${base}/repos/${hook.owner}/${hook.repo}/hooks/${hook.id}/deliveries`,
      last_response: { code: null, status: 'unused', message: null },
    };
  };
  const configBody = (hook: Hook) => ({
    ...hook.config,
    ...(hook.config.secret !== undefined ? { secret: '********' } : {}),
  });
  const deliveryItem = (d: Delivery) => ({
    id: d.id,
    guid: d.guid,
    delivered_at: d.delivered_at,
    redelivery: d.redelivery,
    duration: 0.01,
    status: 'OK',
    status_code: broken.has('bad_delivery_item') ? 'two hundred' : 200,
    event: d.event,
    action: 'opened',
    installation_id: 1,
    repository_id: 1,
    ...(broken.has('bad_delivery_item') ? {} : { status_code: d.statusCode }),
  });
  const page = <T>(items: T[], perPage: number | undefined, pageNumber = 1) => {
    if (broken.has('per_page') || perPage === undefined) return items;
    const start = broken.has('page_ignored') ? 0 : (pageNumber - 1) * perPage;
    return items.slice(start, start + perPage);
  };

  const server = http.createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const method = request.method ?? 'GET';
    requests.push(`${method} ${url.pathname}`);
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    let body: Record<string, unknown> = {};
    try {
      body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    } catch {
      body = {};
    }
    if (options.slow && url.pathname.endsWith(options.slow.pathSuffix)) {
      options.slow.onRequest?.();
      await new Promise((resolve) => setTimeout(resolve, options.slow!.ms));
    }
    const base = `http://${request.headers.host}`;
    const apiKey = request.headers['x-api-key'];
    if (options.redirect) {
      const location = new URL(`${url.pathname}${url.search}`, options.redirect.to);
      if (typeof apiKey === 'string') location.searchParams.set('seen', apiKey);
      response.writeHead(options.redirect.status, { location: location.href, 'content-type': 'text/html' });
      return response.end(`<a href="${location.href}">moved</a>`);
    }
    const send = (
      status: number,
      payload?: unknown,
      contentType = 'application/json',
      extraHeaders: Record<string, string> = {},
    ) => {
      const data = payload === undefined ? '' : JSON.stringify(payload);
      response.writeHead(status, { ...(data ? { 'content-type': contentType } : {}), ...extraHeaders });
      response.end(data);
    };
    const perPageText = url.searchParams.get('per_page');
    const perPage = perPageText === null ? undefined : Number(perPageText);
    if (perPage !== undefined && perPage > 100) {
      if (broken.has('per_page_cap')) return send(500, { message: 'boom' });
      return broken.has('per_page_cap_406')
        ? send(406, { message: 'Not Acceptable' })
        : send(422, { message: 'per_page must be at most 100' });
    }

    if (url.pathname === '/client-session' && method === 'GET') {
      if (!request.headers['x-api-key'] && !broken.has('auth')) return send(401, { message: 'missing X-API-KEY' });
      if (request.headers['x-api-version'] !== '2.4' && !broken.has('version'))
        return send(400, { message: 'X-API-VERSION must be 2.4' });
      const raw = (status: number, contentType: string, payload: string | Buffer) => {
        response.writeHead(status, { 'content-type': contentType });
        response.end(payload);
      };
      const pmBody = { paymentMethod: { vaultOnSuccess: false } };
      if (broken.has('not_json')) return raw(200, 'application/json', 'this is not json');
      if (broken.has('html'))
        return raw(200, 'text/html; charset=utf-8', '<html><body><h1>502 Bad Gateway</h1></body></html>');
      if (broken.has('empty_200')) return raw(200, 'application/json', '');
      if (broken.has('truncated')) return raw(200, 'application/json', '{"customerId":"c","order":{"paymentMethod":');
      if (broken.has('huge'))
        return raw(200, 'application/json', JSON.stringify({ ...pmBody, metadata: { blob: 'x'.repeat(2 * 2 ** 20) } }));
      if (broken.has('deep'))
        return raw(
          200,
          'application/json',
          `{"paymentMethod":{},"metadata":{"deep":${'['.repeat(10_000)}${']'.repeat(10_000)}}}`,
        );
      if (broken.has('bad_utf8'))
        return raw(
          200,
          'application/json',
          Buffer.concat([Buffer.from('{"paymentMethod":{},"orderId":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]),
        );
      if (broken.has('duplicate_keys'))
        return raw(200, 'application/json', '{"paymentMethod":{},"orderId":"first","orderId":"second"}');
      if (broken.has('server_error')) return raw(500, 'application/json', '{"message":"boom"}');
      if (broken.has('huge_header')) {
        response.writeHead(200, { 'content-type': 'application/json', 'x-padding': 'x'.repeat(64 * 1024) });
        return response.end(JSON.stringify(pmBody));
      }
      if (broken.has('stalled_body')) {
        response.writeHead(200, { 'content-type': 'application/json' });
        return response.write('{"paymentMethod":');
      }
      const key = String(apiKey);
      if (broken.has('echo_not_json')) return raw(200, 'application/json', `${key} is not a JSON body: ${key}`);
      if (broken.has('echo_duplicate_key')) {
        const escaped = `\\u${key.charCodeAt(0).toString(16).padStart(4, '0')}${JSON.stringify(key.slice(1)).slice(1, -1)}`;
        return raw(
          200,
          'application/json',
          `{"paymentMethod":{},"metadata":{"${escaped}":1,${JSON.stringify(key)}:2}}`,
        );
      }
      if (broken.has('reset_mid_body')) {
        response.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
        response.write('{"paymentMethod":');
        setTimeout(() => request.socket.destroy(), 50);
        return;
      }
      const rateLimited = requests.filter((r) => r === 'GET /client-session').length;
      if (broken.has('rate_limit_always') || (broken.has('rate_limit_twice') && rateLimited <= 2)) {
        response.writeHead(429, { 'retry-after': '1', 'content-type': 'application/json' });
        return response.end('{"message":"slow down"}');
      }
      const pm = { vaultOnSuccess: false, vaultOn3DS: false, options: { GOOGLE_PAY: { surcharge: { amount: 50 } } } };
      const result: Record<string, unknown> = broken.has('placement')
        ? { ...session(undefined), order: { lineItems: [] } }
        : session(pm);
      if (broken.has('schema')) result.currencyCode = 'XXX';
      if (broken.has('echo_secrets'))
        result.metadata = { seenKey: request.headers['x-api-key'], seenToken: url.searchParams.get('clientToken') };
      const echoHeaders: Record<string, string> = broken.has('echo_in_headers')
        ? { 'x-echo-key': key, 'x-echo-token': url.searchParams.get('clientToken') ?? '' }
        : {};
      return send(
        broken.has('status_code') ? 201 : 200,
        result,
        broken.has('content_type') ? 'text/plain' : 'application/json',
        echoHeaders,
      );
    }
    if (url.pathname.startsWith('/items/')) {
      return send(
        200,
        { id: Number(url.pathname.split('/')[2]) },
        'application/json',
        broken.has('headers') ? {} : { 'X-Rate-Limit': '10' },
      );
    }

    const match =
      /^\/repos\/([^/]+)\/([^/]+)\/hooks(?:\/([^/]+))?(?:\/(config|pings|tests|deliveries))?(?:\/([^/]+))?(?:\/(attempts))?$/.exec(
        url.pathname,
      );
    if (!match) return send(404, { message: 'Not Found' });
    const [, owner, repo, hookIdText, sub, deliveryIdText, attempts] = match;
    if (broken.has('unknown_repo')) return send(404, { message: 'Not Found' });
    const echo = broken.has('echo_secrets') ? { echoedAuthorization: request.headers.authorization } : {};
    const pageNumber = Number(url.searchParams.get('page') ?? '1');
    if (hookIdText === undefined) {
      if (method === 'GET') {
        if (broken.has('list_406')) return send(406, { message: 'Not Acceptable' });
        const listed = page(
          hooks.filter((h) => !h.deleted && h.owner === owner && h.repo === repo),
          perPage,
          pageNumber,
        ).map((h) => ({ ...hookBody(h, base), ...echo }));
        return send(200, broken.has('null_in_list') ? [null, ...listed, 7, 'x'] : listed);
      }
      if (method === 'POST') {
        const config = (body.config ?? {}) as Record<string, unknown>;
        if (typeof config.secret === 'string') secretsSeen.push(config.secret);
        const events = Array.isArray(body.events)
          ? (body.events as string[])
          : broken.has('events_default')
            ? []
            : ['push'];
        const clash = hooks.some(
          (h) =>
            !h.deleted &&
            h.owner === owner &&
            h.repo === repo &&
            h.config.url === config.url &&
            h.events.some((e) => events.includes(e)),
        );
        if (clash && !broken.has('shared_config')) return send(422, { message: 'Validation Failed' });
        const hook: Hook = {
          id: nextId++,
          owner: owner!,
          repo: repo!,
          name: String(body.name ?? 'web'),
          active: body.active !== false,
          events,
          config,
          created_at: now(),
          updated_at: now(),
          deleted: false,
        };
        hooks.push(hook);
        const created: Record<string, unknown> = { ...hookBody(hook, base), ...echo };
        if (broken.has('create_without_id')) delete created.id;
        return send(201, created);
      }
      return send(404, { message: 'Not Found' });
    }
    const hook = hooks.find((h) => String(h.id) === hookIdText && h.owner === owner && h.repo === repo);
    if (!/^\d+$/.test(hookIdText)) return send(404, { message: 'Not Found' });
    if (!hook || (hook.deleted && !(broken.has('deleted_hook') && method === 'GET' && sub === undefined)))
      return send(404, { message: 'Not Found' });
    if (sub === undefined) {
      if (method === 'GET')
        return broken.has('created_not_found') ? send(404, { message: 'Not Found' }) : send(200, hookBody(hook, base));
      if (method === 'DELETE') {
        hook.deleted = true;
        return send(204);
      }
      if (method === 'PATCH') {
        if (Array.isArray(body.events))
          hook.events = broken.has('events_replace')
            ? [...new Set([...hook.events, ...(body.events as string[])])]
            : [...(body.events as string[])];
        if (Array.isArray(body.add_events))
          hook.events = broken.has('add_events')
            ? [...(body.add_events as string[])]
            : [...new Set([...hook.events, ...(body.add_events as string[])])];
        if (Array.isArray(body.remove_events) && !broken.has('remove_events'))
          hook.events = hook.events.filter((e) => !(body.remove_events as string[]).includes(e));
        if (typeof body.active === 'boolean') hook.active = body.active;
        if (body.config && typeof body.config === 'object') {
          // Seed rule 3: the update's config replaces the old one; a secret left out is removed.
          const sent = body.config as Record<string, unknown>;
          if (typeof sent.secret === 'string') secretsSeen.push(sent.secret);
          const oldSecret = hook.config.secret;
          hook.config = { ...sent };
          if (broken.has('secret_kept') && sent.secret === undefined && oldSecret !== undefined)
            hook.config.secret = oldSecret;
          if (broken.has('secret_dropped')) delete hook.config.secret;
        }
        hook.updated_at = now();
        return send(200, hookBody(hook, base));
      }
    }
    if (sub === 'config') {
      if (method === 'PATCH') {
        if (typeof body.secret === 'string') secretsSeen.push(body.secret);
        hook.config = { ...hook.config, ...body };
      }
      return send(
        200,
        broken.has('config_whole_hook') ? { ...hookBody(hook, base), ...configBody(hook) } : configBody(hook),
      );
    }
    // A real delivery: POSTed, signed with the hook's secret, to config.url, before the trigger is answered.
    const deliver = async (
      event: string,
      redelivery = false,
      payload: Record<string, unknown> = { zen: 'ok', hook_id: hook.id },
    ) => {
      if (broken.has('no_deliveries')) return;
      const guid = randomUUID();
      const text = JSON.stringify(payload);
      const secret =
        typeof hook.config.secret === 'string' && hook.config.secret !== '' ? hook.config.secret : undefined;
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        'User-Agent': 'fault-server',
        'X-Service-Delivery': guid,
        'X-Service-Event': event,
        'X-Service-Hook-ID': String(hook.id),
        'X-Service-Hook-Installation-Target-ID': '1',
        'X-Service-Hook-Installation-Target-Type': 'repository',
        ...(secret
          ? {
              'X-Hub-Signature-256': `sha256=${createHmac('sha256', secret).update(text).digest('hex')}`,
              'X-Hub-Signature': `sha1=${createHmac('sha1', secret).update(text).digest('hex')}`,
            }
          : {}),
      };
      const record: Delivery = {
        id: nextId++,
        hookId: hook.id,
        guid,
        event,
        redelivery: redelivery && !broken.has('redelivery_flag'),
        delivered_at: now(),
        signed: secret !== undefined,
        headers,
        payload,
        statusCode: 0,
      };
      deliveries.unshift(record);
      await fetch(String(hook.config.url ?? ''), {
        method: 'POST',
        headers,
        body: text,
        signal: AbortSignal.timeout(2000),
      }).then(
        (answer) => (record.statusCode = answer.status),
        () => undefined,
      );
    };
    if (sub === 'pings' && method === 'POST') {
      await deliver(broken.has('ping_wrong_event') ? 'push' : 'ping');
      return send(204);
    }
    if (sub === 'tests' && method === 'POST') {
      const subscribed = hook.events.includes('push');
      if ((subscribed && !broken.has('test_no_push')) || (!subscribed && broken.has('test_unsubscribed')))
        await deliver('push', false, { ref: 'refs/heads/main', repository: { id: 1 } });
      return send(204);
    }
    if (sub === 'deliveries') {
      const own = deliveries.filter((d) => d.hookId === hook.id);
      if (deliveryIdText === undefined) {
        const cursor = url.searchParams.get('cursor');
        const from =
          cursor === null || broken.has('cursor_ignored')
            ? 0
            : Math.max(
                0,
                own.findIndex((d) => String(d.id) === cursor),
              );
        return send(200, page(own.slice(from), perPage).map(deliveryItem));
      }
      const delivery = own.find((d) => String(d.id) === deliveryIdText);
      if (!delivery) return send(404, { message: 'Not Found' });
      if (attempts && method === 'POST') {
        await deliver(delivery.event, true, delivery.payload);
        return broken.has('body_on_202') ? send(202, { queued: true }) : send(202);
      }
      const headers: Record<string, string> = {
        ...delivery.headers,
        ...(broken.has('delivery_headers') ? { 'X-Service-Delivery': randomUUID() } : {}),
      };
      return send(200, {
        ...deliveryItem(delivery),
        url: String(hook.config.url ?? ''),
        request: { headers, payload: delivery.payload },
        response: { headers: { 'content-type': 'text/plain' }, payload: 'ok' },
      });
    }
    return send(404, { message: 'Not Found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    liveHooks: () => hooks.filter((h) => !h.deleted),
    secretsSeen,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
