// `contracts proxy` as a user runs it: a child process in front of the real sandbox, stopped with Ctrl-C.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/plugins/example-sandbox.js';
import { root } from '../helpers/paths.js';
import { watchProxyProcess } from '../helpers/proxy.js';
import { runCli } from '../helpers/run-cli.js';

const apiKey = 'sk-proxy-cli-secret-key';
let sandbox: Sandbox;
let dir: string;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, host: '127.0.0.1' });
  dir = await mkdtemp(path.join(tmpdir(), 'contracts-proxy-'));
});
afterAll(async () => {
  await sandbox?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('contracts proxy', () => {
  it('prints each violation as traffic flows, blocks with --errors, and at Ctrl-C reports, writes a redacted HAR and the coverage', async () => {
    const har = path.join(dir, 'traffic.har');
    const coverage = path.join(dir, 'coverage.json');
    const report = path.join(dir, 'report.json');
    const child = spawn(
      process.execPath,
      [
        path.join(root, 'bin/contracts.js'),
        'proxy',
        '--api',
        'client-session',
        '--target',
        sandbox.url,
        '--port',
        '0',
        '--errors',
        '--har-out',
        har,
        '--coverage',
        coverage,
        '--min-coverage',
        '100',
        '--report',
        `json:${report}`,
      ],
      {
        env: { ...process.env, CLIENT_SESSION_API_KEY: apiKey },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const { output, url: listening } = watchProxyProcess(child);
    const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
    try {
      const url = await listening;
      const good = await fetch(`${url}/client-session`, { headers: { 'X-API-KEY': apiKey, 'X-API-VERSION': '2.4' } });
      expect(good.status).toBe(200);
      await good.text();
      const bad = await fetch(`${url}/client-session`, { headers: { 'X-API-KEY': apiKey, 'X-API-VERSION': '2.3' } });
      expect(bad.status).toBe(400);
      expect(await bad.text()).toContain('X-API-VERSION must be one of the allowed values');
      // Printed as it happens, before the proxy stops.
      await expect
        .poll(() => output.stdout, { timeout: 10_000 })
        .toContain(
          '✗ GET /client-session → 400 (retrieveClientSession) blocked request_parameters_conformance: header parameter X-API-VERSION must be one of the allowed values ("2.4"): got "2.3"',
        );
    } finally {
      child.kill('SIGINT');
    }
    expect(await exited).toBe(1);
    expect(output.stdout).toContain('SIGINT: 2 exchanges: 1 conform, 1 fail (1 blocked), 0 match no operation');
    expect(output.stdout).toContain(
      'coverage: 1/1 operations exercised; 1/1 documented operation × status pairs seen (100%)',
    );
    expect(output.stdout + output.stderr).not.toContain(apiKey);
    const text = await readFile(har, 'utf8');
    expect(text).not.toContain(apiKey);
    expect(JSON.parse(await readFile(coverage, 'utf8'))).toMatchObject({
      statusPairs: { documented: 1, seen: 1, percent: 100 },
    });
    const results = JSON.parse(await readFile(report, 'utf8')) as {
      mode: string;
      results: { operation: string; check: string; status: string }[];
    };
    expect(results.mode).toBe('proxy');
    expect(results.results.filter((result) => result.status === 'failed').map((result) => result.check)).toEqual([
      'request_parameters_conformance',
    ]);
    expect(results.results.map((result) => result.check)).toEqual(
      expect.arrayContaining([
        'request_security_conformance',
        'status_code_conformance',
        'response_schema_conformance',
        'payment_method_placement',
      ]),
    );
    // The capture reads back: the blocked request is found again on the request side.
    const replay = await runCli(['validate', '--api', 'client-session', '--har', har, '--side', 'request']);
    expect(replay.stdout).toContain('2 exchanges: 1 conform, 1 fail, 0 match no operation');
  }, 60_000);

  it.each([
    [['--target', 'http://127.0.0.1:1'], 'name the API behind the target: --api client-session|repository-webhooks'],
    [['--api', 'client-session'], 'name the service to forward to: --target URL'],
    [['--api', 'client-session', '--target', 'ftp://x'], '--target must be an http(s) URL, not "ftp://x"'],
  ])('refuses %j in one line and exits 2', async (args, message) => {
    const result = await runCli(['proxy', ...args]);
    expect(result.stderr).toContain(message);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(result.code).toBe(2);
  });
});
