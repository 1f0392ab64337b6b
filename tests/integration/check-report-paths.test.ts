// `check --report` paths are judged before anything runs: a report never replaces an input of the run, a
// directory or a path under a file is refused in one line (exit 2), and /dev/stdout is written through.
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/free-port.js';
import { specFile } from '../helpers/paths.js';
import { runCli } from '../helpers/run-cli.js';

let dir: string;
let closedUrl: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'contracts-report-paths-'));
  // Nothing listens there: a run that does start fails fast (exit 2) after writing its reports.
  closedUrl = `http://127.0.0.1:${await freePort()}`;
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

// Without its first line, which names the config whose credentials are sent (main.ts): the rest is the report's.
const check = async (...args: string[]) => {
  const result = await runCli(['check', '--api', 'client-session', '--base-url', closedUrl, ...args], {
    env: { CLIENT_SESSION_API_KEY: 'k' },
  });
  const [first, ...rest] = result.stderr.split('\n');
  expect(first).toMatch(/^contracts check: sending credentials as the config \S+contracts\.config\.yaml names them$/);
  return { ...result, stderr: rest.join('\n') };
};

describe('contracts check --report', () => {
  it('refuses a report path that is the --spec file of the run, before running, leaving the spec as it was', async () => {
    const spec = path.join(dir, 'draft.yaml');
    await copyFile(specFile('client-session'), spec);
    const before = await readFile(spec, 'utf8');
    const result = await check('--spec', `client-session=${spec}`, '--report', `json:${spec}`);
    expect(await readFile(spec, 'utf8')).toBe(before);
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toBe(
      `contracts check: --report json:${spec} would overwrite the client-session spec given with --spec: write the report elsewhere`,
    );
    expect(result.stdout).toBe('');
  });

  it('refuses the shipped spec as a report path', async () => {
    const shipped = specFile('client-session');
    const before = await readFile(shipped, 'utf8');
    try {
      const result = await check('--report', 'junit:specs/client-session.yaml');
      expect(result.code).toBe(2);
      expect(result.stderr.trim()).toBe(
        'contracts check: --report junit:specs/client-session.yaml would overwrite the shipped client-session spec (specs/client-session.yaml): write the report elsewhere',
      );
    } finally {
      // Should the refusal ever regress, the checkout keeps its spec.
      if ((await readFile(shipped, 'utf8')) !== before) await writeFile(shipped, before);
    }
  });

  it.each([
    ['a directory', () => dir, /is a directory: name a file$/],
    ['a path under a file', () => path.join(dir, 'plain.txt', 'r.json'), /plain\.txt is a file, not a folder$/],
  ])('refuses %s in one line, before running', async (_name, given, message) => {
    await writeFile(path.join(dir, 'plain.txt'), 'x');
    const result = await check('--report', `json:${given()}`);
    expect(result.code).toBe(2);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(message);
    expect(result.stderr).not.toMatch(/EEXIST|ENOTDIR|EISDIR|cannot reach/);
  });

  it('writes a report to /dev/stdout through it', async () => {
    const result = await check('--report', 'json:/dev/stdout');
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/cannot reach/);
    const json = JSON.parse(result.stdout.slice(result.stdout.indexOf('{'))) as { results: unknown[] };
    expect(Array.isArray(json.results)).toBe(true);
  });
});
