// merge-reports: the shards of one run become one report; a check failed anywhere failed, passed anywhere passed.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { mergeReportsCommand } from '../../src/cli/fuzz-command.js';
import { mergeReports } from '../../src/fuzz/merge-reports.js';
import { Redactor } from '../../src/reports/redact.js';
import { seedProject } from '../../src/config/seed-project.js';

const result = (operation: string, status: 'passed' | 'failed' | 'skipped', message?: string) => ({
  api: 'repository-webhooks',
  operation,
  check: 'not_a_server_error' as never,
  status,
  durationMs: 1,
  findings: message
    ? [{ check: 'not_a_server_error' as never, severity: 'error' as const, operation, instancePath: '', message }]
    : [],
  ...(status === 'skipped' ? { reason: 'another shard' } : {}),
});

describe('mergeReports', () => {
  it.each([
    ['failed in one shard, passed in another: failed', ['failed', 'passed'], 'failed'],
    ['passed in one shard, skipped in another: passed', ['skipped', 'passed'], 'passed'],
    ['skipped everywhere: skipped', ['skipped', 'skipped'], 'skipped'],
  ] as const)('%s', (_name, statuses, want) => {
    const merged = mergeReports(
      statuses.map((status) => ({ results: [result('getWebhook', status, status === 'failed' ? 'boom' : undefined)] })),
    );
    expect(merged.results.map((r) => r.status)).toEqual([want]);
    expect(merged.summary[want]).toBe(1);
  });

  it('keeps each finding and each failure once, counting repeats', () => {
    const failure = {
      id: 'abcd1234',
      api: 'repository-webhooks',
      operation: 'getWebhook',
      check: 'not_a_server_error',
      status: 500,
      message: 'boom',
      phase: 'random' as const,
      note: '',
      curl: 'curl …',
      seed: 1,
      request: { method: 'GET', url: 'http://x/', headers: [] },
    };
    const merged = mergeReports([
      { results: [result('getWebhook', 'failed', 'boom')], failures: [failure], seed: 1, requests: 10 },
      { results: [result('getWebhook', 'failed', 'boom')], failures: [failure], seed: 1, requests: 5 },
    ]);
    expect(merged.results[0]!.findings).toEqual([expect.objectContaining({ message: 'boom', count: 2 })]);
    expect(merged.failures.map((f) => f.id)).toEqual(['abcd1234']);
    expect(merged.requests).toBe(15);
  });

  it('merges failures of one group from several shards: counts summed, the shortest reproduction kept', () => {
    const failure = (id: string, seed: number, count: number, steps: number) => ({
      id,
      api: 'items',
      operation: 'createItem',
      check: 'not_a_server_error',
      status: 500,
      kind: 'string with NUL',
      count,
      message: 'createItem answered 500: a server error',
      phase: 'boundaries' as const,
      note: `seed ${seed}`,
      curl: `curl ${seed}`,
      seed,
      request: { method: 'POST', url: 'http://x/items', headers: [] },
      steps,
    });
    const other = { ...failure('99999999', 3, 1, 1), kind: 'non-ASCII string' };
    const merged = mergeReports([
      { results: [], failures: [failure('aaaaaaaa', 1, 4, 2)], seed: 1 },
      { results: [], failures: [failure('bbbbbbbb', 2, 3, 1), other], seed: 2 },
    ]);
    expect(merged.failures.map(({ key: _key, ...kept }) => kept)).toEqual([{ ...failure('bbbbbbbb', 2, 7, 1) }, other]);
  });
});

describe('contracts merge-reports', () => {
  it('writes one JUnit and one JSON report from several JSON reports, and exits 1 when a check failed', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'contracts-merge-'));
    try {
      await writeFile(path.join(dir, 'a.json'), JSON.stringify({ results: [result('getWebhook', 'passed')], seed: 3 }));
      await writeFile(
        path.join(dir, 'b.json'),
        JSON.stringify({
          results: [result('deleteWebhook', 'failed', 'deleteWebhook answered 500: a server error')],
          seed: 3,
        }),
      );
      const out: string[] = [];
      const code = await mergeReportsCommand.run(
        { report: ['junit:merged.xml', 'json:merged.json'] },
        ['a.json', 'b.json'],
        {
          out: (line) => out.push(line),
          err: () => undefined,
          cwd: dir,
          env: {},
          redactor: new Redactor(),
          project: seedProject,
        },
      );
      expect(code).toBe(1);
      expect(await readFile(path.join(dir, 'merged.xml'), 'utf8')).toMatch(/tests="2" failures="1"/);
      const json = JSON.parse(await readFile(path.join(dir, 'merged.json'), 'utf8')) as {
        summary: object;
        seed: number;
      };
      expect(json).toMatchObject({ summary: { passed: 1, failed: 1, skipped: 0 }, seed: 3 });
      expect(out.join('\n')).toMatch(/1 passed, 1 failed, 0 skipped/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses a file that is not a report in one line', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'contracts-merge-'));
    try {
      await writeFile(path.join(dir, 'x.json'), '{"nope": 1}');
      await expect(
        mergeReportsCommand.run({}, ['x.json'], {
          out: () => undefined,
          err: () => undefined,
          cwd: dir,
          env: {},
          redactor: new Redactor(),
          project: seedProject,
        }),
      ).rejects.toThrow(/is not a JSON report of contracts check or fuzz/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
