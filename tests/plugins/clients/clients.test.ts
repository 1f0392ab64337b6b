// The example APIs' typed clients on the wire: each sends the credential its spec's security names, and the
// caller's own headers win over the client's defaults. A loopback server records what arrived.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClientSessionClient } from '../../../src/plugins/client-session/client-session-client.js';
import {
  createRepositoryWebhooksClient,
  serviceMediaType,
} from '../../../src/plugins/repository-webhooks/repository-webhooks-client.js';

let server: Server;
let baseUrl: string;
const arrived: { url: string; headers: IncomingHttpHeaders }[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    arrived.push({ url: request.url ?? '', headers: request.headers });
    response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

describe('the client session client', () => {
  it('sends the API key as X-API-KEY, and the version header the caller gives', async () => {
    arrived.length = 0;
    const client = createClientSessionClient({ baseUrl, apiKey: 'k-1' });
    await client.GET('/client-session', {
      params: { query: { clientToken: 'tok' }, header: { 'X-API-VERSION': '2.4' } },
    });
    expect(arrived).toHaveLength(1);
    expect(arrived[0]!.url).toBe('/client-session?clientToken=tok');
    expect(arrived[0]!.headers).toMatchObject({ 'x-api-key': 'k-1', 'x-api-version': '2.4' });
  });

  it('sends no key when none is given', async () => {
    arrived.length = 0;
    const client = createClientSessionClient({ baseUrl });
    await client.GET('/client-session', {
      params: { query: { clientToken: 'tok' }, header: { 'X-API-VERSION': '2.4' } },
    });
    expect(arrived[0]!.headers['x-api-key']).toBeUndefined();
  });
});

describe('the repository webhooks client', () => {
  it("sends the service's media type and the token as a bearer credential", async () => {
    arrived.length = 0;
    const client = createRepositoryWebhooksClient({ baseUrl, token: 't-1' });
    await client.GET('/repos/{owner}/{repo}/hooks', { params: { path: { owner: 'o', repo: 'r' } } });
    expect(arrived[0]!.url).toBe('/repos/o/r/hooks');
    expect(arrived[0]!.headers).toMatchObject({ accept: serviceMediaType, authorization: 'Bearer t-1' });
  });

  it("lets the caller's headers replace the client's defaults", async () => {
    arrived.length = 0;
    const client = createRepositoryWebhooksClient({
      baseUrl,
      token: 't-1',
      headers: { authorization: 'token other', accept: 'application/json' },
    });
    await client.GET('/repos/{owner}/{repo}/hooks', { params: { path: { owner: 'o', repo: 'r' } } });
    expect(arrived[0]!.headers).toMatchObject({ accept: 'application/json', authorization: 'token other' });
  });
});
