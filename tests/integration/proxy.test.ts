// The validating proxy over real sockets: a client → the proxy → the real sandbox (or a plain upstream server).
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileContract, type Contract } from '../../src/core/compile-contract.js';
import { loadSpec } from '../../src/core/load-spec.js';
import type { ProxiedExchange, Proxy } from '../../src/proxy/start-proxy.js';
import { startSandbox, type Sandbox } from '../../src/plugins/example-sandbox.js';
import { specFile } from '../helpers/paths.js';
import { judged, type ProxyTestOptions, withProxyTo } from '../helpers/proxy.js';

const apiKey = 'sk-proxy-test-secret-key';
let sandbox: Sandbox;
const contracts: Record<string, Contract> = {};

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, host: '127.0.0.1' });
  contracts.session = compileContract(await loadSpec(specFile('client-session')));
  contracts.hooks = compileContract(await loadSpec(specFile('repository-webhooks')));
});
afterAll(async () => {
  await sandbox?.stop();
});

/** A proxy for the test, in front of the sandbox unless told otherwise. */
const withProxy = (options: ProxyTestOptions, body: (proxy: Proxy, seen: ProxiedExchange[]) => Promise<void>) =>
  withProxyTo(sandbox.url, options, body);

const session = { 'X-API-KEY': apiKey, 'X-API-VERSION': '2.4' };
const json = { 'content-type': 'application/json' };
const hook = { config: { url: 'https://example.com/hook', content_type: 'json' } };

// Each request rule broken once, beside requests that keep them all.
const requestCases: [string, { contract: string; path: string; init?: RequestInit; want: RegExp | undefined }][] = [
  [
    'a conforming session request',
    { contract: 'session', path: '/client-session', init: { headers: session }, want: undefined },
  ],
  [
    'a session request without X-API-KEY',
    {
      contract: 'session',
      path: '/client-session',
      init: { headers: { 'X-API-VERSION': '2.4' } },
      want: /request_security_conformance: .*header X-API-KEY/,
    },
  ],
  [
    'a session request with X-API-VERSION 2.3',
    {
      contract: 'session',
      path: '/client-session',
      init: { headers: { ...session, 'X-API-VERSION': '2.3' } },
      want: /request_parameters_conformance: header parameter X-API-VERSION must be one of/,
    },
  ],
  [
    'a hooks list with per_page 500',
    {
      contract: 'hooks',
      path: '/repos/octo/app/hooks?per_page=500',
      want: /request_parameters_conformance: query parameter per_page must be <= 100/,
    },
  ],
  [
    'a hook addressed by a name instead of an id',
    {
      contract: 'hooks',
      path: '/repos/octo/app/hooks/first',
      want: /request_parameters_conformance: path parameter hook_id must be integer/,
    },
  ],
  [
    'a create without a body',
    {
      contract: 'hooks',
      path: '/repos/octo/app/hooks',
      init: { method: 'POST' },
      want: /request_body_conformance: the required request body is missing/,
    },
  ],
  [
    'a create with a field the schema does not allow',
    {
      contract: 'hooks',
      path: '/repos/octo/app/hooks',
      init: { method: 'POST', headers: json, body: JSON.stringify({ ...hook, colour: 'red' }) },
      want: /request_body_conformance: request body has a property the schema does not allow: "colour"/,
    },
  ],
  [
    'a create sent as text/plain',
    {
      contract: 'hooks',
      path: '/repos/octo/app/hooks',
      init: { method: 'POST', headers: { 'content-type': 'text/plain' }, body: JSON.stringify(hook) },
      want: /request_body_conformance: the request body's media type text\/plain is not documented/,
    },
  ],
  [
    'a conforming create',
    {
      contract: 'hooks',
      path: '/repos/octo/app/hooks',
      init: { method: 'POST', headers: json, body: JSON.stringify(hook) },
      want: undefined,
    },
  ],
];

describe('contracts proxy, request conformance', () => {
  it.each(requestCases)('forwards %s and reports what it breaks', async (_name, { contract, path, init, want }) => {
    await withProxy({ contract: contracts[contract]! }, async (proxy, seen) => {
      await sandbox.reset();
      const direct = await fetch(sandbox.url + path, init);
      await sandbox.reset();
      const proxied = await fetch(proxy.url + path, init);
      // Forwarded unchanged: the client gets what the sandbox answers.
      expect(proxied.status).toBe(direct.status);
      await proxied.text();
      await direct.text();
      await judged(seen, 1);
      expect(seen).toHaveLength(1);
      const lines = seen[0]!.requestResult.findings
        .filter((finding) => finding.severity === 'error')
        .map((finding) => `${finding.check}: ${finding.message}`);
      if (want === undefined) expect(lines).toEqual([]);
      else expect(lines).toEqual([expect.stringMatching(want)]);
      expect(JSON.stringify(seen[0]!.requestResult)).not.toContain(apiKey);
    });
  });

  it('with errors, answers a request that breaks the spec 400 naming its violations, and does not forward it', async () => {
    await sandbox.reset();
    await withProxy({ contract: contracts.hooks!, errors: true }, async (proxy, seen) => {
      const blocked = await fetch(`${proxy.url}/repos/octo/app/hooks`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ ...hook, colour: 'red' }),
      });
      expect(blocked.status).toBe(400);
      const body = (await blocked.json()) as { operation: string; violations: { check: string; message: string }[] };
      expect(body.operation).toBe('createWebhook');
      expect(body.violations).toEqual([
        {
          check: 'request_body_conformance',
          message: 'request body has a property the schema does not allow: "colour"',
        },
      ]);
      // Not forwarded: the sandbox holds no hook; a conforming create goes through.
      expect(await (await fetch(`${sandbox.url}/repos/octo/app/hooks`)).json()).toEqual([]);
      const created = await fetch(`${proxy.url}/repos/octo/app/hooks`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify(hook),
      });
      expect(created.status).toBe(201);
      await judged(seen, 2);
      expect(seen.map((exchange) => [exchange.status, exchange.blocked])).toEqual([
        [400, true],
        [201, false],
      ]);
    });
  });

  it('reports the response side too: a status the spec does not document, in answer to a valid request', async () => {
    await withProxy({ contract: contracts.session! }, async (proxy, seen) => {
      // The sandbox answers an unknown client token 404, which the seed does not document.
      await (await fetch(`${proxy.url}/client-session?clientToken=nobody`, { headers: session })).text();
      await judged(seen, 1);
      expect(seen[0]!.responseResult!.findings.map((finding) => finding.check)).toEqual(['status_code_conformance']);
    });
  });

  it('excuses an undocumented 4xx in answer to a request that broke the spec (one rule with fuzz and validate)', async () => {
    await withProxy({ contract: contracts.session! }, async (proxy, seen) => {
      await (await fetch(`${proxy.url}/client-session`, { headers: { 'X-API-VERSION': '2.4' } })).text();
      await judged(seen, 1);
      expect(seen[0]!.status).toBe(401);
      expect(seen[0]!.requestResult.findings.length).toBeGreaterThan(0);
      expect(seen[0]!.responseResult!.findings).toEqual([]);
    });
  });
});

/** A plain upstream server for the forwarding mechanics, counting what it received. */
async function upstreamServer(handler: http.RequestListener) {
  const server = http.createServer(handler);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('contracts proxy, forwarding', () => {
  it('streams a request body to the target before the client has finished sending it, and keeps only a bounded copy', async () => {
    let firstBytes: () => void = () => undefined;
    const arrived = new Promise<void>((resolve) => (firstBytes = resolve));
    const upstream = await upstreamServer((req, res) => {
      let received = 0;
      req.on('data', (chunk: Buffer) => {
        received += chunk.length;
        firstBytes();
      });
      req.on('end', () => res.writeHead(200, { 'content-type': 'text/plain' }).end(String(received)));
    });
    try {
      await withProxy(
        { contract: contracts.hooks!, target: upstream.url, maxBodyBytes: 1 << 20 },
        async (proxy, seen) => {
          const request = http.request(`${proxy.url}/repos/octo/app/hooks`, { method: 'POST', headers: json });
          const response = new Promise<http.IncomingMessage>((resolve) => request.once('response', resolve));
          const chunk = Buffer.alloc(1 << 20, 'a');
          request.write(chunk);
          // Only once the target has seen the first megabyte does the client send the rest: a proxy that buffered
          // the whole body before forwarding would wait here for ever.
          await arrived;
          for (let sent = 1; sent < 48; sent++) if (!request.write(chunk)) await once(request, 'drain');
          request.end();
          const answered = await response;
          let text = '';
          for await (const part of answered) text += String(part);
          expect(Number(text)).toBe(48 << 20);
          await judged(seen, 1);
          expect(seen[0]!.request.bodyTooLarge).toBe(1 << 20);
          expect(seen[0]!.request.body).toBe('');
          expect(seen[0]!.requestResult.findings).toEqual([
            expect.objectContaining({ check: 'request_body_conformance', severity: 'warning' }),
          ]);
        },
      );
    } finally {
      await upstream.close();
    }
  }, 60_000);

  it('streams a large response back without holding it, and still reports its status', async () => {
    const size = 32 << 20;
    const upstream = await upstreamServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(1 << 20, ' ');
      let sent = 0;
      const pump = () => {
        while (sent < size) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      pump();
    });
    try {
      await withProxy({ contract: contracts.hooks!, target: upstream.url }, async (proxy, seen) => {
        const response = await fetch(`${proxy.url}/repos/octo/app/hooks`);
        let received = 0;
        for await (const part of response.body!) received += (part as Uint8Array).length;
        expect(received).toBe(size);
        await judged(seen, 1);
        expect(seen[0]!.response!.bodyTooLarge).toBe(1 << 20);
      });
    } finally {
      await upstream.close();
    }
  }, 60_000);

  it('relays a redirect without following it, and reuses one upstream connection for a keep-alive client', async () => {
    const ports: number[] = [];
    const upstream = await upstreamServer((req, res) => {
      ports.push(req.socket.remotePort!);
      res.writeHead(302, { location: 'http://127.0.0.1:9/elsewhere', 'content-length': '0' }).end();
    });
    try {
      await withProxy({ contract: contracts.hooks!, target: upstream.url }, async (proxy) => {
        const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
        for (let index = 0; index < 2; index++) {
          const response = await new Promise<http.IncomingMessage>((resolve, reject) =>
            http.get(`${proxy.url}/repos/octo/app/hooks`, { agent }, resolve).once('error', reject),
          );
          response.resume();
          await once(response, 'end');
          expect(response.statusCode).toBe(302);
          expect(response.headers.location).toBe('http://127.0.0.1:9/elsewhere');
        }
        agent.destroy();
        expect(ports).toHaveLength(2);
        expect(ports[1]).toBe(ports[0]);
      });
    } finally {
      await upstream.close();
    }
  });

  it('answers 502 with the reason when the target stays silent past the timeout, and on the next request too', async () => {
    const upstream = await upstreamServer(() => undefined);
    try {
      await withProxy({ contract: contracts.hooks!, target: upstream.url, timeoutMs: 300 }, async (proxy, seen) => {
        for (let index = 0; index < 2; index++) {
          const response = await fetch(`${proxy.url}/repos/octo/app/hooks`);
          expect(response.status).toBe(502);
          expect(((await response.json()) as { reason: string }).reason).toBe(
            'the target did not answer within 300 ms',
          );
        }
        await judged(seen, 2);
        expect(seen.map((exchange) => exchange.upstreamError)).toEqual([
          'the target did not answer within 300 ms',
          'the target did not answer within 300 ms',
        ]);
      });
    } finally {
      await upstream.close();
    }
  });

  it('answers 502 with the reason when the target cannot be reached', async () => {
    const upstream = await upstreamServer(() => undefined);
    const target = upstream.url;
    await upstream.close();
    await withProxy({ contract: contracts.hooks!, target }, async (proxy, seen) => {
      const response = await fetch(`${proxy.url}/repos/octo/app/hooks`);
      expect(response.status).toBe(502);
      expect(((await response.json()) as { reason: string }).reason).toMatch(/ECONNREFUSED/);
      await judged(seen, 1);
      expect(seen[0]!.upstreamError).toMatch(/ECONNREFUSED/);
    });
  });
});

describe('contracts proxy, hostile clients', () => {
  it('reports a client that hangs up while the target is still answering as gone, not as a target failure', async () => {
    let reached: () => void = () => undefined;
    const upstreamSaw = new Promise<void>((resolve) => (reached = resolve));
    const upstream = await upstreamServer(() => reached());
    try {
      await withProxy({ contract: contracts.hooks!, target: upstream.url }, async (proxy, seen) => {
        const request = http.get(`${proxy.url}/repos/octo/app/hooks`);
        request.on('error', () => undefined);
        await upstreamSaw;
        request.destroy();
        await judged(seen, 1);
        expect(seen[0]).toMatchObject({ clientGone: true, response: undefined, responseResult: undefined });
        expect(seen[0]!.upstreamError).toBeUndefined();
      });
    } finally {
      await upstream.close();
    }
  });

  it.each([false, true])(
    'survives a client that hangs up in the middle of its body (errors: %s), and serves the next request',
    async (errors) => {
      let reached: () => void = () => undefined;
      const upstreamSaw = new Promise<void>((resolve) => (reached = resolve));
      const upstream = await upstreamServer((req, res) => {
        req.once('data', () => reached());
        req.on('error', () => undefined);
        req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('[]'));
      });
      try {
        await withProxy(
          { contract: contracts.hooks!, target: upstream.url, errors, maxBodyBytes: 1024 },
          async (proxy, seen) => {
            const request = http.request(`${proxy.url}/repos/octo/app/hooks`, {
              method: 'POST',
              headers: { ...json, 'content-length': String(1 << 20) },
            });
            request.on('error', () => undefined);
            request.write(Buffer.alloc(64 << 10, 'a'));
            await upstreamSaw;
            request.destroy();
            await expect.poll(() => seen.length, { timeout: 10_000 }).toBe(1);
            const next = await fetch(`${proxy.url}/repos/octo/app/hooks`);
            expect(next.status).toBe(200);
            expect(await next.json()).toEqual([]);
          },
        );
      } finally {
        await upstream.close();
      }
    },
  );
});
