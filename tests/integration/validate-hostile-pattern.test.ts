// A spec's `pattern: '^(a+)+$'` and a hostile value of 35 characters: `contracts validate` (a real process) answers in
// about a second, the value judged by RE2 in linear time; a backtracking RegExp took hours (issue 26, item 4).
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { root } from '../helpers/paths.js';

const hostile = `${'a'.repeat(34)}!`;
const spec = `openapi: 3.1.0
info: { title: hostile patterns, version: '1' }
paths:
  /names:
    get:
      operationId: getName
      summary: A name
      parameters:
        - { name: q, in: query, schema: { type: string, pattern: '^(a+)+$' } }
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema:
                type: object
                properties:
                  name: { type: string, pattern: '^(a+)+$' }
`;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'contracts-hostile-pattern-'));
  await writeFile(path.join(dir, 'spec.yaml'), spec);
  await writeFile(path.join(dir, 'body.json'), JSON.stringify({ name: hostile }));
  const exchange = {
    request: { method: 'GET', url: `http://127.0.0.1:1/names?q=${hostile}`, headers: [] },
    response: { status: 200, headers: [{ name: 'content-type', value: 'application/json' }], content: { text: '{}' } },
  };
  await writeFile(path.join(dir, 'traffic.har'), JSON.stringify({ log: { version: '1.2', entries: [exchange] } }));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/**
 * The CLI, killed after 20 s: with a backtracking engine it would not return for hours. SIGKILL, because a blocked
 * event loop never runs the CLI's SIGTERM handler.
 */
function validate(args: string[]): Promise<{ code: number | null; stdout: string; seconds: number }> {
  const start = performance.now();
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(root, 'bin/contracts.js'), 'validate', '--spec', path.join(dir, 'spec.yaml'), ...args],
      { cwd: root, timeout: 20_000, killSignal: 'SIGKILL', env: { ...process.env, SCARF_ANALYTICS: 'false' } },
      (error, stdout) =>
        resolve({
          code: error ? (error.code as number | null) : 0,
          stdout,
          seconds: (performance.now() - start) / 1000,
        }),
    );
  });
}

describe('contracts validate with a catastrophic pattern in the spec', () => {
  it('judges a response body of 35 hostile characters within seconds', async () => {
    const result = await validate([
      '--operation',
      'getName',
      '--status',
      '200',
      '--header',
      'content-type: application/json',
      '--body',
      path.join(dir, 'body.json'),
    ]);
    expect(result.seconds).toBeLessThan(10); // about 1 s, the start of the process included
    expect(result.stdout).toContain(`/name must match pattern "^(a+)+$", not "${hostile}"`);
    expect(result.code).toBe(1);
  }, 30_000);

  it('judges a request query value of 35 hostile characters within seconds (validate --har)', async () => {
    const result = await validate(['--har', path.join(dir, 'traffic.har'), '--side', 'request']);
    expect(result.seconds).toBeLessThan(10);
    expect(result.stdout).toMatch(
      /request_parameters_conformance: query parameter q must match pattern "\^\(a\+\)\+\$"/,
    );
    expect(result.code).toBe(1);
  }, 30_000);
});
