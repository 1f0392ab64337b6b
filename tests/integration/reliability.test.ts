// Servers that misbehave, over real sockets: the tool reports, never crashes, and says why it could not run.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFaultServer, type Fault } from '../helpers/fault-server.js';
import { runCli } from '../helpers/run-cli.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'contracts-reliability-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

interface Report {
  results: { operation: string; check: string; status: string; findings: { check: string; message: string }[] }[];
  error?: { code: string; message: string };
}

async function checkSession(baseUrl: string, extra: string[] = []) {
  const json = path.join(dir, `r-${Math.random().toString(36).slice(2)}.json`);
  const junit = json.replace(/\.json$/, '.xml');
  const result = await runCli(
    [
      'check',
      '--api',
      'client-session',
      '--base-url',
      baseUrl,
      '--report',
      `json:${json}`,
      '--report',
      `junit:${junit}`,
      ...extra,
    ],
    { env: { CLIENT_SESSION_API_KEY: 'reliability-key' } },
  );
  // The reports are valid files whatever happened.
  const report = JSON.parse(await readFile(json, 'utf8')) as Report;
  const xml = await readFile(junit, 'utf8');
  expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites')).toBe(true);
  expect(xml.trimEnd().endsWith('</testsuites>')).toBe(true);
  return { ...result, report };
}

describe('bad responses: a finding each, no crash, the run goes on', () => {
  const cases: [string, { fault: Fault; check: string; message: RegExp; extra?: string[] }][] = [
    [
      'JSON content type with a non-JSON body',
      { fault: 'not_json', check: 'response_schema_conformance', message: /the body is not valid JSON/ },
    ],
    [
      'an HTML error page',
      { fault: 'html', check: 'content_type_conformance', message: /content type text\/html is not documented/ },
    ],
    [
      'an empty body on 200',
      {
        fault: 'empty_200',
        check: 'content_type_conformance',
        message: /documented with a body .* but the response has none/,
      },
    ],
    [
      'truncated JSON',
      { fault: 'truncated', check: 'response_schema_conformance', message: /the body is not valid JSON/ },
    ],
    [
      'a body over the limit',
      {
        fault: 'huge',
        check: 'response_body_wellformed',
        message: /over the 1 MB limit \(--max-body\): it was not read/,
        extra: ['--max-body', '1'],
      },
    ],
    ['nesting 10,000 deep', { fault: 'deep', check: 'response_schema_conformance', message: /./ }],
    ['invalid UTF-8', { fault: 'bad_utf8', check: 'response_body_wellformed', message: /not valid UTF-8/ }],
    ['a 500', { fault: 'server_error', check: 'status_code_conformance', message: /status 500 is not documented/ }],
    [
      'a 201 where the spec says 200',
      { fault: 'status_code', check: 'status_code_conformance', message: /status 201 is not documented/ },
    ],
    [
      'duplicate JSON keys',
      {
        fault: 'duplicate_keys',
        check: 'response_body_wellformed',
        message: /key "orderId" appears twice in the body/,
      },
    ],
  ];

  it.each(cases)('%s', async (_name, { fault, check, message, extra }) => {
    const server = await startFaultServer({ faults: [fault] });
    try {
      const { code, stdout, stderr, report } = await checkSession(server.url, extra);
      expect(stderr).not.toMatch(/\n\s+at /);
      expect(stderr).not.toContain('internal error');
      const judged = report.results.find((r) => r.check === check);
      if (fault === 'deep') {
        // Nesting this deep is valid JSON under an open `metadata`: it must be judged, not crash anything.
        expect(judged?.status).toBe('passed');
        expect(code).toBe(0);
      } else {
        expect(judged?.status, stdout).toBe('failed');
        expect(judged?.findings.map((f) => f.message).join('\n')).toMatch(message);
        expect(code).toBe(1);
      }
      // The run went on to the next checks; a probe judged beside a control that failed proves nothing, so it fails too.
      const probe = report.results.find((r) => r.check === 'api_version_enforced');
      if (fault === 'server_error')
        expect(probe?.findings[0]?.message).toContain('could not be exercised: the control request');
      else expect(probe?.status).toBe('passed');
    } finally {
      await server.close();
    }
  });
});

describe('failing targets: exit 2 with the URL and the reason, reports still valid', () => {
  it('a server that accepts and never answers (per-request timeout)', async () => {
    const silent = net.createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as net.AddressInfo).port;
    try {
      const { code, stderr, report } = await checkSession(`http://127.0.0.1:${port}`, ['--timeout', '500']);
      expect(stderr).toContain(
        `cannot reach http://127.0.0.1:${port} (GET /client-session): no answer within 500 ms (--timeout)`,
      );
      expect(report.error?.code).toBe('TARGET_UNREACHABLE');
      expect(code).toBe(2);
    } finally {
      silent.close();
    }
  });

  it('a connection reset in the middle of the body', async () => {
    const server = await startFaultServer({ faults: ['reset_mid_body'] });
    try {
      const { code, stderr } = await checkSession(server.url);
      expect(stderr).toContain(`cannot reach ${server.url}`);
      expect(stderr).toContain('the connection broke while reading the response body');
      expect(stderr).not.toMatch(/\n\s+at /);
      expect(code).toBe(2);
    } finally {
      await server.close();
    }
  });

  it('429 with Retry-After: waits as told and retries, then goes on', async () => {
    const server = await startFaultServer({ faults: ['rate_limit_twice'] });
    try {
      const started = Date.now();
      const { code, report } = await checkSession(server.url);
      expect(Date.now() - started).toBeGreaterThanOrEqual(2000);
      expect(server.requests.filter((r) => r === 'GET /client-session').length).toBeGreaterThanOrEqual(5);
      expect(report.results.every((r) => r.status === 'passed')).toBe(true);
      expect(code).toBe(0);
    } finally {
      await server.close();
    }
  });

  it('429 that never ends: stops at the retry limit', async () => {
    const server = await startFaultServer({ faults: ['rate_limit_always'] });
    try {
      const { code, stderr, report } = await checkSession(server.url, ['--retries', '1']);
      expect(stderr).toContain(
        `rate-limited by ${server.url}: GET ${server.url}/client-session still got 429 after 1 retries (Retry-After: 1)`,
      );
      expect(server.requests.filter((r) => r === 'GET /client-session')).toHaveLength(2);
      expect(report.error?.code).toBe('TARGET_RATE_LIMITED');
      expect(code).toBe(2);
    } finally {
      await server.close();
    }
  });

  it('a TLS failure (https to a server that does not speak TLS)', async () => {
    const server = await startFaultServer();
    try {
      const { code, stderr } = await checkSession(server.url.replace('http:', 'https:'));
      expect(stderr).toMatch(
        /cannot reach https:\/\/127\.0\.0\.1:\d+ \(GET \/client-session\): (TLS failure|EPROTO|ERR_SSL)/,
      );
      expect(code).toBe(2);
    } finally {
      await server.close();
    }
  });
});
