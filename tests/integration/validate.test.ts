// `contracts validate` on responses recorded from a server over a real socket.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFaultServer } from '../helpers/fault-server.js';
import { runCli } from '../helpers/run-cli.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'contracts-validate-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function record(url: string, init: RequestInit = {}) {
  const response = await fetch(url, init);
  return {
    status: response.status,
    headers: [...response.headers].map(([name, value]) => ({ name, value })),
    text: await response.text(),
  };
}

function harEntry(method: string, url: string, recorded: Awaited<ReturnType<typeof record>>) {
  return {
    request: { method, url, headers: [] },
    response: {
      status: recorded.status,
      headers: recorded.headers,
      content: { text: recorded.text, mimeType: 'application/json' },
    },
  };
}

describe('contracts validate, one response', () => {
  it('passes a conforming recorded response read from standard input', async () => {
    const server = await startFaultServer();
    try {
      const recorded = await record(`${server.url}/client-session`, {
        headers: { 'X-API-KEY': 'k', 'X-API-VERSION': '2.4' },
      });
      const result = await runCli(
        [
          'validate',
          '--api',
          'client-session',
          '--operation',
          'retrieveClientSession',
          '--status',
          String(recorded.status),
          '--header',
          'Content-Type: application/json',
          '--body',
          '-',
        ],
        { input: recorded.text },
      );
      expect(result.stdout).toContain('✓ conforms (retrieveClientSession: 5 checks)');
      expect(result.code).toBe(0);
    } finally {
      await server.close();
    }
  });

  it('exits 1 with findings as JSON for a response that breaks the schema', async () => {
    const server = await startFaultServer({ faults: ['schema'] });
    try {
      const recorded = await record(`${server.url}/client-session`, {
        headers: { 'X-API-KEY': 'k', 'X-API-VERSION': '2.4' },
      });
      const body = path.join(dir, 'session.json');
      await writeFile(body, recorded.text);
      const result = await runCli([
        'validate',
        '--api',
        'client-session',
        '--method',
        'GET',
        '--path',
        '/client-session',
        '--status',
        '200',
        '--header',
        'content-type: application/json',
        '--body',
        body,
        '--format',
        'json',
      ]);
      const parsed = JSON.parse(result.stdout) as {
        operation: string;
        findings: { check: string; instancePath: string }[];
      };
      expect(parsed.operation).toBe('retrieveClientSession');
      expect(parsed.findings).toEqual([
        expect.objectContaining({ check: 'response_schema_conformance', instancePath: '/currencyCode' }),
      ]);
      expect(result.code).toBe(1);
    } finally {
      await server.close();
    }
  });

  it('exits 1 with response_headers_conformance when a documented header is missing (--spec)', async () => {
    for (const [faults, code] of [
      [[], 0],
      [['headers'], 1],
    ] as const) {
      const server = await startFaultServer({ faults: [...faults] });
      try {
        const recorded = await record(`${server.url}/items/1`);
        const headers = recorded.headers.flatMap((h) => ['--header', `${h.name}: ${h.value}`]);
        const result = await runCli(
          [
            'validate',
            '--spec',
            'tests/fixtures/specs/with-headers.yaml',
            '--method',
            'GET',
            '--path',
            '/items/1',
            '--status',
            '200',
            ...headers,
            '--body',
            '-',
          ],
          { input: recorded.text },
        );
        if (code === 1)
          expect(result.stdout).toContain(
            'response_headers_conformance: required response header X-Rate-Limit is missing',
          );
        expect(result.code).toBe(code);
      } finally {
        await server.close();
      }
    }
  });

  it.each([
    ['no spec', ['validate', '--status', '200'], /name the spec: --api/],
    [
      'no operation',
      ['validate', '--api', 'client-session', '--status', '200'],
      /--operation ID, or --method and --path/,
    ],
    [
      'a bad status',
      ['validate', '--api', 'client-session', '--operation', 'x', '--status', '2000'],
      /--status must be an HTTP status code/,
    ],
    [
      'a missing body file',
      [
        'validate',
        '--api',
        'client-session',
        '--operation',
        'retrieveClientSession',
        '--status',
        '200',
        '--body',
        'nope.json',
      ],
      /file not found: nope\.json/,
    ],
    [
      'a bad header',
      [
        'validate',
        '--api',
        'client-session',
        '--operation',
        'retrieveClientSession',
        '--status',
        '200',
        '--header',
        'nocolon',
      ],
      /--header takes "Name: value"/,
    ],
    [
      'a missing spec file',
      ['validate', '--spec', 'nope.yaml', '--operation', 'x', '--status', '200'],
      /spec not found: nope\.yaml/,
    ],
    [
      'an operationId the spec does not have',
      ['validate', '--api', 'client-session', '--operation', 'nope', '--status', '200'],
      /no operation "nope" in specs\/client-session\.yaml; its operations: retrieveClientSession/,
    ],
  ])('exits 2 for %s', async (_name, args, message) => {
    const result = await runCli(args);
    expect(result.stderr).toMatch(message);
    expect(result.code).toBe(2);
  });
});

describe('contracts validate --har', () => {
  it('checks every exchange, matching each to its operation, and reports the unmatched ones', async () => {
    const server = await startFaultServer();
    try {
      const created = await record(`${server.url}/repos/octo/app/hooks`, {
        method: 'POST',
        body: JSON.stringify({ name: 'web', config: { url: 'https://x' } }),
      });
      const id = (JSON.parse(created.text) as { id: number }).id;
      const entries = [
        harEntry('POST', `${server.url}/repos/octo/app/hooks`, created),
        harEntry(
          'GET',
          `${server.url}/repos/octo/app/hooks/${id}`,
          await record(`${server.url}/repos/octo/app/hooks/${id}`),
        ),
        harEntry(
          'GET',
          `${server.url}/repos/octo/app/hooks/${id}/config`,
          await record(`${server.url}/repos/octo/app/hooks/${id}/config`),
        ),
      ];
      const good = path.join(dir, 'good.har');
      await writeFile(good, JSON.stringify({ log: { version: '1.2', entries } }));
      const pass = await runCli(['validate', '--api', 'repository-webhooks', '--har', good, '--side', 'response']);
      expect(pass.stdout).toContain('3 exchanges: 3 conform, 0 fail, 0 match no operation');
      expect(pass.code).toBe(0);

      const broken = { ...entries[1]!, response: { ...entries[1]!.response, status: 418 } };
      const unknown = harEntry('GET', `${server.url}/favicon.ico`, { status: 200, headers: [], text: '' });
      const bad = path.join(dir, 'bad.har');
      await writeFile(bad, JSON.stringify({ log: { version: '1.2', entries: [entries[0], broken, unknown] } }));
      const fail = await runCli(['validate', '--api', 'repository-webhooks', '--har', bad, '--side', 'response']);
      expect(fail.stdout).toContain(`#2 GET /repos/octo/app/hooks/${id} → 418  (getWebhook)`);
      expect(fail.stdout).toContain('status_code_conformance: status 418 is not documented for getWebhook');
      expect(fail.stdout).toContain('#3 GET /favicon.ico → 200');
      expect(fail.stdout).toContain('operation_matching: GET /favicon.ico matches no operation');
      expect(fail.stdout).toContain('3 exchanges: 1 conform, 1 fail, 1 match no operation');
      expect(fail.code).toBe(1);

      const one = path.join(dir, 'one.har');
      await writeFile(one, JSON.stringify({ log: { version: '1.2', entries: [entries[0]] } }));
      const single = await runCli(['validate', '--api', 'repository-webhooks', '--har', one, '--side', 'response']);
      expect(single.stdout).toContain('1 exchange: 1 conform, 0 fail, 0 match no operation');
    } finally {
      await server.close();
    }
  });

  it('reports an entry that is not an exchange by its position, checks the rest, and exits 1', async () => {
    const server = await startFaultServer();
    try {
      const good = harEntry(
        'GET',
        `${server.url}/client-session`,
        await record(`${server.url}/client-session`, { headers: { 'X-API-KEY': 'k', 'X-API-VERSION': '2.4' } }),
      );
      const file = path.join(dir, 'odd.har');
      await writeFile(
        file,
        JSON.stringify({ log: { version: '1.2', entries: ['SECRET-LOOKING-TEXT', good, { request: {} }] } }),
      );
      const text = await runCli(['validate', '--api', 'client-session', '--har', file, '--side', 'response']);
      expect(text.stdout).toContain('#1 ✗ entry 1 is a string, not an object');
      expect(text.stdout).toContain('#3 ✗ entry 3 lacks request.method, request.url or response.status');
      expect(text.stdout).toContain('3 exchanges: 1 conform, 0 fail, 0 match no operation, 2 not an exchange');
      expect(text.stdout).not.toContain('SECRET-LOOKING-TEXT');
      expect(text.code).toBe(1);
      const json = await runCli([
        'validate',
        '--api',
        'client-session',
        '--har',
        file,
        '--format',
        'json',
        '--side',
        'response',
      ]);
      const parsed = JSON.parse(json.stdout) as {
        results: { index: number; invalidEntry?: string }[];
        summary: Record<string, number>;
      };
      expect(parsed.results.map((result) => result.invalidEntry ?? null)).toEqual([
        'entry 1 is a string, not an object',
        null,
        'entry 3 lacks request.method, request.url or response.status',
      ]);
      expect(parsed.summary).toMatchObject({ exchanges: 3, passed: 1, invalid: 2 });
      expect(json.code).toBe(1);
    } finally {
      await server.close();
    }
  });

  it('exits 2 for a file that is not a HAR capture', async () => {
    const file = path.join(dir, 'not.har');
    await writeFile(file, '{"entries": []}');
    const result = await runCli(['validate', '--api', 'repository-webhooks', '--har', file]);
    expect(result.stderr).toContain('is not a HAR file: no log.entries array');
    expect(result.code).toBe(2);
  });
});
