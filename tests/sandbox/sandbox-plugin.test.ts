// Without a spec, the sandbox serves the seed project's APIs that have a sandbox plug-in, and nothing else: each on
// the stateful engine, with the plug-in's hooks around it; it routes on each spec's operation index, reads the body,
// and hands the request to the engine and that API's hooks; its reset path empties every store and resets every
// plug-in. The plug-ins come from a lookup (src/plugins/example-sandbox.ts hands the registry's), never named by the
// sandbox, which imports no plug-in.
// Every answer a plug-in makes is judged by the spec's checks before its state change is applied (sandbox-judge.ts).
import { afterEach, describe, expect, it } from 'vitest';
import type { SandboxRequest } from '../../src/sandbox/sandbox-http.js';
import { sandboxRequest } from '../../src/sandbox/plugin-answer.js';
import type { SandboxPlugin, SandboxSetup } from '../../src/sandbox/sandbox-plugin.js';
import { startSandbox as startExampleSandbox } from '../../src/plugins/example-sandbox.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/start-sandbox.js';

interface Seen {
  started: { title: unknown; repositories: unknown }[];
  requests: Omit<SandboxRequest, 'query' | 'headers' | 'baseUrl'>[];
  /** The operations whose answer's state change was applied. */
  committed: string[];
  resets: number;
}

/**
 * A plug-in that answers a delete with 204 and anything else with 200 and its operationId (what the spec documents
 * for a list, not for a create), each with a state change to commit; it counts resets.
 */
function fakePlugin(seen: Seen): SandboxPlugin {
  return {
    async start(setup: SandboxSetup) {
      const info = setup.spec.document.info as { title?: unknown };
      seen.started.push({ title: info.title, repositories: setup.options.repositories });
      const answer = {
        before(ctx: Parameters<typeof sandboxRequest>[0]) {
          const { operationId, pathParams, body } = sandboxRequest(ctx);
          seen.requests.push({ operationId, pathParams, body });
          const commit = () => void seen.committed.push(operationId);
          return operationId === 'deleteWebhook'
            ? { status: 204, commit }
            : { status: 200, body: { operationId }, commit };
        },
      };
      return {
        hooks: { deleteWebhook: answer, createWebhook: answer },
        reset: () => {
          seen.resets++;
        },
      };
    },
  };
}

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.stop();
  sandbox = undefined;
});

describe('the sandbox of the APIs with a sandbox plug-in', () => {
  it('hands each routed request to its API plug-in, serves no API without one, and resets every plug-in', async () => {
    const seen: Seen = { started: [], requests: [], committed: [], resets: 0 };
    const plugin = fakePlugin(seen);
    sandbox = await startSandbox({
      port: 0,
      repositories: ['acme/shop'],
      plugins: async (api) => (api === 'repository-webhooks' ? plugin : undefined),
    });
    expect(seen.started).toEqual([{ title: 'Repository Webhook Management API', repositories: ['acme/shop'] }]);

    const deleted = await fetch(`${sandbox.url}/repos/acme/shop/hooks/7`, { method: 'DELETE' });
    expect({ status: deleted.status, body: await deleted.text() }).toEqual({ status: 204, body: '' });
    // A 200 to a create, which the spec documents 201: the spec's checks refuse it, so the sandbox answers its own
    // 500 naming why, and the plug-in's state change is not applied.
    const created = await fetch(`${sandbox.url}/repos/acme/shop/hooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ config: { url: 'http://example.com/h' } }),
    });
    expect({
      status: created.status,
      refusal: created.headers.get('contracts-mock'),
      body: await created.json(),
    }).toEqual({
      status: 500,
      refusal: 'no-valid-answer',
      body: {
        type: 'about:blank',
        title: 'contracts mock: no valid answer',
        status: 500,
        detail:
          'the mock could not make a valid answer: its 200 answer fails status_code_conformance: status 200 is not documented for createWebhook (documented: 201, 403, 404, 422)',
      },
    });
    // The API without a sandbox plug-in is not served: its path is no path of this sandbox.
    const session = await fetch(`${sandbox.url}/client-session`);
    expect({ status: session.status, body: await session.json() }).toEqual({
      status: 404,
      body: { message: 'Not Found' },
    });
    expect((await fetch(`${sandbox.url}/__sandbox/reset`, { method: 'POST' })).status).toBe(204);

    expect(seen.requests).toEqual([
      { operationId: 'deleteWebhook', pathParams: { owner: 'acme', repo: 'shop', hook_id: '7' }, body: undefined },
      {
        operationId: 'createWebhook',
        pathParams: { owner: 'acme', repo: 'shop' },
        body: { config: { url: 'http://example.com/h' } },
      },
    ]);
    expect(seen.committed).toEqual(['deleteWebhook']);
    expect(seen.resets).toBe(1);
  });

  it("answers an operation without hooks from the engine's store, which a reset empties", async () => {
    const resets: string[] = [];
    const plugin: SandboxPlugin = {
      async start() {
        return { hooks: {}, reset: () => void resets.push('plug-in') };
      },
    };
    sandbox = await startSandbox({
      port: 0,
      plugins: async (api) => (api === 'repository-webhooks' ? plugin : undefined),
    });
    const hooks = `${sandbox.url}/repos/acme/shop/hooks`;
    const created = await fetch(hooks, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'web', config: { url: 'http://example.com/h' } }),
    });
    const made = (await created.json()) as { id: number };
    expect(created.status).toBe(201);
    const read = await fetch(`${hooks}/${made.id}`);
    expect({ status: read.status, body: await read.json() }).toEqual({ status: 200, body: made });
    // The engine's admin reset path is answered too.
    expect((await fetch(`${sandbox.url}/__contracts/reset`, { method: 'POST' })).status).toBe(204);
    expect(resets).toEqual(['plug-in']);
    expect((await fetch(`${hooks}/${made.id}`)).status).toBe(404);
    expect(await (await fetch(hooks)).json()).toEqual([]);
  });

  it('serves nothing without a spec or a lookup, and says so', async () => {
    await expect(startSandbox({ port: 0 })).rejects.toMatchObject({
      code: 'USAGE',
      message: 'the sandbox has no API to serve: give it a spec, or the plug-ins to serve',
    });
  });

  it("serves both example APIs by the registry's lookup, as the library's startSandbox does", async () => {
    sandbox = await startExampleSandbox({ port: 0 });
    const session = await fetch(`${sandbox.url}/client-session`, {
      headers: { 'X-API-KEY': 'k', 'X-API-VERSION': '2.4' },
    });
    expect(session.status).toBe(200);
    expect((await fetch(`${sandbox.url}/repos/octo/app/hooks`)).status).toBe(200);
    expect((await fetch(`${sandbox.url}/repos/no/such/hooks`)).status).toBe(404);
    // A JSON body sent without a JSON Content-Type (curl -d says form) is read as JSON, as it always was.
    const created = await fetch(`${sandbox.url}/repos/octo/app/hooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: JSON.stringify({ config: { url: 'http://127.0.0.1:9/x' } }),
    });
    expect([created.status, ((await created.json()) as { events: string[] }).events]).toEqual([201, ['push']]);
  });
});
