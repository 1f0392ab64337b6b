// `contracts check` against a server over a real socket: a conforming stateful one, and one that breaks exactly
// one rule per test.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/free-port.js';
import { startFaultServer, type Fault, type FaultServer } from '../helpers/fault-server.js';
import { runCli } from '../helpers/run-cli.js';

const env = { CLIENT_SESSION_API_KEY: 'test-api-key-0001', WEBHOOKS_TOKEN: 'test-token-0001' };
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'contracts-check-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

interface JsonReport {
  summary: { passed: number; failed: number; skipped: number };
  results: {
    api: string;
    operation: string;
    check: string;
    status: string;
    findings: { check: string; message: string }[];
    reason?: string;
  }[];
}

async function checkAgainst(server: FaultServer, extra: string[] = [], extraEnv: Record<string, string> = {}) {
  const report = path.join(dir, `report-${Math.random().toString(36).slice(2)}.json`);
  const result = await runCli(
    // The fault server delivers at once: a delivery that has not shown within 2 s is not coming (default 10 s).
    [
      'check',
      '--base-url',
      server.url,
      '--owner',
      'octo',
      '--repo',
      'app',
      ...(extra.includes('--read-only') ? [] : ['--delivery-wait', '2000']),
      '--report',
      `json:${report}`,
      ...extra,
    ],
    { env: { ...env, ...extraEnv } },
  );
  const json = JSON.parse(await readFile(report, 'utf8')) as JsonReport;
  return { ...result, report: json, reportFile: report };
}

describe('contracts check against a conforming stateful server', () => {
  it('runs the full sequence: every check passes, none is skipped, and the hooks it created are gone', async () => {
    const server = await startFaultServer();
    try {
      const { code, stdout, report } = await checkAgainst(server);
      expect(
        report.results.filter((r) => r.status !== 'passed'),
        stdout,
      ).toEqual([]);
      expect(report.summary.skipped).toBe(0);
      const judged = new Set(report.results.map((r) => r.check));
      for (const check of [
        'events_default_push',
        'events_replace',
        'add_events',
        'remove_events',
        'secret_masked',
        'redelivery_flag',
        'deleted_hook_404',
        'per_page_respected',
        'per_page_capped',
        'auth_required',
        'api_version_enforced',
        'payment_method_placement',
        'status_code_conformance',
        'content_type_conformance',
        'response_schema_conformance',
        'page_parameter',
        'deliveries_cursor',
        'hook_addressable',
        'config_only',
        'secret_removed_unless_resent',
        'ping_delivery',
        'test_push_delivery',
        'test_skips_unsubscribed',
        'delivery_request_headers',
        'shared_config_refused',
      ]) {
        expect(judged, check).toContain(check);
      }
      const operations = new Set(report.results.filter((r) => r.api === 'repository-webhooks').map((r) => r.operation));
      expect(operations.size).toBe(12);
      expect(stdout).toMatch(/\d+ passed, 0 failed, 0 skipped/);
      expect(code).toBe(0);
      expect(server.liveHooks()).toEqual([]);
      expect(server.requests.filter((r) => r.startsWith('POST') && r.endsWith('/hooks'))).toHaveLength(3);
    } finally {
      await server.close();
    }
  });
});

describe('contracts check against a server that breaks one rule', () => {
  const cases: [string, { fault: Fault; check: string; message: RegExp }][] = [
    [
      'an undocumented status',
      {
        fault: 'status_code',
        check: 'status_code_conformance',
        message: /status 201 is not documented for retrieveClientSession/,
      },
    ],
    [
      'an undocumented content type',
      {
        fault: 'content_type',
        check: 'content_type_conformance',
        message: /content type text\/plain is not documented/,
      },
    ],
    [
      'a body on a 202',
      { fault: 'body_on_202', check: 'content_type_conformance', message: /status 202 is documented without a body/ },
    ],
    [
      'a currency code outside the list',
      {
        fault: 'schema',
        check: 'response_schema_conformance',
        message: /\/currencyCode: "XXX" is not one of the 172 allowed values/,
      },
    ],
    [
      'paymentMethod in neither place',
      {
        fault: 'placement',
        check: 'payment_method_placement',
        message: /paymentMethod is missing: expected at \/paymentMethod .* \/order\/paymentMethod/,
      },
    ],
    [
      'a 2xx without X-API-KEY',
      { fault: 'auth', check: 'auth_required', message: /without X-API-KEY must not succeed, got 200/ },
    ],
    [
      'a 2xx for X-API-VERSION 2.3',
      { fault: 'version', check: 'api_version_enforced', message: /X-API-VERSION 2\.3 must not succeed/ },
    ],
    [
      'events not defaulting to push',
      { fault: 'events_default', check: 'events_default_push', message: /must have events \[push\], got \[\]/ },
    ],
    [
      'events appended instead of replaced',
      { fault: 'events_replace', check: 'events_replace', message: /must replace the hook's events/ },
    ],
    [
      'add_events replacing',
      {
        fault: 'add_events',
        check: 'add_events',
        message: /add_events \[issues\] on \[pull_request\] must give \[pull_request, issues\], got \[issues\]/,
      },
    ],
    [
      'remove_events ignored',
      { fault: 'remove_events', check: 'remove_events', message: /remove_events \[pull_request\]/ },
    ],
    [
      'the secret in clear in a webhook body',
      { fault: 'secret_in_hook', check: 'secret_masked', message: /secret in clear at \/config\/secret/ },
    ],
    [
      'a redelivery without redelivery: true',
      { fault: 'redelivery_flag', check: 'redelivery_flag', message: /no redelivery: true/ },
    ],
    [
      'a deleted hook still readable',
      { fault: 'deleted_hook', check: 'deleted_hook_404', message: /must answer 404, got 200/ },
    ],
    [
      'pages longer than per_page',
      {
        fault: 'per_page',
        check: 'per_page_respected',
        message: /per_page=1 with \d+ items to list must give a page of 1, got 2/,
      },
    ],
    [
      'per_page=101 answered 500',
      { fault: 'per_page_cap', check: 'per_page_capped', message: /got 500, which says nothing about per_page/ },
    ],
    [
      'per_page=101 answered 406, which is no rejection of per_page',
      { fault: 'per_page_cap_406', check: 'per_page_capped', message: /got 406, which says nothing about per_page/ },
    ],
    [
      'config endpoints returning the whole webhook',
      {
        fault: 'config_whole_hook',
        check: 'config_only',
        message: /the config endpoint returned webhook fields: type, id, name, active, events/,
      },
    ],
    [
      'an update without the secret keeping it',
      { fault: 'secret_kept', check: 'secret_removed_unless_resent', message: /left the secret out must remove it/ },
    ],
    [
      'an update with the secret dropping it',
      { fault: 'secret_dropped', check: 'secret_removed_unless_resent', message: /carried the secret must keep it/ },
    ],
    ['a ping delivering another event', { fault: 'ping_wrong_event', check: 'ping_delivery', message: /none "ping"/ }],
    [
      'a test on a push hook delivering nothing',
      { fault: 'test_no_push', check: 'test_push_delivery', message: /no delivery appeared within \d+ ms of a test/ },
    ],
    [
      'a test on a hook without push delivering',
      {
        fault: 'test_unsubscribed',
        check: 'test_skips_unsubscribed',
        message: /not subscribed to push produced 1 delivery/,
      },
    ],
    [
      'a delivery record whose X-Service-Delivery is not its guid',
      {
        fault: 'delivery_headers',
        check: 'delivery_request_headers',
        message: /X-Service-Delivery is "[0-9a-f-]+", expected "[0-9a-f-]+"/,
      },
    ],
    [
      'two hooks sharing a config with overlapping events',
      {
        fault: 'shared_config',
        check: 'shared_config_refused',
        message: /same config and overlapping events was created \(201\)/,
      },
    ],
    [
      'the page parameter ignored',
      { fault: 'page_ignored', check: 'page_parameter', message: /page=2 holds the same hook as page 1/ },
    ],
    [
      'the deliveries cursor ignored',
      {
        fault: 'cursor_ignored',
        check: 'deliveries_cursor',
        message: /the page at cursor \d+ must start at delivery \d+, got delivery \d+/,
      },
    ],
    [
      'a created hook that cannot be read',
      {
        fault: 'created_not_found',
        check: 'hook_addressable',
        message: /reading the hook just created \(id \d+\) answered 404/,
      },
    ],
  ];

  // Two cases wait out --delivery-wait twice (4 s) on top of a whole check run: 6 s alone, 13 s beside five others
  // on two cores, and past 30 s once in CI. The wait is the check's; the margin is the machine's.
  it.each(cases)(
    'exits 1 for %s, with a finding of that check',
    async (_name, { fault, check, message }) => {
      const server = await startFaultServer({ faults: [fault] });
      try {
        const { code, stdout, report } = await checkAgainst(server);
        const failed = report.results.filter((r) => r.status === 'failed');
        expect(
          failed.map((r) => r.check),
          stdout,
        ).toContain(check);
        expect(
          failed
            .flatMap((r) => r.findings)
            .map((f) => f.message)
            .join('\n'),
        ).toMatch(message);
        expect(stdout).toMatch(message);
        expect(code).toBe(1);
        expect(server.liveHooks()).toEqual([]);
      } finally {
        await server.close();
      }
    },
    90_000,
  );
});

describe('contracts check: secrets', () => {
  it('never writes an API key, token, client token or webhook secret, even when the server echoes them', async () => {
    const server = await startFaultServer({ faults: ['echo_secrets', 'secret_in_hook'] });
    const canaries = {
      CLIENT_SESSION_API_KEY: 'canary-api-key-7f3a9c',
      CLIENT_SESSION_CLIENT_TOKEN: 'canary-client-token-5b21',
      WEBHOOKS_TOKEN: 'canary-bearer-token-c0ffee',
    };
    try {
      const junit = path.join(dir, 'secrets.xml');
      const { stdout, stderr, reportFile } = await checkAgainst(server, ['--report', `junit:${junit}`], canaries);
      expect(server.secretsSeen.length).toBeGreaterThan(0);
      const written = [stdout, stderr, await readFile(reportFile, 'utf8'), await readFile(junit, 'utf8')].join('\n');
      for (const secret of [...Object.values(canaries), ...server.secretsSeen]) expect(written).not.toContain(secret);
    } finally {
      await server.close();
    }
  });
});

describe('contracts check: reports', () => {
  it('writes a JUnit report with one testcase per operation × check, passing ones included', async () => {
    const server = await startFaultServer({ faults: ['schema'] });
    try {
      const junit = path.join(dir, 'junit.xml');
      const { report } = await checkAgainst(server, ['--report', `junit:${junit}`]);
      const xml = await readFile(junit, 'utf8');
      expect(xml.match(/<testcase /g)?.length).toBe(report.results.length);
      expect(xml).toMatch(
        /<testcase classname="client-session\.retrieveClientSession" name="retrieveClientSession response_schema_conformance" time="\d+\.\d{3}">\s*<failure message="\/currencyCode/,
      );
      expect(xml).toMatch(
        /<testcase classname="client-session.retrieveClientSession" name="retrieveClientSession auth_required" time="\d+\.\d{3}"\/>/,
      );
      expect(xml).toMatch(
        /^<\?xml version="1\.0" encoding="UTF-8"\?>\n<testsuites name="contracts check" tests="\d+" failures="1" errors="0" skipped="0" time="\d+\.\d{3}">/,
      );
    } finally {
      await server.close();
    }
  });
});

describe('contracts check: runs that cannot run', () => {
  it('exits 2 naming the URL and the reason when the target is unreachable, and still writes valid reports', async () => {
    const port = await freePort();
    const report = path.join(dir, 'unreachable.json');
    const result = await runCli(
      ['check', '--base-url', `http://127.0.0.1:${port}`, '--owner', 'o', '--repo', 'r', '--report', `json:${report}`],
      { env },
    );
    expect(result.stderr).toContain(`cannot reach http://127.0.0.1:${port}`);
    expect(result.stderr).toContain('ECONNREFUSED');
    expect(result.code).toBe(2);
    const json = JSON.parse(await readFile(report, 'utf8')) as { error: { code: string } };
    expect(json.error.code).toBe('TARGET_UNREACHABLE');
  });

  it.each([
    ['--read-only without --base-url', ['check', '--read-only'], /--read-only needs --base-url/],
    [
      'an --owner with a slash',
      ['check', '--base-url', 'http://127.0.0.1:9', '--owner', 'a/b'],
      /--owner must be one path segment/,
    ],
    ['a --base-url that is not a URL', ['check', '--base-url', 'staging'], /--base-url must be an http\(s\) URL/],
    [
      'a --base-url carrying a user and password',
      ['check', '--base-url', 'http://admin:hunter2-secret@127.0.0.1:9'],
      /--base-url must not carry a user or password: credentials come only from the environment/,
    ],
    [
      'a --base-url with a query',
      ['check', '--base-url', 'http://127.0.0.1:9/?token=abc'],
      /--base-url must not carry a query or a fragment/,
    ],
    [
      'a bad --delivery-wait',
      ['check', '--base-url', 'http://127.0.0.1:9', '--delivery-wait', 'soon'],
      /--delivery-wait must be a whole number of milliseconds/,
    ],
    ['a bad --report', ['check', '--report', 'xml:out.xml'], /--report takes junit:FILE or json:FILE/],
    [
      'a bad --timeout',
      ['check', '--timeout', '0'],
      /--timeout must be a whole number of milliseconds from 1 to 600000/,
    ],
    [
      '--read-only without --hook-id',
      [
        'check',
        '--api',
        'repository-webhooks',
        '--base-url',
        'http://127.0.0.1:9',
        '--owner',
        'o',
        '--repo',
        'r',
        '--read-only',
      ],
      /--read-only needs --hook-id/,
    ],
  ])('exits 2 for %s', async (_name, args, message) => {
    const result = await runCli(args, { env });
    expect(result.stderr).toMatch(message);
    expect(result.stderr + result.stdout).not.toContain('hunter2');
    expect(result.code).toBe(2);
  });

  it('warns that CLIENT_SESSION_API_KEY is unset and sends a placeholder key, which a real service refuses', async () => {
    const server = await startFaultServer();
    try {
      const result = await runCli(['check', '--api', 'client-session', '--base-url', server.url], {
        env: { CLIENT_SESSION_API_KEY: '' },
      });
      expect(result.stderr).toContain('CLIENT_SESSION_API_KEY is not set: sending a placeholder key');
      expect(result.code).toBe(0);
    } finally {
      await server.close();
    }
  });
});

describe('contracts check --read-only', () => {
  it('runs only GET operations and creates nothing', async () => {
    const server = await startFaultServer();
    try {
      const created = await fetch(`${server.url}/repos/octo/app/hooks`, {
        method: 'POST',
        body: JSON.stringify({ name: 'web', config: { url: 'https://x' } }),
      });
      const hook = (await created.json()) as { id: number };
      await fetch(`${server.url}/repos/octo/app/hooks/${hook.id}/pings`, { method: 'POST' });
      const before = server.requests.length;
      const { code, report } = await checkAgainst(server, [
        '--api',
        'repository-webhooks',
        '--read-only',
        '--hook-id',
        String(hook.id),
      ]);
      expect(server.requests.slice(before).every((r) => r.startsWith('GET '))).toBe(true);
      expect(
        report.results.find((r) => r.operation === 'getWebhookDelivery' && r.check === 'response_schema_conformance')
          ?.status,
      ).toBe('passed');
      expect(report.results.find((r) => r.operation === 'createWebhook')?.reason).toContain('--read-only');
      expect(code).toBe(0);
    } finally {
      await server.close();
    }
  });
});

describe('contracts check against the embedded mocks', () => {
  it('exits 0 with no flags, skipping the stateful checks with the reason', async () => {
    const result = await runCli(['check']);
    expect(result.stdout).toMatch(/\d+ passed, 0 failed, \d+ skipped/);
    expect(result.stdout).toContain('events_default_push skipped: needs a stateful server');
    expect(result.code).toBe(0);
  });
});
