// Without a spec, the sandbox serves the seed project's APIs that have a sandbox plug-in, and nothing else: it
// routes on each spec's operation index, reads the body, and hands the request to that API's plug-in; its reset
// path resets every plug-in. The plug-ins come from a lookup (by default the registry's), never named by the sandbox.
import { afterEach, describe, expect, it } from 'vitest';
import type { SandboxRequest } from '../../src/sandbox/sandbox-http.js';
import type { SandboxPlugin, SandboxSetup } from '../../src/sandbox/sandbox-plugin.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/start-sandbox.js';

interface Seen {
  started: { title: unknown; repositories: unknown }[];
  requests: Omit<SandboxRequest, 'query' | 'headers' | 'baseUrl'>[];
  resets: number;
}

/** A plug-in that answers every operation with its id and the body it got, and counts resets. */
function fakePlugin(seen: Seen): SandboxPlugin {
  return {
    async start(setup: SandboxSetup) {
      const info = setup.spec.document.info as { title?: unknown };
      seen.started.push({ title: info.title, repositories: setup.options.repositories });
      return {
        answer: ({ operationId, pathParams, body }) => {
          seen.requests.push({ operationId, pathParams, body });
          return { status: 200, body: { operationId } };
        },
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
    const seen: Seen = { started: [], requests: [], resets: 0 };
    const plugin = fakePlugin(seen);
    sandbox = await startSandbox({
      port: 0,
      repositories: ['acme/shop'],
      plugins: async (api) => (api === 'repository-webhooks' ? plugin : undefined),
    });
    expect(seen.started).toEqual([{ title: 'Repository Webhook Management API', repositories: ['acme/shop'] }]);

    const created = await fetch(`${sandbox.url}/repos/acme/shop/hooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ config: { url: 'http://example.com/h' } }),
    });
    expect({ status: created.status, body: await created.json() }).toEqual({
      status: 200,
      body: { operationId: 'createWebhook' },
    });
    // The API without a sandbox plug-in is not served: its path is no path of this sandbox.
    const session = await fetch(`${sandbox.url}/client-session`);
    expect({ status: session.status, body: await session.json() }).toEqual({
      status: 404,
      body: { message: 'Not Found' },
    });
    expect((await fetch(`${sandbox.url}/__sandbox/reset`, { method: 'POST' })).status).toBe(204);

    expect(seen.requests).toEqual([
      {
        operationId: 'createWebhook',
        pathParams: { owner: 'acme', repo: 'shop' },
        body: { config: { url: 'http://example.com/h' } },
      },
    ]);
    expect(seen.resets).toBe(1);
  });

  it('serves both example APIs by the registry when no lookup is handed', async () => {
    sandbox = await startSandbox({ port: 0 });
    const session = await fetch(`${sandbox.url}/client-session`, {
      headers: { 'X-API-KEY': 'k', 'X-API-VERSION': '2.4' },
    });
    expect(session.status).toBe(200);
    expect((await fetch(`${sandbox.url}/repos/octo/app/hooks`)).status).toBe(200);
    expect((await fetch(`${sandbox.url}/repos/no/such/hooks`)).status).toBe(404);
  });
});
