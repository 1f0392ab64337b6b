// `--format json` is read by programs: whatever goes wrong, stdout holds one whole JSON document, with an `error`
// ({ code, message }) when the command could not do its job, and the exit status still says so.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { seedConfig } from '../helpers/paths.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'contracts-json-errors-'));
  await writeFile(
    path.join(dir, 'cut.har'),
    '{"log":{"version":"1.2","entries":[{"request":{"method":"GET","url":"http://x/client-session"},"response":{"status":200,"headers":[],"content":{"text":""}}},{"request"',
  );
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('--format json when the command cannot do its job', () => {
  it.each([
    [
      'validate, a HAR that is not there',
      ['validate', '--api', 'client-session', '--har', 'missing.har', '--format', 'json'],
      'INPUT_NOT_READABLE',
      /file not found: missing\.har/,
    ],
    [
      'validate, an unknown API',
      ['validate', '--api', 'nope', '--har', 'x.har', '--format=json'],
      'UNKNOWN_API',
      /unknown API "nope"/,
    ],
    [
      'validate, a bad flag value',
      [
        'validate',
        '--api',
        'client-session',
        '--operation',
        'retrieveClientSession',
        '--status',
        'abc',
        '--format',
        'json',
      ],
      'USAGE',
      /--status must be/,
    ],
    [
      'lint, a spec that is not there',
      ['lint', 'missing.yaml', '--format', 'json'],
      'SPEC_NOT_FOUND',
      /spec not found: missing\.yaml/,
    ],
  ])('%s: one JSON document with error.code and error.message, exit 2', async (_name, args, code, message) => {
    const result = await runCli(args, { cwd: dir, env: { CONTRACTS_CONFIG: seedConfig } });
    const parsed = JSON.parse(result.stdout) as { error: { code: string; message: string } };
    expect(parsed.error.code).toBe(code);
    expect(parsed.error.message).toMatch(message);
    expect(result.code).toBe(2);
  });

  it('validate --har closes the JSON it began, results so far included, when the capture turns out cut off', async () => {
    const result = await runCli(['validate', '--api', 'client-session', '--har', 'cut.har', '--format', 'json'], {
      cwd: dir,
      env: { CONTRACTS_CONFIG: seedConfig },
    });
    const parsed = JSON.parse(result.stdout) as {
      results: unknown[];
      summary: { exchanges: number };
      error: { code: string; message: string };
    };
    expect(parsed.results).toHaveLength(1);
    expect(parsed.summary.exchanges).toBe(1);
    expect(parsed.error).toEqual({ code: 'INPUT_NOT_READABLE', message: expect.stringContaining('cut off') });
    expect(result.stdout.match(/"error": ?\{/g)).toHaveLength(1);
    expect(result.code).toBe(2);
  });

  it('lint keeps the problems of the specs it could read beside the error of the one it could not', async () => {
    const result = await runCli(
      ['lint', path.resolve('specs/client-session.yaml'), 'missing.yaml', '--format', 'json'],
      { cwd: dir },
    );
    const parsed = JSON.parse(result.stdout) as { problems: unknown[]; error: { code: string } };
    expect(parsed.problems).toEqual([]);
    expect(parsed.error.code).toBe('SPEC_NOT_FOUND');
    expect(result.code).toBe(2);
  });
});
