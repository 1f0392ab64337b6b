// A target that rate-limits one operation: Unleash answered 429 `Retry-After: 60` and the run waited each out in
// turn (9 of 211 operations in 600 s). Now that operation waits while the others are fuzzed, is sent again when its
// time is due, and the report says what was rate-limited; one that never got through is not reported as passed.
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runMain } from '../helpers/run-main.js';

const spec = `openapi: 3.1.0
info: { title: t, version: "1" }
paths:
  /slow:
    get: { operationId: slow, responses: { "200": { description: ok } } }
  /a:
    get: { operationId: a, responses: { "200": { description: ok } } }
  /b:
    get: { operationId: b, responses: { "200": { description: ok } } }
`;

let server: http.Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** A server whose /slow answers the i-th of its first requests with `limits[i]` (429 and its Retry-After). */
async function start(limits: (string | undefined)[]) {
  const log: { path: string; at: number; status: number }[] = [];
  let slow = 0;
  server = http.createServer((req, res) => {
    const at = performance.now();
    const where = (req.url ?? '').split('?')[0]!;
    if (where === '/slow' && slow < limits.length) {
      const after = limits[slow++];
      log.push({ path: where, at, status: 429 });
      return void res.writeHead(429, after === undefined ? {} : { 'retry-after': after }).end('slow down');
    }
    log.push({ path: where, at, status: 200 });
    res.writeHead(200).end();
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const dir = await mkdtemp(path.join(os.tmpdir(), 'contracts-rate-'));
  await writeFile(path.join(dir, 'api.yaml'), spec);
  await writeFile(path.join(dir, 'contracts.config.yaml'), 'apis:\n  - name: t\n    spec: api.yaml\n');
  const baseUrl = `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
  const run = async (args: string[]) => {
    const started = performance.now();
    const result = await runMain(
      [
        'fuzz',
        '--base-url',
        baseUrl,
        '--max-examples',
        '3',
        '--seed',
        '1',
        '--workers',
        '1',
        '--report',
        `json:${dir}/r.json`,
        ...args,
      ],
      dir,
    );
    const report = JSON.parse(await readFile(path.join(dir, 'r.json'), 'utf8')) as Record<string, unknown>;
    return { ...result, report, seconds: (performance.now() - started) / 1000, started };
  };
  return { log, run };
}

describe('contracts fuzz on a rate-limited operation', () => {
  it('fuzzes the others while it waits, sends it again when due, and reports the waits', async () => {
    const date = new Date(Date.now() + 2000).toUTCString();
    const { log, run } = await start(['2', date, undefined]);
    const { code, output, report, seconds } = await run([]);
    expect(report.rateLimited, output).toEqual([
      { api: 't', operation: 'slow', times: 3, longestWaitMs: expect.any(Number), gotThrough: true },
    ]);
    expect((report.rateLimited as { longestWaitMs: number }[])[0]!.longestWaitMs).toBeGreaterThanOrEqual(1000);
    // The others were fuzzed while /slow waited: their first requests came before /slow got through.
    const firstThrough = log.find((entry) => entry.path === '/slow' && entry.status === 200)!.at;
    expect(log.find((entry) => entry.path === '/a')!.at).toBeLessThan(firstThrough);
    expect(log.find((entry) => entry.path === '/b')!.at).toBeLessThan(firstThrough);
    expect(output).toMatch(/^ {2}t slow: 3 times, longest wait asked \d s; every request got through in the end$/m);
    expect(output).toMatch(/^ {2}✓ slow /m);
    expect(seconds).toBeLessThan(30);
    expect(code, output).toBe(0);
  }, 60_000);

  it('covers every other operation promptly under Retry-After: 60, and says the limited one never got through', async () => {
    const { log, run } = await start(Array.from({ length: 1000 }, () => '60'));
    const { code, output, report, seconds } = await run(['--max-time', '40']);
    expect(seconds).toBeLessThan(20);
    expect(new Set(log.filter((entry) => entry.status === 200).map((entry) => entry.path))).toEqual(
      new Set(['/a', '/b']),
    );
    expect(report.rateLimited).toEqual([
      {
        api: 't',
        operation: 'slow',
        times: 1,
        longestWaitMs: 60_000,
        gotThrough: false,
        gaveUp: "asked to wait 60 s, past the run's --max-time",
      },
    ]);
    expect(output).toMatch(/^ {2}✗ slow /m);
    expect(output).toContain(
      "t slow: 1 times, longest wait asked 60 s; no request got through: the run stopped waiting (asked to wait 60 s, past the run's --max-time)",
    );
    // Exit 1 with "0 failed": the last line says why.
    expect(output.trim().split('\n').at(-1)).toMatch(
      /^contracts fuzz: exit 1: no check failed, but \d+ checks could not be exercised \(each "✗ not exercised" above says why\)$/,
    );
    expect(code, output).toBe(1);
  }, 60_000);

  it('gives an operation up at once when its Retry-After is over --max-retry-after', async () => {
    const { run } = await start(Array.from({ length: 1000 }, () => '60'));
    const { output, report, seconds } = await run(['--max-retry-after', '30']);
    expect(seconds).toBeLessThan(20);
    expect((report.rateLimited as { gaveUp: string }[])[0]!.gaveUp).toBe(
      'asked to wait 60 s, over --max-retry-after 30 s',
    );
    expect(output).toMatch(/^ {2}✗ slow /m);
  }, 60_000);
});
