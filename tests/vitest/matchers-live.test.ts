// The vitest matchers as users run them: against the real Prism mocks and the real sandbox over loopback, with
// the typed clients and plain fetch, and failing on purpose where a real answer breaks the contract.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import 'contracts-kit/vitest';
import { createClientSessionClient } from '../../src/plugins/client-session/client-session-client.js';
import { createRepositoryWebhooksClient } from '../../src/plugins/repository-webhooks/repository-webhooks-client.js';
import { startMocks, type Mocks } from '../../src/mock/start-mocks.js';
import { startSandbox, type Sandbox } from '../../src/plugins/example-sandbox.js';

let mocks: Mocks;
let sandbox: Sandbox;
beforeAll(async () => {
  [mocks, sandbox] = await Promise.all([
    startMocks({ ports: { 'client-session': 0, 'repository-webhooks': 0 } }),
    startSandbox({ port: 0, deliveryTimeoutMs: 2000 }),
  ]);
}, 90_000);
afterAll(async () => {
  await Promise.all([mocks?.stop(), sandbox?.stop()]);
});

const version = { header: { 'X-API-VERSION': '2.4' as const }, query: { clientToken: 'demo-client-token' } };
const repo = { owner: 'octo', repo: 'app' };

async function failureOf(assertion: Promise<unknown>): Promise<string> {
  try {
    await assertion;
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('the assertion passed, but it was meant to fail');
}

describe('matchers against the Prism mock', () => {
  it('passes the typed client result and the plain fetch Response of GET /client-session', async () => {
    const client = createClientSessionClient({ baseUrl: mocks.urls['client-session']!, apiKey: 'any-key' });
    await expect(await client.GET('/client-session', { params: version })).toSatisfyContract({ api: 'client-session' });
    const response = await fetch(`${mocks.urls['client-session']}/client-session?clientToken=demo`, {
      headers: { 'X-API-KEY': 'k', 'X-API-VERSION': '2.4' },
    });
    await expect(response).toSatisfyContract({ api: 'client-session' });
    await expect(await response.json()).toMatchSchema({ api: 'client-session', schema: 'ClientSession' });
  });

  it("fails the mock's 401 for a missing API key, which the spec does not document", async () => {
    const client = createClientSessionClient({ baseUrl: mocks.urls['client-session']! });
    const result = await client.GET('/client-session', { params: version });
    const message = await failureOf(expect(result).toSatisfyContract({ api: 'client-session' }));
    expect(message).toContain(
      'expected GET /client-session → 401 to satisfy the client-session contract (retrieveClientSession); 1 finding:',
    );
    expect(message).toContain('- status_code_conformance: status 401 is not documented for retrieveClientSession');
    expect(message).toContain('actual:   401');
    expect(message).toContain('expected: ["200"]');
  });

  it('passes a webhook read from the mock, as a result and against its schema', async () => {
    const client = createRepositoryWebhooksClient({ baseUrl: mocks.urls['repository-webhooks']!, token: 'mock-token' });
    const result = await client.GET('/repos/{owner}/{repo}/hooks/{hook_id}', {
      params: { path: { ...repo, hook_id: 42 } },
    });
    expect(result.response.status).toBe(200);
    await expect(result).toSatisfyContract({ api: 'repository-webhooks', operationId: 'getWebhook' });
    await expect(result.data).toMatchSchema({ api: 'repository-webhooks', schema: 'Webhook' });
  });
});

describe('matchers against the sandbox', () => {
  const client = () => createRepositoryWebhooksClient({ baseUrl: sandbox.url, token: 'sandbox-token' });

  it('passes a created webhook, its config and the list read with plain fetch', async () => {
    const created = await client().POST('/repos/{owner}/{repo}/hooks', {
      params: { path: repo },
      body: { name: 'web', active: false, config: { url: 'http://127.0.0.1:9/hook', content_type: 'json' } },
    });
    expect(created.response.status).toBe(201);
    // POST shares the path with GET; the 201 only createWebhook documents tells them apart.
    await expect(created).toSatisfyContract({ api: 'repository-webhooks' });
    const config = await client().GET('/repos/{owner}/{repo}/hooks/{hook_id}/config', {
      params: { path: { ...repo, hook_id: created.data!.id! } },
    });
    await expect(config).toSatisfyContract({ api: 'repository-webhooks', method: 'GET' });
    // GET and POST share this path, and a Response does not say its method.
    const list = await fetch(`${sandbox.url}/repos/octo/app/hooks`, {
      headers: { accept: 'application/vnd.service.v3+json' },
    });
    await expect(list).toSatisfyContract({ api: 'repository-webhooks', method: 'GET' });
  });

  it('fails a real 201 checked as the wrong operation, and a real webhook checked against the wrong schema', async () => {
    const created = await client().POST('/repos/{owner}/{repo}/hooks', {
      params: { path: repo },
      body: { name: 'web', active: false, config: { url: 'http://127.0.0.1:9/other', content_type: 'json' } },
    });
    expect(created.response.status).toBe(201);
    const wrongOperation = await failureOf(
      expect(created).toSatisfyContract({ api: 'repository-webhooks', operationId: 'getWebhook' }),
    );
    expect(wrongOperation).toContain(
      'expected GET /repos/octo/app/hooks → 201 to satisfy the repository-webhooks contract (getWebhook)',
    );
    expect(wrongOperation).toContain('- status_code_conformance: status 201 is not documented for getWebhook');
    expect(wrongOperation).toContain('actual:   201');
    const wrongSchema = await failureOf(
      expect(created.data).toMatchSchema({ api: 'repository-webhooks', schema: 'EventNames' }),
    );
    expect(wrongSchema).toContain('expected the value to match EventNames of the repository-webhooks spec; 1 error:');
    expect(wrongSchema).toContain('- schema: body must be array');
    expect(wrongSchema).toContain(`actual:   {"type":"Repository","id":${created.data!.id}`);
  });
});
