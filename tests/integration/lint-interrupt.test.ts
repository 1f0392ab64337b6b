// Ctrl-C (SIGINT) or SIGTERM while lint works through a large spec: it says in one line that it stopped and where,
// and exits 2 (as check, fuzz and validate do when interrupted), instead of dying without a word.
import { spawn } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { root } from '../helpers/paths.js';

/** A spec of `count` operations, each with a schema and an example: seconds of lint. */
function largeSpec(count: number): string {
  const paths: Record<string, unknown> = {};
  for (let i = 0; i < count; i++)
    paths[`/items${i}/{id}`] = {
      get: {
        operationId: `getItem${i}`,
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', pattern: '^[a-z]+$' } }],
        responses: {
          '200': {
            description: 'ok',
            content: {
              'application/json': {
                schema: { type: 'object', properties: { id: { type: 'string' }, n: { type: 'integer' } } },
                example: { id: 'a', n: i },
              },
            },
          },
        },
      },
    };
  return JSON.stringify({ openapi: '3.1.0', info: { title: 'large', version: '1' }, paths });
}

describe('contracts lint, interrupted', () => {
  it.each([
    ['SIGINT', 'text'],
    ['SIGTERM', 'json'],
  ] as const)(
    'on %s says it stopped and exits 2 (--format %s)',
    async (signal, format) => {
      const project = await mkdtemp(path.join(os.tmpdir(), 'contracts-lint-interrupt-'));
      await writeFile(path.join(project, 'large.json'), largeSpec(4000));
      // The missing spec comes first: its one line says lint is under way (its handlers set) before large.json starts.
      const child = spawn(
        process.execPath,
        [path.join(root, 'bin/contracts.js'), 'lint', '--format', format, 'missing.yaml', 'large.json', 'large.json'],
        { cwd: project, env: { ...process.env, SCARF_ANALYTICS: 'false', CONTRACTS_CACHE: 'off' } },
      );
      let stdout = '';
      let stderr = '';
      let sent = false;
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        if (!sent && stderr.includes('missing.yaml')) {
          sent = true;
          child.kill(signal);
        }
      });
      const exit = await new Promise<{ code: number | null; signal: string | null }>((resolve) =>
        child.once('exit', (code, killedBy) => resolve({ code, signal: killedBy })),
      );
      expect(sent).toBe(true);
      // The signal stops whichever large.json is being linted: the first (on a quiet machine) or, when the signal is
      // read only after the first was done (a loaded one), the second, with nothing left after it.
      const stopped = new RegExp(`^${signal}: stopped while linting large\\.json( and 1 more spec not linted)?$`);
      const line = stderr.split('\n').find((candidate) => candidate.startsWith(`contracts lint: ${signal}:`));
      expect(line?.slice('contracts lint: '.length), stderr).toMatch(stopped);
      expect(exit).toEqual({ code: 2, signal: null });
      if (format === 'json')
        expect(JSON.parse(stdout).error).toEqual({ code: 'INTERRUPTED', message: expect.stringMatching(stopped) });
    },
    240_000,
  );
});
