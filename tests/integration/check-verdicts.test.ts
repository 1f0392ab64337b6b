// Verdict semantics of `contracts check`: a check passes only when it was exercised and held. When the target's
// own answers keep checks from being exercised, they fail with the reason and the run exits 1; the JUnit report
// holds the same testcases whatever happened.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/plugins/example-sandbox.js';
import { startFaultServer, type Fault } from '../helpers/fault-server.js';
import { freePort } from '../helpers/free-port.js';
import { runCli } from '../helpers/run-cli.js';

const env = { CLIENT_SESSION_API_KEY: 'test-api-key-0001', WEBHOOKS_TOKEN: 'test-token-0001' };
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'contracts-verdicts-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

interface JsonReport {
  summary: { passed: number; failed: number; skipped: number };
  notRun: string[];
  results: {
    api: string;
    operation: string;
    check: string;
    status: string;
    findings: { message: string; count?: number }[];
    reason?: string;
  }[];
}

async function check(baseUrl: string, extra: string[] = []) {
  const name = Math.random().toString(36).slice(2);
  const json = path.join(dir, `${name}.json`);
  const junit = path.join(dir, `${name}.xml`);
  const result = await runCli(
    [
      'check',
      '--base-url',
      baseUrl,
      // --delivery-wait has no effect (and is refused) with --read-only, which creates no hook to deliver.
      ...(extra.includes('--read-only') ? [] : ['--delivery-wait', '1500']),
      '--report',
      `json:${json}`,
      '--report',
      `junit:${junit}`,
      ...extra,
    ],
    { env },
  );
  return {
    ...result,
    report: JSON.parse(await readFile(json, 'utf8')) as JsonReport,
    junit: await readFile(junit, 'utf8'),
  };
}

const testcaseNames = (xml: string) =>
  [...xml.matchAll(/<testcase classname="([^"]+)" name="([^"]+)"/g)].map((match) => `${match[1]} ${match[2]}`);

describe('checks the target keeps from being exercised fail, with the reason', () => {
  const cases: [string, { fault: Fault; failed: [string, string][]; reason: RegExp }][] = [
    [
      'a create answered 404 (a mistyped --repo)',
      {
        fault: 'unknown_repo',
        failed: [
          ['createWebhook', 'events_default_push'],
          ['getWebhook', 'deleted_hook_404'],
          ['pingWebhook', 'ping_delivery'],
          ['listWebhooks', 'per_page_respected'],
        ],
        reason:
          /could not be exercised: createWebhook answered 404 for octo\/app: does the repository exist, and may the token write hooks\?/,
      },
    ],
    [
      'a create answered 201 without an id',
      {
        fault: 'create_without_id',
        failed: [
          ['createWebhook', 'events_default_push'],
          ['updateWebhook', 'events_replace'],
          ['getWebhookDelivery', 'status_code_conformance'],
        ],
        reason: /could not be exercised: createWebhook answered 201 without an integer id/,
      },
    ],
    [
      'every list answered 406',
      {
        fault: 'list_406',
        failed: [
          ['listWebhooks', 'per_page_capped'],
          ['listWebhooks', 'per_page_respected'],
          ['listWebhooks', 'page_parameter'],
        ],
        reason: /the control list with per_page=1 answered 406|listing the hooks with per_page=100 answered 406/,
      },
    ],
    [
      'no delivery ever appearing',
      {
        fault: 'no_deliveries',
        failed: [
          ['pingWebhook', 'ping_delivery'],
          ['testPushWebhook', 'test_push_delivery'],
          ['getWebhookDelivery', 'delivery_request_headers'],
          ['redeliverWebhookDelivery', 'redelivery_flag'],
          ['listWebhookDeliveries', 'deliveries_cursor'],
        ],
        reason: /no delivery appeared/,
      },
    ],
  ];

  it.each(cases)('exits 1 for %s', async (_name, { fault, failed, reason }) => {
    const server = await startFaultServer({ faults: [fault] });
    try {
      const { code, stdout, report } = await check(server.url);
      for (const [operation, name] of failed) {
        const result = report.results.find((r) => r.operation === operation && r.check === name);
        expect(result?.status, `${operation} ${name}\n${stdout}`).toBe('failed');
      }
      expect(report.results.flatMap((r) => r.findings.map((f) => f.message)).join('\n')).toMatch(reason);
      expect(stdout).toMatch(reason);
      expect(report.summary.skipped).toBe(0);
      expect(code).toBe(1);
      expect(server.liveHooks()).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('exits 1 against the sandbox for a repository that does not exist, saying why', async () => {
    const sandbox = await startSandbox({ port: 0 });
    try {
      const { code, stdout } = await check(sandbox.url, ['--owner', 'nobody', '--repo', 'nothing']);
      expect(stdout).toContain(
        'could not be exercised: createWebhook answered 404 for nobody/nothing: does the repository exist, and may the token write hooks?',
      );
      expect(stdout).toMatch(/\d+ passed, [1-9]\d* failed, 0 skipped/);
      expect(code).toBe(1);
    } finally {
      await sandbox.stop();
    }
  });

  it('fails --read-only on a hook that does not exist, naming it', async () => {
    const server = await startFaultServer();
    try {
      const { code, stdout, report } = await check(server.url, [
        '--api',
        'repository-webhooks',
        '--read-only',
        '--hook-id',
        '999',
      ]);
      expect(stdout).toContain('getWebhook answered 404 for hook 999 of octo/app');
      expect(report.results.find((r) => r.operation === 'getWebhookConfig' && r.check === 'config_only')?.status).toBe(
        'failed',
      );
      expect(code).toBe(1);
    } finally {
      await server.close();
    }
  });

  it('survives a hook list holding null, numbers and strings, and still deletes what it created', async () => {
    const server = await startFaultServer({ faults: ['null_in_list'] });
    try {
      const { code, stderr, report } = await check(server.url);
      expect(stderr).not.toContain('internal error');
      expect(report.results.length).toBeGreaterThan(0);
      expect(code).toBe(1);
      expect(server.liveHooks()).toEqual([]);
    } finally {
      await server.close();
    }
  });
});

describe('JUnit reports a CI can trust', () => {
  it('holds the same testcases for a passing run, a run whose create fails and an unreachable target (plus the error case)', async () => {
    const good = await startFaultServer();
    const bad = await startFaultServer({ faults: ['unknown_repo'] });
    try {
      const passing = await check(good.url);
      const failing = await check(bad.url);
      const unreachable = await check(`http://127.0.0.1:${await freePort()}`);
      expect(passing.code).toBe(0);
      expect(failing.code).toBe(1);
      expect(unreachable.code).toBe(2);
      const names = testcaseNames(passing.junit);
      expect(names.length).toBeGreaterThan(60);
      expect(testcaseNames(failing.junit)).toEqual(names);
      expect(testcaseNames(unreachable.junit)).toEqual([...names, 'contracts.run the run completed']);
      expect(unreachable.junit).toMatch(/<testsuites name="contracts check" tests="\d+" failures="0" errors="1"/);
      expect(unreachable.junit).toMatch(
        /<error message="cannot reach http:\/\/127\.0\.0\.1:\d+ \(GET \/client-session\): ECONNREFUSED" type="TARGET_UNREACHABLE">/,
      );
      expect(unreachable.report.notRun.length).toBe(names.length);
      expect(unreachable.stdout).toMatch(
        /Not run \(the run stopped: the target could not be reached\): \d+ checks of retrieveClientSession/,
      );
    } finally {
      await good.close();
      await bad.close();
    }
  });

  it('reports the same finding from repeated polls once, with a count', async () => {
    // The ping never shows up as a ping, so the deliveries list is polled again and again, each time breaking the schema.
    const server = await startFaultServer({ faults: ['ping_wrong_event', 'bad_delivery_item'] });
    try {
      const { report, stdout } = await check(server.url);
      const list = report.results.find(
        (r) => r.operation === 'listWebhookDeliveries' && r.check === 'response_schema_conformance',
      );
      expect(list?.status).toBe('failed');
      expect(
        list?.findings.some((f) => (f.count ?? 1) > 2),
        JSON.stringify(list?.findings),
      ).toBe(true);
      expect(stdout).toMatch(/\(seen \d+ times\)/);
      const messages = report.results.flatMap((r) => r.findings.map((f) => `${r.operation} ${r.check} ${f.message}`));
      expect(new Set(messages).size).toBe(messages.length);
    } finally {
      await server.close();
    }
  });
});
