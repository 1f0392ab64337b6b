// What a target or an input holds reaches the terminal as text, never as escape sequences: a HAR's method, URL
// and body end up in console lines, and every line the CLI writes has its control characters escaped.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

let dir: string;
let harFile: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'contracts-escapes-'));
  const entry = (method: string, url: string, text: string) => ({
    request: { method, url },
    response: { status: 200, headers: [{ name: 'content-type', value: 'application/json' }], content: { text } },
  });
  harFile = path.join(dir, 'hostile.har');
  await writeFile(
    harFile,
    JSON.stringify({
      log: {
        entries: [
          entry('G\u001b]0;pwned\u0007E\u009bT', 'http://h/repos/o/r/hooks/1', '{}'),
          entry('GET', 'http://h/repos/o/r/hooks/1', '\u001b[2J\u001b[31m\u009b31m not json'),
        ],
      },
    }),
  );
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

// Any C0 control but tab and newline, DEL, or a C1 control.
const rawControl = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

describe('console output', () => {
  it('escapes control characters from a HAR method and body in text output', async () => {
    const result = await runCli(['validate', '--api', 'repository-webhooks', '--har', harFile]);
    expect(result.code).toBe(1);
    expect(result.stdout).not.toMatch(rawControl);
    expect(result.stdout).toContain('#1 G\\u001b]0;pwned\\u0007E\\u009bT /repos/o/r/hooks/1');
    // The second exchange's body is hostile too: whatever of it a message quotes is escaped (checked above).
    expect(result.stdout).toMatch(/#2 GET \/repos\/o\/r\/hooks\/1/);
  });

  it('keeps --format json output valid JSON with the same values', async () => {
    const result = await runCli(['validate', '--api', 'repository-webhooks', '--har', harFile, '--format', 'json']);
    expect(result.stdout).not.toMatch(rawControl);
    const json = JSON.parse(result.stdout) as { results: { method: string }[] };
    expect(json.results[0]?.method).toBe('G\u001b]0;pwned\u0007E\u009bT');
  });

  it('escapes control characters in an error line', async () => {
    const result = await runCli([
      'validate',
      '--spec',
      path.join(dir, 'no\u001b[31mspec.yaml'),
      '--method',
      'GET',
      '--path',
      '/x',
      '--status',
      '200',
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).not.toMatch(rawControl);
    expect(result.stderr).toContain('no\\u001b[31mspec.yaml');
  });
});
