// The Prism mocks as a user gets them: real Prism processes, real sockets, the typed clients.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClientSessionClient } from '../../src/plugins/client-session/client-session-client.js';
import {
  createRepositoryWebhooksClient,
  serviceMediaType,
} from '../../src/plugins/repository-webhooks/repository-webhooks-client.js';
import { startMocks, type Mocks } from '../../src/mock/start-mocks.js';
import { responseProblems } from '../helpers/spec-validators.js';

let mocks: Mocks;
beforeAll(async () => {
  mocks = await startMocks({ ports: { 'client-session': 0, 'repository-webhooks': 0 } });
});
afterAll(async () => {
  await mocks?.stop();
});

const sessionClient = (apiKey?: string) =>
  createClientSessionClient({ baseUrl: mocks.urls['client-session']!, ...(apiKey === undefined ? {} : { apiKey }) });
const hooksClient = () =>
  createRepositoryWebhooksClient({ baseUrl: mocks.urls['repository-webhooks']!, token: 'mock-token' });
const hook = { owner: 'octo', repo: 'app', hook_id: 42 };

describe('client-session mock', () => {
  it('answers GET /client-session with the spec example, paymentMethod under order', async () => {
    const { data, response } = await sessionClient('any-key').GET('/client-session', {
      params: { header: { 'X-API-VERSION': '2.4' }, query: { clientToken: 'demo' } },
    });
    expect(response.status).toBe(200);
    expect(data).toBeDefined();
    expect(data && 'paymentMethod' in data ? data.paymentMethod : undefined).toBeUndefined();
    expect(data?.order?.paymentMethod?.options?.PAYMENT_CARD?.networks?.VISA?.surcharge?.amount).toBe(100);
    expect(
      await responseProblems(
        'client-session',
        'GET',
        '/client-session',
        200,
        response.headers.get('content-type'),
        JSON.stringify(data),
      ),
    ).toEqual([]);
  });

  it('refuses a request without X-API-KEY with 401', async () => {
    const { response } = await sessionClient().GET('/client-session', {
      params: { header: { 'X-API-VERSION': '2.4' } },
    });
    expect(response.status).toBe(401);
  });

  it('refuses X-API-VERSION 2.3 with a 4xx that names the header', async () => {
    const { response, error } = await sessionClient('any-key').GET('/client-session', {
      params: { header: { 'X-API-VERSION': '2.3' as '2.4' } },
    });
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
    expect(JSON.stringify(error).toLowerCase()).toContain('x-api-version');
  });
});

describe('repository-webhooks mock', () => {
  const calls: [string, { status: number; call: () => Promise<{ response: Response; data?: unknown }> }][] = [
    [
      'getWebhookConfig',
      {
        status: 200,
        call: () => hooksClient().GET('/repos/{owner}/{repo}/hooks/{hook_id}/config', { params: { path: hook } }),
      },
    ],
    [
      'updateWebhookConfig',
      {
        status: 200,
        call: () =>
          hooksClient().PATCH('/repos/{owner}/{repo}/hooks/{hook_id}/config', {
            params: { path: hook },
            body: { content_type: 'json' },
          }),
      },
    ],
    [
      'listWebhookDeliveries',
      {
        status: 200,
        call: () =>
          hooksClient().GET('/repos/{owner}/{repo}/hooks/{hook_id}/deliveries', {
            params: { path: hook, query: { per_page: 100 } },
          }),
      },
    ],
    [
      'getWebhookDelivery',
      {
        status: 200,
        call: () =>
          hooksClient().GET('/repos/{owner}/{repo}/hooks/{hook_id}/deliveries/{delivery_id}', {
            params: { path: { ...hook, delivery_id: 7 } },
          }),
      },
    ],
    [
      'redeliverWebhookDelivery',
      {
        status: 202,
        call: () =>
          hooksClient().POST('/repos/{owner}/{repo}/hooks/{hook_id}/deliveries/{delivery_id}/attempts', {
            params: { path: { ...hook, delivery_id: 7 } },
          }),
      },
    ],
    [
      'listWebhooks',
      {
        status: 200,
        call: () =>
          hooksClient().GET('/repos/{owner}/{repo}/hooks', {
            params: { path: { owner: 'octo', repo: 'app' }, query: { per_page: 10, page: 2 } },
          }),
      },
    ],
    [
      'createWebhook',
      {
        status: 201,
        call: () =>
          hooksClient().POST('/repos/{owner}/{repo}/hooks', {
            params: { path: { owner: 'octo', repo: 'app' } },
            body: { name: 'web' },
          }),
      },
    ],
    [
      'getWebhook',
      {
        status: 200,
        call: () => hooksClient().GET('/repos/{owner}/{repo}/hooks/{hook_id}', { params: { path: hook } }),
      },
    ],
    [
      'updateWebhook',
      {
        status: 200,
        call: () =>
          hooksClient().PATCH('/repos/{owner}/{repo}/hooks/{hook_id}', {
            params: { path: hook },
            body: { add_events: ['pull_request'], config: { url: 'https://example.com/hook' } },
          }),
      },
    ],
    [
      'deleteWebhook',
      {
        status: 204,
        call: () => hooksClient().DELETE('/repos/{owner}/{repo}/hooks/{hook_id}', { params: { path: hook } }),
      },
    ],
    [
      'pingWebhook',
      {
        status: 204,
        call: () => hooksClient().POST('/repos/{owner}/{repo}/hooks/{hook_id}/pings', { params: { path: hook } }),
      },
    ],
    [
      'testPushWebhook',
      {
        status: 204,
        call: () => hooksClient().POST('/repos/{owner}/{repo}/hooks/{hook_id}/tests', { params: { path: hook } }),
      },
    ],
  ];

  it.each(calls)(
    'answers %s with its documented status and a conforming body',
    async (_operationId, { status, call }) => {
      const { response, data } = await call();
      expect(response.status).toBe(status);
      const url = new URL(response.url);
      const body = status === 202 || status === 204 ? await rawBody(response.url, response) : JSON.stringify(data);
      if (status === 202 || status === 204) expect(body).toBe('');
      expect(
        await responseProblems(
          'repository-webhooks',
          methodOf(_operationId),
          url.pathname,
          response.status,
          response.headers.get('content-type'),
          body,
        ),
      ).toEqual([]);
    },
  );

  const errors: [string, { method: string; path: string; prefer: number; body?: unknown }][] = [
    ['listWebhooks', { method: 'GET', path: '/repos/octo/app/hooks', prefer: 404 }],
    ['createWebhook', { method: 'POST', path: '/repos/octo/app/hooks', prefer: 422, body: {} }],
    ['createWebhook', { method: 'POST', path: '/repos/octo/app/hooks', prefer: 403, body: {} }],
    ['getWebhook', { method: 'GET', path: '/repos/octo/app/hooks/42', prefer: 404 }],
    ['updateWebhook', { method: 'PATCH', path: '/repos/octo/app/hooks/42', prefer: 422, body: {} }],
    ['deleteWebhook', { method: 'DELETE', path: '/repos/octo/app/hooks/42', prefer: 404 }],
    ['pingWebhook', { method: 'POST', path: '/repos/octo/app/hooks/42/pings', prefer: 404 }],
    ['testPushWebhook', { method: 'POST', path: '/repos/octo/app/hooks/42/tests', prefer: 404 }],
    ['listWebhookDeliveries', { method: 'GET', path: '/repos/octo/app/hooks/42/deliveries', prefer: 400 }],
    ['getWebhookDelivery', { method: 'GET', path: '/repos/octo/app/hooks/42/deliveries/7', prefer: 422 }],
    [
      'redeliverWebhookDelivery',
      { method: 'POST', path: '/repos/octo/app/hooks/42/deliveries/7/attempts', prefer: 422 },
    ],
  ];

  it.each(errors)(
    'answers %s with its documented error when asked with Prefer: code=%#',
    async (_operationId, { method, path, prefer, body }) => {
      const response = await fetch(mocks.urls['repository-webhooks'] + path, {
        method,
        headers: {
          prefer: `code=${prefer}`,
          accept: serviceMediaType,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      expect(response.status).toBe(prefer);
    },
  );

  // Where the operation documents a 422 (deliveries) Prism serves that response, whose body the seed does not
  // show; elsewhere it generates a problem body that names the parameter.
  it.each([
    ['a non-integer hook_id', { path: '/repos/octo/app/hooks/abc', names: 'hook_id' }],
    ['per_page over 100', { path: '/repos/octo/app/hooks?per_page=101', names: 'per_page' }],
    ['per_page over 100 on deliveries', { path: '/repos/octo/app/hooks/42/deliveries?per_page=101', names: undefined }],
  ])('rejects %s with 422', async (_name, { path, names }) => {
    const response = await fetch(mocks.urls['repository-webhooks'] + path, { headers: { accept: serviceMediaType } });
    expect(response.status).toBe(422);
    if (names) expect(await response.text()).toContain(names);
  });
});

function methodOf(operationId: string): string {
  if (operationId.startsWith('get') || operationId.startsWith('list')) return 'GET';
  if (operationId.startsWith('update')) return 'PATCH';
  if (operationId.startsWith('delete')) return 'DELETE';
  return 'POST';
}

/** Repeats a bodiless call with plain fetch to read the raw body the typed client does not expose. */
async function rawBody(url: string, original: Response): Promise<string> {
  const method = original.status === 204 && new URL(url).pathname.endsWith('/42') ? 'DELETE' : 'POST';
  const response = await fetch(url, { method, headers: { accept: serviceMediaType } });
  expect(response.status).toBe(original.status);
  return response.text();
}

describe('dynamic mode', () => {
  it('generates bodies that conform to the schemas', async () => {
    const dynamic = await startMocks({
      ports: { 'client-session': 0, 'repository-webhooks': 0 },
      dynamic: true,
      seed: '7',
    });
    try {
      const session = await fetch(dynamic.urls['client-session'] + '/client-session', {
        headers: { 'X-API-KEY': 'k', 'X-API-VERSION': '2.4' },
      });
      const sessionBody = await session.text();
      expect(
        await responseProblems(
          'client-session',
          'GET',
          '/client-session',
          session.status,
          session.headers.get('content-type'),
          sessionBody,
        ),
      ).toEqual([]);
      for (const path of [
        '/repos/o/r/hooks',
        '/repos/o/r/hooks/1',
        '/repos/o/r/hooks/1/config',
        '/repos/o/r/hooks/1/deliveries',
        '/repos/o/r/hooks/1/deliveries/2',
      ]) {
        const response = await fetch(dynamic.urls['repository-webhooks'] + path);
        const body = await response.text();
        expect(
          await responseProblems(
            'repository-webhooks',
            'GET',
            path,
            response.status,
            response.headers.get('content-type'),
            body,
          ),
          path,
        ).toEqual([]);
      }
    } finally {
      await dynamic.stop();
    }
  });
});
