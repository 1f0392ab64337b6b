// The console report of a fuzz run (src/fuzz/fuzz-report.ts): a failure's "reproduce" line runs as printed. An
// embedded target is gone when the run ends: the line names the port of the command that starts it again, printed
// on the line before, never a variable inside single quotes (`'http://127.0.0.1:$MOCK_PORT/…'`, never expanded).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { FuzzFailure } from '../../src/fuzz/executor.js';
import { fuzzConsoleReport } from '../../src/fuzz/fuzz-report.js';
import type { FuzzRun } from '../../src/fuzz/run-fuzz.js';

const run = promisify(execFile);

function fuzzRun(api: string, target: string, path: string): FuzzRun {
  const failure: FuzzFailure = {
    id: 'abcd1234',
    key: 'k',
    api,
    operation: 'getItem',
    check: 'not_a_server_error',
    status: 500,
    kind: 'string with NUL',
    count: 3,
    message: 'getItem answered 500: a server error',
    phase: 'boundaries',
    note: 'itemId = "a\\u0000b"',
    curl: `curl -sS -i -X GET '${target}${path}'`,
    seed: 1,
    request: { method: 'GET', url: `${target}${path}`, headers: [] },
    steps: 1,
  };
  return {
    mode: 'full',
    targets: { [api]: target } as FuzzRun['targets'],
    results: [],
    summary: { passed: 0, failed: 1, skipped: 0 },
    notRun: [],
    durationMs: 0,
    failures: [failure],
    seed: 1,
    marker: '',
    requests: 1,
  };
}

describe('a fuzz failure printed after a run against an embedded target', () => {
  it.each([
    [
      'a Prism mock of a spec',
      'items',
      "npx contracts mock --api 'items' '--port-items' 4010",
      'http://127.0.0.1:4010',
    ],
    ['the sandbox of the seed APIs', 'client-session', 'npx contracts sandbox --port 4020', 'http://127.0.0.1:4020'],
  ])('%s: says how to start it, then a curl line bash runs as printed', async (_name, api, start, origin) => {
    const text = fuzzConsoleReport(fuzzRun(api, 'http://127.0.0.1:54321', '/items/a%00b?q=%27x%27'), true);
    const lines = text.split('\n');
    const at = lines.findIndex((line) => line.startsWith('      reproduce: '));
    expect(lines[at - 1]).toBe(`      the target is gone with the run; start it first: ${start}`);
    const curl = lines[at]!.slice('      reproduce: '.length);
    expect(curl).not.toMatch(/\$|54321/);
    await run('bash', ['-n', '-c', curl]);
    // As bash expands it: each argument, with curl replaced by printf.
    const { stdout } = await run('bash', ['-c', `printf '%s\\n' ${curl.slice('curl '.length)}`]);
    expect(stdout.split('\n')).toEqual(['-sS', '-i', '-X', 'GET', `${origin}/items/a%00b?q=%27x%27`, '']);
  });

  it('starts our own engine again with --engine own when it served the mock', () => {
    const text = fuzzConsoleReport(fuzzRun('items', 'http://127.0.0.1:54321', '/items/1'), true, undefined, 'own');
    expect(text).toContain(
      "      the target is gone with the run; start it first: npx contracts mock --api 'items' '--port-items' 4010 --engine own",
    );
  });

  it('prints the target as it was when the run was given one (--base-url), with no start line', () => {
    const text = fuzzConsoleReport(fuzzRun('items', 'http://127.0.0.1:54321', '/items/1'), false);
    expect(text).toContain("      reproduce: curl -sS -i -X GET 'http://127.0.0.1:54321/items/1'");
    expect(text).not.toContain('start it first');
  });
});
