// `contracts check` with its embedded webhook receiver, against the real sandbox: every delivery check passes with
// nothing skipped; a tunnel (--hook-url with --receiver-port) works the same; --no-receiver and --hook-url alone
// skip exactly the receiver's checks, saying why.
import { mkdtemp, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/plugins/example-sandbox.js';
import { freePort } from '../helpers/free-port.js';
import { runCli } from '../helpers/run-cli.js';

const receiverChecks = [
  'delivery_signature',
  'delivery_headers',
  'delivery_payload_schema',
  'ping_delivered',
  'test_delivered',
  'redelivery_delivered',
  'delivery_record_matches',
];
interface Report {
  summary: { passed: number; failed: number; skipped: number };
  results: { operation: string; check: string; status: string; reason?: string }[];
}

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterAll(async () => {
  await sandbox.stop();
});

async function check(
  extra: string[],
): Promise<{ code: number | null; stdout: string; stderr: string; report: Report }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'check-receiver-'));
  const file = path.join(dir, 'report.json');
  const result = await runCli([
    'check',
    '--api',
    'repository-webhooks',
    '--base-url',
    sandbox.url,
    '--report',
    `json:${file}`,
    ...extra,
  ]);
  return { ...result, report: JSON.parse(await readFile(file, 'utf8')) as Report };
}

describe('contracts check with the embedded receiver, against the sandbox', () => {
  it.each([
    ['the default receiver on loopback', async () => []],
    [
      "a tunnel: --hook-url to the receiver's port, given with --receiver-port",
      async () => {
        const port = await freePort();
        return ['--hook-url', `http://127.0.0.1:${port}/through-the-tunnel`, '--receiver-port', String(port)];
      },
    ],
  ] as [string, () => Promise<string[]>][])(
    'passes every delivery check with nothing skipped: %s',
    async (_name, flags) => {
      const { code, stdout, report } = await check(await flags());
      expect(
        report.results.filter((result) => result.status !== 'passed'),
        stdout,
      ).toEqual([]);
      for (const name of receiverChecks)
        expect(
          report.results.some((result) => result.check === name && result.status === 'passed'),
          name,
        ).toBe(true);
      expect(code).toBe(0);
    },
    60_000,
  );

  it.each([
    [['--no-receiver'], /^--no-receiver/],
    [['--hook-url', 'http://127.0.0.1:9/elsewhere'], /^--hook-url without --receiver-port/],
  ])(
    "with %j skips exactly the receiver's checks, with the reason",
    async (flags, reason) => {
      const { code, report } = await check(flags);
      const skipped = report.results.filter((result) => result.status === 'skipped');
      expect([...new Set(skipped.map((result) => result.check))].sort()).toEqual([...receiverChecks].sort());
      for (const result of skipped) expect(result.reason).toMatch(reason);
      expect(report.summary.failed).toBe(0);
      expect(code).toBe(0);
    },
    60_000,
  );

  it("fails the receiver's checks, naming what to look at, when the deliveries never reach it (a tunnel that forwards nowhere)", async () => {
    const port = await freePort();
    const { code, report, stdout } = await check([
      '--hook-url',
      'http://127.0.0.1:9/a-dead-tunnel',
      '--receiver-port',
      String(port),
      '--delivery-wait',
      '1500',
    ]);
    const failed = new Set(report.results.filter((result) => result.status === 'failed').map((result) => result.check));
    expect([...failed].sort()).toEqual([...receiverChecks].sort());
    expect(report.summary.skipped).toBe(0);
    expect(stdout).toContain(
      `nothing of this run reached the receiver at http://127.0.0.1:${port}; can the target reach it?`,
    );
    expect(code).toBe(1);
  }, 60_000);

  it('refuses --no-receiver with --receiver-port in one line, exit 2', async () => {
    const result = await runCli(['check', '--base-url', sandbox.url, '--no-receiver', '--receiver-port', '4030']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--receiver-port has no effect with --no-receiver/);
  });
});
