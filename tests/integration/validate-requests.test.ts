// `contracts validate --har` on the request side, and coverage, over traffic recorded from the real sandbox.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CoverageReport } from '../../src/core/coverage.js';
import { startSandbox, type Sandbox } from '../../src/plugins/example-sandbox.js';
import { runCli } from '../helpers/run-cli.js';

const apiKey = 'sk-validate-requests-secret';
let dir: string;
let sandbox: Sandbox;
let har: string;
let goodHar: string;

async function entry(url: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
  const response = await fetch(url, init);
  const text = await response.text();
  return {
    request: {
      method: init.method ?? 'GET',
      url,
      headers: Object.entries(init.headers ?? {}).map(([name, value]) => ({ name, value })),
      ...(init.body !== undefined ? { postData: { mimeType: 'application/json', text: init.body } } : {}),
    },
    response: {
      status: response.status,
      headers: [...response.headers].map(([name, value]) => ({ name, value })),
      content: { text },
    },
  };
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'contracts-validate-requests-'));
  sandbox = await startSandbox({ port: 0, host: '127.0.0.1' });
  const session = `${sandbox.url}/client-session`;
  const good = { 'X-API-KEY': apiKey, 'X-API-VERSION': '2.4' };
  const entries = [
    await entry(session, { headers: good }),
    await entry(session, { headers: { 'X-API-VERSION': '2.4' } }),
    await entry(session, { headers: { ...good, 'X-API-VERSION': '2.3' } }),
    await entry(`${sandbox.url}/repos/octo/app/hooks?per_page=500`),
    await entry(`${sandbox.url}/repos/octo/app/hooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ config: { url: 'https://example.com/h' }, colour: 'red' }),
    }),
  ];
  har = path.join(dir, 'traffic.har');
  await writeFile(har, JSON.stringify({ log: { version: '1.2', entries } }));
  goodHar = path.join(dir, 'good.har');
  await writeFile(goodHar, JSON.stringify({ log: { version: '1.2', entries: [entries[0]] } }));
});
afterAll(async () => {
  await sandbox?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('contracts validate --har, request side', () => {
  it('reports each broken request rule once, by exchange, and never prints the API key', async () => {
    const result = await runCli(['validate', '--api', 'all', '--har', har], {
      env: { CLIENT_SESSION_API_KEY: apiKey },
    });
    const out = result.stdout;
    expect(out).toMatch(
      /#2 GET \/client-session → 401[^\n]*\n\s+✗ request_security_conformance: the request lacks the credential its security requires: header X-API-KEY/,
    );
    expect(out).toMatch(
      /#3 GET \/client-session → 400[^\n]*\n\s+✗ request_parameters_conformance: header parameter X-API-VERSION must be one of the allowed values \("2\.4"\): got "2\.3"/,
    );
    expect(out).toContain('✗ request_parameters_conformance: query parameter per_page must be <= 100: got "500"');
    expect(out).toContain(
      '✗ request_body_conformance: request body has a property the schema does not allow: "colour"',
    );
    expect(out).not.toContain('#1 ');
    expect(out).toContain('5 exchanges: 1 conform, 4 fail, 0 match no operation');
    expect(out + result.stderr).not.toContain(apiKey);
    expect(result.code).toBe(1);
  });

  it.each([
    // The sandbox answers 401, 400 and 422, which the specs leave undocumented (their error bodies are not shown).
    ['response', /5 exchanges: 2 conform, 3 fail/, 1],
    ['request', /5 exchanges: 1 conform, 4 fail/, 1],
  ] as const)('with --side %s judges only that side', async (side, summary, code) => {
    const result = await runCli(['validate', '--api', 'all', '--har', har, '--side', side]);
    expect(result.stdout).toMatch(summary);
    expect(result.code).toBe(code);
  });

  it('refuses a --side that is not request, response or both, in one line', async () => {
    const result = await runCli(['validate', '--api', 'all', '--har', har, '--side', 'client']);
    expect(result.stderr).toContain('--side must be one of request, response, both, not "client"');
    expect(result.code).toBe(2);
  });
});

describe('contracts validate --har --coverage', () => {
  it('writes the coverage, prints its summary, and fails under --min-coverage', async () => {
    const file = path.join(dir, 'coverage.json');
    const result = await runCli([
      'validate',
      '--api',
      'all',
      '--har',
      har,
      '--side',
      'response',
      '--coverage',
      file,
      '--min-coverage',
      '50',
    ]);
    const report = JSON.parse(await readFile(file, 'utf8')) as CoverageReport;
    expect(report.operations).toEqual({ documented: 13, exercised: 3 });
    const session = report.perOperation.find((entry) => entry.operationId === 'retrieveClientSession')!;
    expect(session.calls).toBe(3);
    expect(session.statuses).toEqual({ '200': true });
    expect(session.undocumentedStatuses).toEqual([401, 400]);
    // The demo session carries paymentMethod under order only (the seed's example).
    expect(session.placement).toEqual({ '/order/paymentMethod only': 1 });
    expect(
      report.perOperation.find((entry) => entry.operationId === 'listWebhooks')!.parameters['query per_page'],
    ).toBe(true);
    expect(result.stdout).toMatch(
      /coverage: 3\/13 operations exercised; \d+\/\d+ documented operation × status pairs seen \(\d+(\.\d)?%\)/,
    );
    expect(result.stdout).toMatch(/coverage [\d.]+% is under --min-coverage 50%/);
    expect(result.code).toBe(1);
    // One conforming exchange: 1 pair seen, enough for a threshold of 1 % and not for 50 %.
    const low = await runCli(['validate', '--api', 'all', '--har', goodHar, '--min-coverage', '1']);
    expect(low.code).toBe(0);
    const high = await runCli(['validate', '--api', 'all', '--har', goodHar, '--min-coverage', '50']);
    expect(high.stdout).toContain('1 exchange: 1 conform');
    expect(high.code).toBe(1);
  });

  it('refuses a --min-coverage that is not a percentage', async () => {
    const result = await runCli(['validate', '--api', 'all', '--har', har, '--min-coverage', '120']);
    expect(result.stderr).toContain('--min-coverage must be a percentage from 0 to 100, not "120"');
    expect(result.code).toBe(2);
  });
});
