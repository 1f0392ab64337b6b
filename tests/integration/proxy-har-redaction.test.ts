// `contracts proxy --har-out` as an attacker reads the capture afterwards: credentials sent in query parameters,
// headers and body fields (by their names, by the spec's security schemes, by writeOnly and format: password, in JSON
// and form bodies) never reach the file; everything else does, so the capture stays useful.
import { spawn } from 'node:child_process';
import http from 'node:http';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onLoopback } from '../helpers/loopback.js';
import { root } from '../helpers/paths.js';
import { watchProxyProcess } from '../helpers/proxy.js';

const secrets = {
  accessToken: 'at-9f3e1c77d2',
  sig: 'sig-4b8a0e5512',
  schemeQuery: 'ident-71c0d94e3a',
  schemeHeader: 'partner-c2a85e1f06',
  authToken: 'xauth-0d6f3b92aa',
  privateToken: 'private-5e7c1a3b48',
  amzToken: 'amz-8d2f6c0b19',
  apiKey: 'apikey-3a9e7d1c05',
  configSecret: 'cfgsecret-6b1d8e4f27',
  pin: 'pin-2c7a9f3e61',
  recovery: 'recovery-e83b0c5d14',
  formPassword: 'formpass-a41f7e2c9b',
  formClientSecret: 'formcs-7d3e9b1a06',
  issuedToken: 'issued-5f0c2e8d73',
};

const spec = {
  openapi: '3.1.0',
  info: { title: 'things', version: '1.0.0' },
  security: [{ ident: [] }, { partner: [] }],
  paths: {
    '/things': {
      get: {
        operationId: 'listThings',
        parameters: [{ name: 'q', in: 'query', schema: { type: 'string' } }],
        responses: { '200': { description: 'ok' } },
      },
      post: {
        operationId: 'createThing',
        requestBody: {
          content: { 'application/json': { schema: { $ref: '#/components/schemas/NewThing' } } },
        },
        responses: { '201': { description: 'created' } },
      },
    },
    '/login': {
      post: {
        operationId: 'login',
        requestBody: {
          content: {
            'application/x-www-form-urlencoded': {
              schema: { type: 'object', properties: { username: { type: 'string' } } },
            },
          },
        },
        responses: { '200': { description: 'ok' } },
      },
    },
  },
  components: {
    securitySchemes: {
      ident: { type: 'apiKey', in: 'query', name: 'ident' },
      partner: { type: 'apiKey', in: 'header', name: 'X-Partner' },
    },
    schemas: {
      Pin: { type: 'string', format: 'password' },
      NewThing: {
        type: 'object',
        properties: {
          name: { type: 'string' },
          pin: { $ref: '#/components/schemas/Pin' },
          recovery: { type: 'string', writeOnly: true },
          config: { type: 'object', properties: { url: { type: 'string' }, secret: { type: 'string' } } },
        },
      },
    },
  },
};

let dir: string;
let target: { url: string; close(): Promise<void> };

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'contracts-har-redaction-'));
  await writeFile(path.join(dir, 'things.json'), JSON.stringify(spec));
  await writeFile(path.join(dir, 'contracts.config.yaml'), 'apis:\n  - name: things\n    spec: things.json\n');
  // The service answers a login with a token, as an OAuth server does.
  target = await onLoopback(
    http.createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        response.writeHead(request.url === '/login' ? 200 : 201, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ access_token: secrets.issuedToken, token_type: 'bearer', name: 'Rex' }));
      });
    }),
  );
});
afterAll(async () => {
  await target?.close();
  await rm(dir, { recursive: true, force: true });
});

async function proxyTraffic(
  har: string,
  traffic: (url: string) => Promise<void>,
): Promise<{ stdout: string; stderr: string }> {
  const child = spawn(
    process.execPath,
    [
      path.join(root, 'bin/contracts.js'),
      'proxy',
      '--config',
      path.join(dir, 'contracts.config.yaml'),
      '--api',
      'things',
      '--target',
      target.url,
      '--port',
      '0',
      '--har-out',
      har,
    ],
    { cwd: dir, env: { ...process.env, SCARF_ANALYTICS: 'false' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const { url, output } = watchProxyProcess(child, 'things');
  const exited = new Promise((resolve) => child.once('close', resolve));
  try {
    await traffic(await url);
  } finally {
    child.kill('SIGINT');
    await exited;
  }
  return output;
}

describe('contracts proxy --har-out (real process, real target)', () => {
  it('keeps no credential in the query, the queryString, headers, or JSON and form body fields', async () => {
    const har = path.join(dir, 'traffic.har');
    const output = await proxyTraffic(har, async (url) => {
      const query = `q=rex&access_token=${secrets.accessToken}&sig=${secrets.sig}&ident=${secrets.schemeQuery}`;
      const list = await fetch(`${url}/things?${query}`, {
        headers: {
          'X-Partner': secrets.schemeHeader,
          'X-Auth-Token': secrets.authToken,
          'Private-Token': secrets.privateToken,
          'X-Amz-Security-Token': secrets.amzToken,
          'Api-Key': secrets.apiKey,
          'X-Request-Id': 'req-visible-1',
        },
      });
      await list.text();
      const create = await fetch(`${url}/things?ident=${secrets.schemeQuery}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          name: 'Rex',
          pin: secrets.pin,
          recovery: secrets.recovery,
          config: { url: 'https://hooks.example.com/in', secret: secrets.configSecret },
        }),
      });
      await create.text();
      const login = await fetch(`${url}/login?ident=${secrets.schemeQuery}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `username=rex&password=${secrets.formPassword}&client_secret=${secrets.formClientSecret}`,
      });
      await login.text();
      // A request that breaks the spec is printed with its query: the scheme's parameter is redacted there too.
      const bad = await fetch(`${url}/things?ident=${secrets.schemeQuery}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 5 }),
      });
      await bad.text();
    });
    expect(output.stdout).toMatch(/✗ POST \/things\?ident=\[REDACTED\] → 201 \(createThing\) request_body_conformance/);
    for (const [name, value] of Object.entries(secrets))
      expect(output.stdout + output.stderr, name).not.toContain(value);
    const text = await readFile(har, 'utf8');
    for (const [name, value] of Object.entries(secrets)) expect(text, name).not.toContain(value);
    const entries = (JSON.parse(text) as { log: { entries: HarEntry[] } }).log.entries;
    expect(entries).toHaveLength(4);
    const [list, create, login] = entries as [HarEntry, HarEntry, HarEntry];
    // What is not a credential stays, so the capture is still worth reading and re-checking.
    expect(list.request.queryString).toContainEqual({ name: 'q', value: 'rex' });
    expect(list.request.queryString).toContainEqual({ name: 'access_token', value: '[REDACTED]' });
    expect(list.request.headers).toContainEqual({ name: 'x-request-id', value: 'req-visible-1' });
    expect(list.request.headers).toContainEqual({ name: 'x-partner', value: '[REDACTED]' });
    expect(JSON.parse(create.request.postData!.text)).toEqual({
      name: 'Rex',
      pin: '[REDACTED]',
      recovery: '[REDACTED]',
      config: { url: 'https://hooks.example.com/in', secret: '[REDACTED]' },
    });
    expect(login.request.postData!.text).toBe('username=rex&password=[REDACTED]&client_secret=[REDACTED]');
    expect(JSON.parse(login.response.content.text)).toMatchObject({ access_token: '[REDACTED]', name: 'Rex' });
  }, 60_000);
});

interface HarEntry {
  request: {
    url: string;
    headers: { name: string; value: string }[];
    queryString: { name: string; value: string }[];
    postData?: { text: string };
  };
  response: { content: { text: string } };
}
