// The config's credentials reach each API where its spec or the config says (contracts.config.yaml `credentials`):
// a loopback server records what arrives, and no value ever appears in what the tool writes.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { copyFile, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { specFile } from '../helpers/paths.js';
import { runCli } from '../helpers/run-cli.js';
import { securedSpec } from '../helpers/secured-spec.js';

interface Received {
  url: URL;
  headers: http.IncomingHttpHeaders;
}

let server: http.Server;
let baseUrl: string;
let received: Received[] = [];
let dir: string;
let config: string;

// Each API of the config is secured one way; the server answers 401 to a request with none of the credentials.
const cases = [
  {
    api: 'keyed-header',
    env: 'CONTRACTS_KEYED_HEADER_KEY',
    value: 'widget-key-5e1f0c',
    scheme: { type: 'apiKey', in: 'header', name: 'X-Widget-Key' },
    sent: (r: Received) => r.headers['x-widget-key'],
    as: (v: string) => v,
    curl: `-H 'X-Widget-Key: '"$CONTRACTS_KEYED_HEADER_KEY"`,
  },
  {
    api: 'bearer',
    env: 'CONTRACTS_BEARER_TOKEN',
    value: 'gadget-token-77c3ab',
    scheme: { type: 'http', scheme: 'bearer' },
    sent: (r: Received) => r.headers.authorization,
    as: (v: string) => `Bearer ${v}`,
    curl: `-H 'Authorization: Bearer '"$CONTRACTS_BEARER_TOKEN"`,
  },
  {
    api: 'keyed-query',
    env: 'CONTRACTS_KEYED_QUERY_KEY',
    value: 'query-key-90d2e4',
    scheme: { type: 'apiKey', in: 'query', name: 'api_key' },
    sent: (r: Received) => r.url.searchParams.get('api_key') ?? undefined,
    as: (v: string) => v,
    curl: `'?api_key='"$CONTRACTS_KEYED_QUERY_KEY"`,
  },
  {
    api: 'keyed-cookie',
    env: 'CONTRACTS_KEYED_COOKIE_KEY',
    value: 'cookie-key-3ab81f',
    scheme: { type: 'apiKey', in: 'cookie', name: 'session' },
    sent: (r: Received) => /(?:^|; )session=([^;]*)/.exec(r.headers.cookie ?? '')?.[1],
    as: (v: string) => v,
    curl: `'session='"$CONTRACTS_KEYED_COOKIE_KEY"`,
  },
];

beforeAll(async () => {
  server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://recorder.invalid');
    received.push({ url, headers: request.headers });
    const credential =
      cases.some((entry) => entry.sent({ url, headers: request.headers }) !== undefined) ||
      request.headers['x-api-key'] !== undefined;
    const id = /^\/widgets\/(\d+)$/.exec(url.pathname)?.[1];
    response.setHeader('content-type', 'application/json');
    if (!credential) response.writeHead(401).end();
    else if (url.pathname === '/client-session') response.writeHead(200).end('{}');
    // A planted bug, so each run reports a failure with its curl line: an id that is not a number is a 500.
    else if (!/^\/widgets\/-?\d+$/.test(url.pathname)) response.writeHead(500).end();
    else if (id === undefined || Number(id) < 1 || Number(id) > 1000) response.writeHead(400).end();
    else response.writeHead(200).end(JSON.stringify({ id: Number(id) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  dir = await mkdtemp(path.join(os.tmpdir(), 'contracts-credentials-'));
  config = path.join(dir, 'contracts.config.yaml');
  const lines = ['apis:'];
  for (const entry of cases) {
    await writeFile(
      path.join(dir, `${entry.api}.json`),
      securedSpec({ credential: entry.scheme }, [{ credential: [] }]),
    );
    lines.push(
      `  - name: ${entry.api}`,
      `    spec: ${entry.api}.json`,
      '    credentials:',
      `      - { env: ${entry.env}, securityScheme: credential }`,
    );
  }
  await writeFile(config, `${lines.join('\n')}\n`);
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

const fuzz = (api: string, env: Record<string, string>, report: string) =>
  runCli(
    [
      'fuzz',
      '--config',
      config,
      '--api',
      api,
      '--base-url',
      baseUrl,
      '--seed',
      '1',
      '--max-examples',
      '5',
      '--phases',
      'examples,boundaries,negative',
      '--report',
      `json:${report}`,
    ],
    { env },
  );

describe('credentials from contracts.config.yaml (real process, loopback server)', () => {
  it.each(cases)(
    "fuzz sends $env where the $api spec's security scheme says, and never shows it",
    async (entry) => {
      received = [];
      const report = path.join(dir, `${entry.api}-report.json`);
      const result = await fuzz(entry.api, { [entry.env]: entry.value }, report);
      const carried = received.map(entry.sent).filter((value) => value !== undefined);
      expect(carried.length).toBeGreaterThan(0);
      // Every request that carries the credential carries this one, in the scheme's form.
      expect(new Set(carried)).toEqual(new Set([entry.as(entry.value)]));
      const written = result.stdout + result.stderr + (await readFile(report, 'utf8'));
      expect(written).not.toContain(entry.value);
      expect(written).toContain('not_a_server_error');
      // The curl line refers to the variable the config names.
      expect(result.stdout).toContain(entry.curl);
      expect(result.code).toBe(1);
    },
    120_000,
  );

  it("fuzz --replay sends the variable's value again where the saved report has it redacted", async () => {
    const report = path.join(dir, 'keyed-query-report.json');
    expect(await readFile(report, 'utf8')).toContain('api_key=[REDACTED]');
    received = [];
    const result = await runCli(['fuzz', '--config', config, '--base-url', baseUrl, '--replay', report], {
      env: { CONTRACTS_KEYED_QUERY_KEY: 'query-key-90d2e4' },
    });
    expect(result.stdout).toMatch(/still fails \(answered 500\)/);
    expect(received.length).toBeGreaterThan(0);
    for (const request of received) expect(request.url.searchParams.get('api_key')).toBe('query-key-90d2e4');
  }, 60_000);

  it('refuses to fuzz a real target without a variable its spec requires, in one line, sending nothing', async () => {
    received = [];
    const result = await fuzz('keyed-header', { CONTRACTS_KEYED_HEADER_KEY: '' }, path.join(dir, 'unused.json'));
    expect(result.stderr.trim()).toBe(
      'contracts fuzz: CONTRACTS_KEYED_HEADER_KEY is not set, and keyed-header needs it: its security scheme credential is required by getWidget (contracts.config.yaml names the variable)',
    );
    expect(result.code).toBe(2);
    expect(received).toEqual([]);
  }, 60_000);

  it("check sends the seed API's credentials from the variables a config renames them to", async () => {
    const renamed = path.join(dir, 'renamed.config.yaml');
    // A config names only files in its own project (confine-path.ts): the seed spec is copied beside it.
    await copyFile(specFile('client-session'), path.join(dir, 'client-session.yaml'));
    await writeFile(
      renamed,
      [
        'apis:',
        '  - name: client-session',
        '    spec: client-session.yaml',
        '    credentials:',
        '      - { env: MY_SESSION_KEY, securityScheme: apiKey }',
        '      - { env: MY_CLIENT_TOKEN, query: clientToken }',
        '',
      ].join('\n'),
    );
    const env = {
      CLIENT_SESSION_API_KEY: 'old-name-key-0000',
      CLIENT_SESSION_CLIENT_TOKEN: 'old-name-token-0000',
      MY_SESSION_KEY: 'renamed-key-4411aa',
      MY_CLIENT_TOKEN: 'renamed-token-8822bb',
    };
    received = [];
    // The config names variables without the API's prefix: the user allows them on the command line.
    const allow = ['--allow-env', 'MY_SESSION_KEY', '--allow-env', 'MY_CLIENT_TOKEN'];
    const result = await runCli(
      ['check', '--config', renamed, '--api', 'client-session', '--base-url', baseUrl, ...allow],
      { env },
    );
    expect(received.length).toBeGreaterThanOrEqual(3);
    for (const request of received) expect(request.url.searchParams.get('clientToken')).toBe(env.MY_CLIENT_TOKEN);
    // The control and the version probe carry the renamed key; the auth probe carries none.
    expect(received.map((request) => request.headers['x-api-key'])).toEqual([
      env.MY_SESSION_KEY,
      undefined,
      env.MY_SESSION_KEY,
    ]);
    expect(result.stdout + result.stderr).not.toMatch(/renamed-(key|token)|placeholder/);
    expect(result.code).not.toBe(2);
    expect(result.stderr).toContain(`contracts check: sending credentials as the config ${renamed} names them`);

    received = [];
    const unset = await runCli(
      ['check', '--config', renamed, '--api', 'client-session', '--base-url', baseUrl, ...allow],
      { env: { ...env, MY_SESSION_KEY: '' } },
    );
    expect(unset.stderr).toContain('contracts check: MY_SESSION_KEY is not set: sending a placeholder key');
    expect(received[0]!.headers['x-api-key']).toBe('contracts-placeholder-api-key');
  }, 120_000);
});
