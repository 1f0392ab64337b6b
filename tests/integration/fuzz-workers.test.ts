// --workers: several cases in flight, the same report. The cases are judged in their order, not in the order the
// answers come back, so a seed repeats byte for byte whatever the number of workers (failures, their shrinking
// and the request count included); and --rate caps all the workers together, not each.
import http from 'node:http';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { startSandbox } from '../../src/plugins/example-sandbox.js';
import { startBuggyServer, type BuggyServer } from '../helpers/buggy-server.js';
import { onLoopback } from '../helpers/loopback.js';
import { seedConfig } from '../helpers/paths.js';

const env = { CLIENT_SESSION_API_KEY: 'fuzz-workers-key-0042', PATH: process.env.PATH, CONTRACTS_CONFIG: seedConfig };
let dir: string;

async function fuzz(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(['fuzz', ...args], {
    out: (line) => out.push(line),
    err: (line) => err.push(line),
    cwd: dir,
    env,
  });
  return { code, stdout: out.join('\n'), stderr: err.join('\n') };
}

/**
 * What varies from run to run in the target's own answers, which each failure shows: the times and ids it makes up
 * (a delivery's guid, delivered_at and duration), and so the answer's size and where its excerpt is cut. The
 * requests, checks and statuses are the same.
 */
const answersVary = (text: string) =>
  text
    // What was sent, counted whole: with more workers, more cases go out ahead of a failure (then are not judged).
    .replace(/^(contracts fuzz: seed \d+), \d+ requests$/m, '$1, N requests')
    .replace(/"requests": \d+/g, '"requests": 0')
    .replace(/^( {6}answer: \d+(, [^,\n]+)?), \d+ bytes.*$/gm, '$1')
    .replace(/"bodyBytes": \d+/g, '"bodyBytes": 0')
    .replace(/("body": )"(?:[^"\\]|\\.)*"/g, '$1""')
    .replace(/"truncated": true,?\n/g, '');

/** A report without what varies from run to run: durations, timestamps, ports, the run marker in config.url. */
async function report(file: string): Promise<string> {
  return answersVary(await readFile(path.join(dir, file), 'utf8'))
    .replace(/"(durationMs|date|startedAt|finishedAt)": [^,\n]+/g, '"$1": 0')
    .replace(/\b(time|timestamp)="[^"]*"/g, '$1=""')
    .replace(/http:\/\/127\.0\.0\.1:\d+/g, 'URL')
    .replace(/contracts-fuzz=[0-9a-f]{8}-/g, 'contracts-fuzz=RUN-');
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'contracts-fuzz-workers-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/**
 * A proxy that holds each answer for 0–19 ms, by a hash of the request: the same request always waits as long,
 * but answers come back in another order than the requests went out.
 */
async function delayingProxy(target: string): Promise<BuggyServer> {
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      let hash = 0;
      for (const byte of Buffer.from(`${request.method} ${request.url} ${body.toString()}`))
        hash = (hash * 31 + byte) >>> 0;
      setTimeout(() => {
        const forward = http.request(
          `${target}${request.url}`,
          { method: request.method, headers: request.headers },
          (answer) => {
            response.writeHead(answer.statusCode!, answer.headers);
            answer.pipe(response);
          },
        );
        forward.end(body);
      }, hash % 20);
    });
  });
  return onLoopback(server);
}

describe('contracts fuzz --workers', () => {
  it('prints and saves the same report with --workers 1 and --workers 4 under the same seed (embedded sandbox)', async () => {
    const runs = [];
    for (const workers of ['1', '4']) {
      const run = await fuzz([
        '--seed',
        '77',
        '--max-examples',
        '8',
        '--workers',
        workers,
        '--report',
        `json:w${workers}.json`,
        '--report',
        `junit:w${workers}.xml`,
      ]);
      runs.push({ ...run, json: await report(`w${workers}.json`), junit: await report(`w${workers}.xml`) });
    }
    expect(runs.map((run) => run.code)).toEqual([0, 0]);
    expect(answersVary(runs[1]!.stdout)).toBe(answersVary(runs[0]!.stdout));
    expect(runs[1]!.json).toBe(runs[0]!.json);
    expect(runs[1]!.junit).toBe(runs[0]!.junit);
  }, 240_000);

  it('reports the same failures, shrunk the same way, with --workers 1 and --workers 6 against a server with planted bugs that answers out of order', async () => {
    const servers: BuggyServer[] = [];
    try {
      const runs = [];
      for (const workers of ['1', '6']) {
        // A fresh server each time: it numbers hooks in the order the creates arrive, and the ids show in the report.
        const server = await startBuggyServer();
        servers.push(server);
        const proxy = await delayingProxy(server.url);
        servers.push(proxy);
        const run = await fuzz([
          '--base-url',
          proxy.url,
          '--seed',
          '3',
          '--max-examples',
          '10',
          '--rate',
          '0',
          '--workers',
          workers,
          '--report',
          `json:b${workers}.json`,
        ]);
        runs.push({ ...run, json: await report(`b${workers}.json`) });
      }
      expect(runs.map((run) => run.code)).toEqual([1, 1]);
      expect(runs[0]!.stdout).toMatch(/negative_data_rejection · retrieveClientSession/);
      expect(runs[0]!.stdout).toMatch(/use_after_free · getWebhook/);
      expect(answersVary(runs[1]!.stdout.replace(/http:\/\/127\.0\.0\.1:\d+/g, 'URL'))).toBe(
        answersVary(runs[0]!.stdout.replace(/http:\/\/127\.0\.0\.1:\d+/g, 'URL')),
      );
      expect(runs[1]!.json).toBe(runs[0]!.json);
    } finally {
      await Promise.all(servers.map((server) => server.close()));
    }
  }, 240_000);

  it('keeps --rate as the cap of all workers together', async () => {
    // The sandbox behind a proxy that notes when each request arrives.
    const sandbox = await startSandbox({ port: 0, host: '127.0.0.1' });
    const arrivals: number[] = [];
    const server = http.createServer((request, response) => {
      arrivals.push(performance.now());
      request.pipe(
        http.request(`${sandbox.url}${request.url}`, { method: request.method, headers: request.headers }, (answer) => {
          response.writeHead(answer.statusCode!, answer.headers);
          answer.pipe(response);
        }),
      );
    });
    const proxy = await onLoopback(server);
    try {
      const { code } = await fuzz([
        '--base-url',
        proxy.url,
        '--api',
        'client-session',
        '--phases',
        'random',
        '--max-examples',
        '40',
        '--seed',
        '1',
        '--rate',
        '20',
        '--workers',
        '8',
      ]);
      expect(code).toBe(0);
      expect(arrivals.length).toBeGreaterThan(20);
      // 20 per second at most: n requests take at least (n - 1) / 20 s. 8 workers each at 20/s would take an eighth.
      const seconds = (arrivals.at(-1)! - arrivals[0]!) / 1000;
      expect(seconds).toBeGreaterThanOrEqual(((arrivals.length - 1) / 20) * 0.8);
    } finally {
      await proxy.close();
      await sandbox.stop();
    }
  }, 120_000);
});
