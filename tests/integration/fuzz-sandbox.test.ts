// `contracts fuzz` with no --base-url fuzzes the embedded sandbox, our reference implementation: any finding there
// is a sandbox (or spec) bug. The same seed prints the same report.
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { startSandbox } from '../../src/plugins/example-sandbox.js';

async function fuzz(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(['fuzz', ...args], {
    out: (line) => out.push(line),
    err: (line) => err.push(line),
    cwd: process.cwd(),
    env: { PATH: process.env.PATH },
  });
  return { code, stdout: out.join('\n'), stderr: err.join('\n') };
}

describe('contracts fuzz against the embedded sandbox', () => {
  it.each([1, 2])(
    'exits 0 with the default budget under seed %i: every check exercised and held',
    async (seed) => {
      const { code, stdout } = await fuzz(['--seed', String(seed)]);
      expect(stdout).toMatch(/ 0 failed, 0 skipped; 0 distinct failures$/);
      expect(code).toBe(0);
    },
    240_000,
  );

  it('repeats a run byte for byte with the same seed', async () => {
    const args = ['--seed', '77', '--max-examples', '8'];
    const first = await fuzz(args);
    const second = await fuzz(args);
    expect(second.stdout).toBe(first.stdout);
    expect(first.stdout).toMatch(/^contracts fuzz: seed 77, \d+ requests/);
  }, 240_000);

  it('deletes every webhook it created on a target it does not own', async () => {
    const sandbox = await startSandbox({ port: 0, host: '127.0.0.1' });
    try {
      await fuzz([
        '--base-url',
        sandbox.url,
        '--api',
        'repository-webhooks',
        '--seed',
        '5',
        '--max-examples',
        '5',
        '--rate',
        '0',
      ]);
      const hooks = (await (await fetch(`${sandbox.url}/repos/octo/app/hooks?per_page=100`)).json()) as unknown[];
      expect(hooks).toEqual([]);
    } finally {
      await sandbox.stop();
    }
  }, 240_000);

  it('--read-only sends only GET requests and skips, with the reason, what needs a hook or a write', async () => {
    const sandbox = await startSandbox({ port: 0, host: '127.0.0.1' });
    const { mkdtemp, readFile, rm } = await import('node:fs/promises');
    const dir = await mkdtemp(path.join(tmpdir(), 'contracts-read-only-'));
    try {
      const file = path.join(dir, 'report.json');
      await fuzz([
        '--base-url',
        sandbox.url,
        '--read-only',
        '--api',
        'repository-webhooks',
        '--seed',
        '1',
        '--max-examples',
        '3',
        '--rate',
        '0',
        '--report',
        `json:${file}`,
      ]);
      const report = JSON.parse(await readFile(file, 'utf8')) as {
        results: { operation: string; status: string; reason?: string }[];
      };
      expect(report.results.filter((result) => result.status === 'failed' && result.reason !== undefined)).toEqual([]);
      const judged = new Set(
        report.results.filter((result) => result.status !== 'skipped').map((result) => result.operation),
      );
      expect([...judged]).toEqual(['listWebhooks']);
      expect(report.results.find((result) => result.operation === 'deleteWebhook')?.reason).toBe(
        '--read-only sends only GET requests',
      );
      expect(report.results.find((result) => result.operation === 'getWebhook')?.reason).toBe(
        '--read-only creates no hook to act on',
      );
    } finally {
      await sandbox.stop();
      await rm(dir, { recursive: true, force: true });
    }
  }, 240_000);

  it('--shard i/n splits the operations into disjoint shares that together cover all of them', async () => {
    const { mkdtemp, readFile, rm } = await import('node:fs/promises');
    const dir = await mkdtemp(path.join(tmpdir(), 'contracts-shard-'));
    try {
      const shares: string[][] = [];
      for (const shard of ['1/3', '2/3', '3/3']) {
        const file = path.join(dir, `${shard.replace('/', '-')}.json`);
        await fuzz([
          '--shard',
          shard,
          '--phases',
          'examples',
          '--max-examples',
          '2',
          '--seed',
          '1',
          '--report',
          `json:${file}`,
        ]);
        const report = JSON.parse(await readFile(file, 'utf8')) as { results: { api: string; operation: string }[] };
        shares.push([...new Set(report.results.map((result) => `${result.api}/${result.operation}`))]);
      }
      const all = shares.flat();
      expect(new Set(all).size).toBe(all.length);
      expect(all.sort()).toHaveLength(13);
      expect(shares.map((share) => share.length)).toEqual([5, 4, 4]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 240_000);

  it.each([
    [['--shard', '4/3'], /--shard takes i\/n with 1 ≤ i ≤ n/],
    [['--phases', 'examples,nope'], /--phases takes a comma-separated list/],
    [['--max-examples', '0'], /--max-examples must be a whole number from 1/],
    [['--hook-url', 'ftp://x'], /--hook-url must be an http\(s\) URL/],
    [['--read-only'], /--read-only needs --base-url/],
  ])('refuses %j in one line with exit 2', async (args, message) => {
    const { code, stderr } = await fuzz(args);
    expect(code).toBe(2);
    expect(stderr.split('\n')[0]).toMatch(message);
    expect(stderr).not.toMatch(/\n\s+at /);
  });
});
