// Each fuzz failure shows what the target said: status, the headers that explain it and the body's start with its
// size, in the console, the JSON report and the HTML report. A credential the target echoes is redacted from the
// whole body before it is cut, so the cut never leaves a piece of it behind.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { notesProject, type ScratchProject, scratchProject } from '../helpers/user-project.js';

const key = 'notes-key-7c1e5b9a44d0';
let project: ScratchProject;

beforeAll(async () => {
  // Every answer is a 500 whose body echoes the key across the 1,000th character, where the excerpt is cut.
  project = await scratchProject('contracts-failure-answer-', notesProject, (request, response) => {
    const echoed = String(request.headers['x-notes-key'] ?? '');
    response
      .writeHead(500, { 'content-type': 'text/plain', 'retry-after': '5' })
      .end(`${'x'.repeat(990)}${echoed}${'y'.repeat(500)}`);
  });
});
afterAll(() => project.stop());

it('shows each failure with the answer, the key redacted before the cut', async () => {
  const result = await runCli(
    [
      ...['fuzz', '--base-url', project.baseUrl, '--max-examples', '2', '--seed', '1', '--phases', 'examples'],
      ...['--report', 'json:fuzz.json', '--report', 'html:fuzz.html'],
    ],
    { cwd: project.dir, env: { CONTRACTS_NOTES_KEY: key } },
  );
  expect(result.code).toBe(1);
  expect(result.stdout).toMatch(/^ {6}answer: 500, text\/plain, 1512 bytes: x{160}…$/m);
  const report = JSON.parse(await readFile(path.join(project.dir, 'fuzz.json'), 'utf8')) as {
    failures: {
      check: string;
      answer: { status: number; headers: Record<string, string>; body: string; bodyBytes: number; truncated?: boolean };
    }[];
  };
  const failure = report.failures.find((candidate) => candidate.check === 'not_a_server_error')!;
  expect(failure.answer).toMatchObject({
    status: 500,
    headers: { 'content-type': 'text/plain', 'retry-after': '5' },
    bodyBytes: 1512,
    truncated: true,
  });
  expect(failure.answer.body).toHaveLength(1000);
  expect(failure.answer.body.startsWith('x'.repeat(990))).toBe(true);
  // Cut first and redacted after, the excerpt would end in the key's first ten characters.
  const html = await readFile(path.join(project.dir, 'fuzz.html'), 'utf8');
  for (const text of [result.stdout, JSON.stringify(report), html]) {
    expect(text).not.toContain(key.slice(0, 8));
  }
  expect(html).toContain('answer: <b>500</b>');
  expect(html).toContain('reproduce: <code>curl');
});
