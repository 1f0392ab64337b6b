// The single-operation phases send path ids of instances the run made (src/fuzz/stateful/live-instances.ts): the
// planted bookshelf service answers 404 to a book on a made-up shelf before it reads the body, and crashes on a title
// of exactly its maxLength behind a real shelf. A default run finds the crash under seeds 1, 2 and 3, its script
// reproduces it in bash against a fresh service (creating the shelf first), and the bug-free twin exits 0.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startPlanted } from '../helpers/planted.js';
import { runCli } from '../helpers/run-cli.js';

interface Report {
  failures: { check: string; operation: string; phase: string; status: number; script: string }[];
}

async function fuzz(seed: number, bugs: string[]) {
  const service = await startPlanted('bookshelf', bugs);
  const file = path.join(await mkdtemp(path.join(os.tmpdir(), 'contracts-live-ids-')), 'fuzz.json');
  try {
    const args = ['fuzz', '--api', 'bookshelf', '--base-url', service.url, '--seed', String(seed)];
    const result = await runCli([...args, '--report', `json:${file}`], { cwd: service.dir });
    return { ...result, report: JSON.parse(await readFile(file, 'utf8')) as Report };
  } finally {
    await service.stop();
  }
}

/** Runs a failure's script in bash against a fresh bookshelf service; its exit code (1: reproduced). */
async function runScript(script: string, bugs: string[]): Promise<number | null> {
  const service = await startPlanted('bookshelf', bugs);
  try {
    return await new Promise((resolve, reject) => {
      const child = spawn('bash', ['-c', script], {
        env: { ...process.env, BASE_URL: service.url },
        stdio: ['ignore', 'ignore', 'ignore'],
      });
      child.on('error', reject);
      child.on('close', (code) => resolve(code));
    });
  } finally {
    await service.stop();
  }
}

/** The operations of a script's steps, in order (`# 1. createShelf: the run got 201`). */
const stepsOf = (script: string) => [...script.matchAll(/^# \d+\. (\S+): the run got/gm)].map((match) => match[1]!);

describe('the single-operation phases bind path ids to instances the run made', () => {
  it.each([1, 2, 3])(
    'find a crash behind a valid shelf id under seed %i, reproduced from a fresh start',
    async (seed) => {
      const { code, stdout, stderr, report } = await fuzz(seed, ['server_error']);
      expect(code, stdout + stderr).toBe(1);
      const failures = report.failures.map(({ check, operation, phase, status }) => ({
        check,
        operation,
        phase,
        status,
      }));
      expect(failures).toEqual([
        { check: 'not_a_server_error', operation: 'createBook', phase: 'boundaries', status: 500 },
        { check: 'status_code_conformance', operation: 'createBook', phase: 'boundaries', status: 500 },
      ]);
      const crash = report.failures[0]!;
      expect(stepsOf(crash.script)).toEqual(['createShelf', 'createBook']);
      if (seed === 1)
        expect([await runScript(crash.script, ['server_error']), await runScript(crash.script, [])]).toEqual([1, 0]);
    },
    120_000,
  );

  it('exit 0 on the bug-free twin', async () => {
    const { code, stdout, stderr, report } = await fuzz(1, []);
    expect(code, stdout + stderr).toBe(0);
    expect(report.failures).toEqual([]);
  }, 120_000);
});
