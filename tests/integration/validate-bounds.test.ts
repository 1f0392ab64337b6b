// `contracts validate` on hostile inputs: bounded reading, bounded output, and clean stops (issue 11, items 7-9, 17).
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { root } from '../helpers/paths.js';
import { runCli } from '../helpers/run-cli.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'contracts-validate-bounds-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const hooksList = [
  'validate',
  '--api',
  'repository-webhooks',
  '--method',
  'GET',
  '--path',
  '/repos/o/r/hooks',
  '--status',
  '200',
  '--header',
  'content-type: application/json',
];
const entry = (status: number, text: string) => ({
  request: { method: 'GET', url: 'http://127.0.0.1:1/repos/o/r/hooks/1', headers: [] },
  response: { status, headers: [{ name: 'content-type', value: 'application/json' }], content: { text } },
});
const har = (entries: unknown[]) => JSON.stringify({ log: { version: '1.2', entries } });
const tooLarge = /over the 1 MB limit \(--max-body\): it was not read or checked/;

describe('contracts validate --max-body', () => {
  it('stops reading a --body file at the limit and says so, even an endless one (/dev/zero)', async () => {
    const big = path.join(dir, 'big.json');
    await writeFile(big, `[${'1,'.repeat(600_000)}1]`);
    for (const file of [big, '/dev/zero']) {
      const result = await runCli([...hooksList, '--body', file, '--max-body', '1']);
      expect(result.stdout).toMatch(tooLarge);
      expect(result.code).toBe(1);
    }
  });

  it('stops reading standard input at the limit and says so', async () => {
    const child = spawn(
      process.execPath,
      [path.join(root, 'bin/contracts.js'), ...hooksList, '--body', '-', '--max-body', '1'],
      { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] },
    );
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stdin.on('error', () => undefined); // it stops reading: the rest of the input meets a closed pipe
    child.stdin.end(`[${'1,'.repeat(1_500_000)}1]`);
    const [code] = (await once(child, 'close')) as [number | null];
    expect(stdout).toMatch(tooLarge);
    expect(code).toBe(1);
  });

  it('does not check a HAR body over the limit, and checks the rest', async () => {
    const file = path.join(dir, 'big-body.har');
    await writeFile(file, har([entry(200, `{"id": 1, "pad": "${'x'.repeat(2 * 2 ** 20)}"}`), entry(418, '{}')]));
    const result = await runCli([
      'validate',
      '--api',
      'repository-webhooks',
      '--har',
      file,
      '--max-body',
      '1',
      '--format',
      'json',
    ]);
    const parsed = JSON.parse(result.stdout) as { results: { findings: { message: string }[] }[] };
    expect(parsed.results[0]!.findings.map((finding) => finding.message)).toEqual([expect.stringMatching(tooLarge)]);
    expect(parsed.results[1]!.findings[0]!.message).toMatch(/status 418 is not documented/);
    expect(result.code).toBe(1);
  });

  it('exits 2 with one line for a limit that is not a number of megabytes', async () => {
    const result = await runCli([...hooksList, '--body', '-', '--max-body', 'lots']);
    expect(result.stderr).toMatch(/--max-body must be a number of megabytes from 0 to 1024, not "lots"/);
    expect(result.code).toBe(2);
  });
});

describe('contracts validate on a body of 200,000 wrong items', () => {
  it('finishes within 20 s with the first findings, "and N more", and a small output', async () => {
    const body = path.join(dir, 'wrong-items.json');
    await writeFile(body, `[${Array(200_000).fill('1').join(',')}]`);
    const started = Date.now();
    for (const format of ['text', 'json']) {
      const result = await runCli([...hooksList, '--body', body, '--format', format]);
      expect(result.code).toBe(1);
      expect(result.stdout.length).toBeLessThan(50_000);
      if (format === 'text') expect(result.stdout.trimEnd()).toMatch(/\/0 must be object[\s\S]*… and \d+ more$/);
      else expect(JSON.parse(result.stdout)).toMatchObject({ omitted: expect.any(Number) });
    }
    expect(Date.now() - started).toBeLessThan(40_000);
  });
});

describe('contracts validate --har, memory', () => {
  it.each([
    ['on the main thread', '1'],
    ['on two worker threads', '2'],
  ])(
    'checks a capture four times the size of its heap, checked %s',
    async (_where, jobs) => {
      // 800 bodies of 256 KB, 200 MB, under a 96 MB heap: had each exchange been kept to the end of the run (as a
      // Promise.race per read once did), the heap would run out.
      const file = path.join(dir, 'bodies.har');
      await writeFile(
        file,
        har(Array.from({ length: 800 }, () => entry(200, JSON.stringify({ id: 1, pad: 'x'.repeat(256 * 1024) })))),
      );
      const result = await runCli(
        ['validate', '--api', 'repository-webhooks', '--har', file, '--side', 'response', '--jobs', jobs],
        { env: { NODE_OPTIONS: '--max-old-space-size=96' } },
      );
      await rm(file);
      expect(result.stderr).toBe('');
      expect(result.stdout).toContain('800 exchanges: 800 conform');
      expect(result.code).toBe(0);
    },
    240_000,
  );
});

/** Entries that each fail, so text output has lines for every one. */
const failing = (count: number) => Array.from({ length: count }, () => entry(418, '{}'));

describe.each([
  ['on the main thread', '1'],
  ['on two worker threads', '2'],
])('contracts validate --har, stopped early, checked %s', (_where, jobs) => {
  it('exits quietly when the reader of its output goes away (| head), without a stack trace', async () => {
    const file = path.join(dir, 'many.har');
    await writeFile(file, har(failing(20_000)));
    for (const format of ['text', 'json']) {
      const child = spawn(
        process.execPath,
        [
          path.join(root, 'bin/contracts.js'),
          'validate',
          '--api',
          'repository-webhooks',
          '--har',
          file,
          '--format',
          format,
          '--jobs',
          jobs,
        ],
        { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      await once(child.stdout, 'data');
      child.stdout.destroy(); // what `head` does once it has its lines
      const [code] = (await once(child, 'close')) as [number | null];
      expect(stderr).toBe('');
      expect(code).toBe(2);
    }
  });

  it('on SIGINT, ends its JSON output so it still parses, and says it stopped', async () => {
    // A FIFO: the capture arrives only as fast as the test writes it, so the signal lands mid-capture.
    const fifo = path.join(dir, `capture-${jobs}.fifo`);
    execFileSync('mkfifo', [fifo]);
    const child = spawn(
      process.execPath,
      [
        path.join(root, 'bin/contracts.js'),
        'validate',
        '--api',
        'repository-webhooks',
        '--har',
        fifo,
        '--format',
        'json',
        '--jobs',
        jobs,
      ],
      { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    const closed = once(child, 'close') as Promise<[number | null]>;
    let twentyChecked: () => void = () => undefined;
    const checkedTwenty = new Promise<void>((resolve) => (twentyChecked = resolve));
    let saidStopped: () => void = () => undefined;
    const stopped = new Promise<void>((resolve) => (saidStopped = resolve));
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.includes('"index":20,')) twentyChecked();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (stderr.includes('stopped after')) saidStopped();
    });
    const writer = createWriteStream(fifo);
    writer.on('error', () => undefined); // the reader goes away with the child
    const text = har(failing(50));
    writer.write(text.slice(0, text.length / 2)); // about 25 whole entries, then the capture stalls
    await checkedTwenty;
    child.kill('SIGINT');
    await Promise.race([stopped, closed]);
    // A read blocked on a FIFO holds the process (libuv waits for it at exit); the writer's end releases it, as
    // Ctrl-C does by stopping the producer too. Half a capture: had it read on, it would have said "cut off".
    writer.destroy();
    const [code] = await closed;
    const parsed = JSON.parse(stdout) as { results: unknown[]; summary: { exchanges: number }; stopped: string };
    expect(parsed.results.length).toBe(parsed.summary.exchanges);
    expect(parsed.stopped).toMatch(/^SIGINT: only the first \d+ exchanges were checked$/);
    expect(stderr).toMatch(/contracts validate: SIGINT: stopped after \d+ exchanges/);
    expect(code).toBe(2);
  });
});
