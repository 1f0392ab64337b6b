// Hostile or hand-edited input files, and an API the embedded sandbox does not serve: each ends in one line that says
// what is wrong, exit 2, never "internal error … please report it".
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture, specFile } from '../helpers/paths.js';
import { runCli } from '../helpers/run-cli.js';

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'contracts-malformed-'));
  await copyFile(fixture('specs', 'openapi-30', 'pets.yaml'), path.join(dir, 'pets.yaml'));
  // A config names only files in its own project (confine-path.ts): the seed specs are copied beside it.
  for (const name of ['client-session', 'repository-webhooks'])
    await copyFile(specFile(name), path.join(dir, `${name}.yaml`));
  await writeFile(path.join(dir, 'only-pets.yaml'), 'apis:\n  - name: petstore\n    spec: pets.yaml\n');
  await writeFile(
    path.join(dir, 'with-seeds.yaml'),
    [
      'apis:',
      '  - name: client-session',
      '    spec: client-session.yaml',
      '  - name: repository-webhooks',
      '    spec: repository-webhooks.yaml',
      '  - name: petstore',
      '    spec: pets.yaml',
      '    mockPort: 4019',
      '',
    ].join('\n'),
  );
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const savedFailure = (request: Record<string, unknown>) => ({
  id: 'abcd1234',
  api: 'client-session',
  operation: 'retrieveClientSession',
  check: 'not_a_server_error',
  status: 500,
  phase: 'examples',
  note: 'the smallest valid request',
  request,
});

async function file(name: string, content: unknown): Promise<string> {
  const target = path.join(dir, name);
  await writeFile(target, JSON.stringify(content));
  return target;
}

/** One line; a usage error is followed by the pointer to --help every usage error gets. */
function expectOneLine(result: { code: number | null; stdout: string; stderr: string }, message: string | RegExp) {
  expect(result.stderr).not.toMatch(/internal error|please report it|\n\s+at /);
  const lines = result.stderr.trim().split('\n');
  expect(lines.slice(1).filter((line) => !/^Run `contracts \S+ --help` for usage\.$/.test(line))).toEqual([]);
  expect(result.stderr).toMatch(message);
  expect(result.code).toBe(2);
}

describe('malformed inputs (real process)', () => {
  it.each([
    [
      'a replay file whose request has no headers',
      { method: 'GET', url: 'http://x.invalid/client-session' },
      'failures[0].request.headers is not a list of [name, value] pairs',
    ],
    [
      'a replay file whose request has a bad URL',
      { method: 'GET', url: 'not a url', headers: [] },
      'failures[0].request.url is not an absolute http(s) URL',
    ],
    [
      // Text that is not JSON is a body a negative case sent (not-json-bodies.ts): replayed as it was.
      'a replay file whose request body is not text',
      { method: 'POST', url: 'http://x.invalid/client-session', headers: [], body: 42 },
      'failures[0].request.body is not text',
    ],
  ])('refuses %s in one line', async (_name, request, message) => {
    const replay = await file('replay.json', { failures: [savedFailure(request)] });
    const result = await runCli(['fuzz', '--replay', replay]);
    expectOneLine(result, `contracts fuzz: --replay: ${replay}: ${message}`);
  });

  it('refuses to merge a result without findings into a JUnit report, in one line', async () => {
    const report = await file('no-findings.json', {
      results: [
        { api: 'client-session', operation: 'x', check: 'not_a_server_error', status: 'failed', durationMs: 1 },
      ],
    });
    const result = await runCli(['merge-reports', report, '--report', `junit:${path.join(dir, 'out.xml')}`]);
    expectOneLine(
      result,
      `contracts merge-reports: ${report} is not a JSON report of contracts check or fuzz: results[0] has no "findings" list`,
    );
  });

  // Without --base-url, an API the embedded sandbox does not serve is fuzzed against the stateful sandbox of its spec.
  it.each([
    ['a config of that API alone', 'only-pets.yaml'],
    ['a config with the seeds too', 'with-seeds.yaml'],
  ])(
    'fuzzes the stateful sandbox of an API the embedded sandbox does not serve (%s)',
    async (_name, config) => {
      const result = await runCli([
        'fuzz',
        '--config',
        path.join(dir, config),
        '--api',
        'petstore',
        '--max-examples',
        '2',
      ]);
      expect(result.stderr).toContain('contracts fuzz: no --base-url: fuzzing the stateful sandbox of petstore');
      expect(result.stdout).toMatch(/petstore \(its stateful sandbox, http:\/\/127\.0\.0\.1:\d+\)/);
    },
    60_000,
  );
});
