// `contracts validate --har --jobs N`: the capture checked by worker threads prints exactly what one thread prints,
// and a worker that fails ends the run with one line and exit 2, never a hang.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { root } from '../helpers/paths.js';
import { runCli } from '../helpers/run-cli.js';

let dir: string;
let capture: string;

const hook = (id: number, extra: object = {}) => ({
  type: 'Repository',
  id,
  name: 'web',
  active: true,
  events: ['push'],
  config: { content_type: 'json', insecure_ssl: '0', url: 'https://example.com/webhook' },
  updated_at: '2026-11-21T10:00:00Z',
  created_at: '2026-11-21T10:00:00Z',
  url: `https://api.example.com/repos/o/r/hooks/${id}`,
  test_url: `https://api.example.com/repos/o/r/hooks/${id}/tests`,
  ping_url: `https://api.example.com/repos/o/r/hooks/${id}/pings`,
  deliveries_url: `https://api.example.com/repos/o/r/hooks/${id}/deliveries`,
  last_response: { code: null, status: 'unused', message: null },
  ...extra,
});
const session = {
  customerId: 'c-1',
  orderId: 'o-1',
  currencyCode: 'EUR',
  amount: 1300,
  order: {
    lineItems: [{ itemId: 'i', description: 'd', amount: 1300, quantity: 1 }],
    paymentMethod: { vaultOnSuccess: false },
  },
};
const json = [{ name: 'content-type', value: 'application/json' }];
const sessionHeaders = [
  { name: 'X-API-KEY', value: 'k' },
  { name: 'X-API-VERSION', value: '2.4' },
];

function exchange(
  method: string,
  url: string,
  status: number,
  body: unknown,
  options: { requestHeaders?: object[]; headers?: object[]; postData?: object; content?: object } = {},
) {
  return {
    request: {
      method,
      url,
      headers: options.requestHeaders ?? [],
      ...(options.postData ? { postData: options.postData } : {}),
    },
    response: {
      status,
      headers: options.headers ?? json,
      content: options.content ?? { text: body === undefined ? '' : JSON.stringify(body) },
    },
  };
}

/** Entry `i` of a capture that breaks the contract in many ways: invalid entries, unmatched, both sides, placement branches, omitted findings. */
function entryAt(i: number): unknown {
  const hooks = `https://api.example.com/repos/o/r/hooks`;
  switch (i % 19) {
    case 0:
      return exchange('GET', `${hooks}/${i}`, 200, hook(i));
    case 1:
      return exchange('GET', `https://api.example.com/client-session?clientToken=t${i}`, 200, session, {
        requestHeaders: sessionHeaders,
      });
    case 2:
      return exchange(
        'GET',
        `https://api.example.com/client-session?clientToken=t${i}`,
        200,
        { ...session, paymentMethod: { vaultOnSuccess: true } },
        { requestHeaders: sessionHeaders },
      );
    case 3:
      return exchange(
        'GET',
        `https://api.example.com/client-session?clientToken=t${i}`,
        200,
        { ...session, currencyCode: 'XXX' },
        { requestHeaders: [sessionHeaders[1]!] },
      );
    case 4:
      return exchange('GET', `${hooks}/${i}`, 418 + (i % 7), {});
    case 5:
      return exchange('GET', `https://api.example.com/nowhere/${i}`, 200, {});
    case 6:
      return i % 3 === 0 ? `entry ${i}` : i % 3 === 1 ? i : null;
    case 7:
      return { request: { method: 'GET', url: `${hooks}/${i}` }, response: { headers: [] } };
    case 8:
      return exchange('GET', 'not a url', 200, {});
    case 9:
      return exchange('GET', `${hooks}/${i}`, 200, hook(i), {
        headers: [{ name: 'content-type', value: 'text/plain' }],
      });
    case 10:
      return exchange('GET', `${hooks}/${i}`, 200, undefined, { content: { text: '{"id": 1,' } });
    case 11:
      return exchange('GET', `${hooks}/${i}`, 200, undefined, {
        headers: [...json, { name: 'content-encoding', value: 'gzip' }],
        content: { encoding: 'base64', text: gzipSync(JSON.stringify(hook(i, { active: 'yes' }))).toString('base64') },
      });
    case 12:
      return exchange('GET', `${hooks}/${i}`, 200, hook(i, { pad: 'x'.repeat(12_000) }));
    case 13:
      return exchange('GET', `${hooks}?per_page=${100 + (i % 5)}`, 200, [hook(i)]);
    case 14:
      return exchange('POST', hooks, 201, hook(i), {
        requestHeaders: [{ name: 'content-type', value: 'application/json' }],
        postData: {
          mimeType: 'application/json',
          text: JSON.stringify({ config: { url: 'https://example.com/h' }, colour: 'red' }),
        },
      });
    case 15:
      return exchange(
        'GET',
        hooks,
        200,
        Array.from({ length: 150 }, (_, n) => n),
      );
    case 16:
      return exchange('DELETE', `${hooks}/${i}`, 204, { unexpected: true });
    case 17:
      return exchange(
        'GET',
        `https://api.example.com/client-session?clientToken=t${i}`,
        200,
        { ...session, order: { ...session.order, paymentMethod: undefined } },
        { requestHeaders: sessionHeaders },
      );
    default:
      return exchange('POST', `${hooks}/${i}/pings`, 204, undefined, { headers: [] });
  }
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'contracts-validate-jobs-'));
  capture = path.join(dir, 'capture.har');
  // Enough entries for many batches per worker, so verdicts come back out of order and are put back.
  const entries = Array.from({ length: 2000 }, (_, i) => JSON.stringify(entryAt(i)));
  await writeFile(capture, `{"log": {"version": "1.2", "entries": [\n${entries.join(',\n')}\n]}}`);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The CLI's output as bytes, joined before decoding: a character split between two pipe reads stays whole. */
async function validate(jobs: string, extra: string[], env: NodeJS.ProcessEnv = {}) {
  const coverage = path.join(dir, `coverage-${jobs}-${extra.join('')}.json`);
  const args = [
    'validate',
    '--api',
    'all',
    '--har',
    capture,
    '--max-body',
    '0.01',
    '--coverage',
    coverage,
    '--jobs',
    jobs,
    ...extra,
  ];
  const child = spawn(process.execPath, [path.join(root, 'bin/contracts.js'), ...args], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
  const [code] = (await once(child, 'close')) as [number | null];
  return {
    code,
    stdout: Buffer.concat(stdout).toString(),
    stderr: Buffer.concat(stderr).toString(),
    coverage: await readFile(coverage, 'utf8').catch(() => 'none'),
  };
}

describe('contracts validate --har --jobs', () => {
  it.each([
    ['text, both sides', ['--format', 'text']],
    ['json, both sides', ['--format', 'json']],
    ['text, responses only', ['--format', 'text', '--side', 'response']],
    ['json, requests only, strict', ['--format', 'json', '--side', 'request', '--strict']],
  ])(
    'prints, exits and counts coverage exactly as one thread does with three workers (%s)',
    async (_name, extra) => {
      const [one, three] = [await validate('1', extra), await validate('3', extra)];
      expect(one.code).toBe(1);
      expect(one.stdout.length).toBeGreaterThan(10_000);
      expect(one.coverage).toContain('placement');
      expect(three.stdout).toBe(one.stdout);
      expect(three.stderr).toBe(one.stderr);
      expect(three.coverage).toBe(one.coverage);
      expect(three.code).toBe(one.code);
    },
    240_000,
  );

  it('ends with one line and exit 2, its JSON closed, when a worker dies mid-run', async () => {
    const result = await validate('2', ['--format', 'json'], { CONTRACTS_TEST_WORKER_FAULT: 'exit@700' });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /^contracts validate: a checking worker stopped unexpectedly \(exit code 70\): the run cannot be completed\n$/,
    );
    const parsed = JSON.parse(result.stdout) as {
      results: unknown[];
      summary: { exchanges: number };
      error: { code: string };
    };
    expect(parsed.error.code).toBe('INTERNAL');
    expect(parsed.results.length).toBe(parsed.summary.exchanges);
    expect(parsed.summary.exchanges).toBeLessThan(2000);
  }, 120_000);

  it('reports every exchange before one whose checking threw, then the fault, exit 2', async () => {
    const result = await validate('2', ['--format', 'json'], { CONTRACTS_TEST_WORKER_FAULT: 'throw@700' });
    expect(result.code).toBe(2);
    const parsed = JSON.parse(result.stdout) as { results: { index: number }[]; error: { message: string } };
    expect(parsed.results.map((item) => item.index)).toEqual(Array.from({ length: 699 }, (_, i) => i + 1));
    expect(parsed.error.message).toBe('internal error: test fault at entry 700');
    expect(result.stderr).toMatch(/^contracts validate: internal error: test fault at entry 700\n/);
  }, 120_000);

  it('refuses a --jobs that is not a whole number from 1 to 64, and --jobs without --har', async () => {
    for (const jobs of ['0', 'many', '1.5', '65']) {
      const result = await runCli(['validate', '--api', 'all', '--har', capture, '--jobs', jobs]);
      expect(result.stderr).toContain(`--jobs must be a whole number from 1 to 64, not "${jobs}"`);
      expect(result.code).toBe(2);
    }
    const single = await runCli([
      'validate',
      '--api',
      'repository-webhooks',
      '--method',
      'GET',
      '--path',
      '/repos/o/r/hooks/1',
      '--status',
      '200',
      '--jobs',
      '2',
    ]);
    expect(single.stderr).toContain('--jobs has no effect without --har');
    expect(single.code).toBe(2);
  }, 60_000);
});
