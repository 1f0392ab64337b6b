// Each fuzz failure shows what the target said: status, the headers that explain it and the body's start with its
// size, in the console, the JSON report and the HTML report. A credential the target echoes is redacted from the
// whole body before it is cut, so the cut never leaves a piece of it behind.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

const spec = `openapi: 3.1.0
info: { title: notes, version: "1" }
security: [{ key: [] }]
paths:
  /notes:
    get:
      operationId: listNotes
      summary: List the notes
      responses:
        "200":
          description: The notes
          content: { application/json: { schema: { type: array, items: { type: string } } } }
components:
  securitySchemes:
    key: { type: apiKey, in: header, name: X-Notes-Key }
`;

const key = 'notes-key-7c1e5b9a44d0';
let project: string;
let server: http.Server;
let baseUrl: string;

beforeAll(async () => {
  project = await mkdtemp(path.join(os.tmpdir(), 'contracts-failure-answer-'));
  await writeFile(path.join(project, 'notes.yaml'), spec);
  await writeFile(
    path.join(project, 'contracts.config.yaml'),
    'apis:\n  - name: notes\n    spec: notes.yaml\n    credentials:\n      - { env: NOTES_KEY, securityScheme: key }\n',
  );
  // Every answer is a 500 whose body echoes the key across the 1,000th character, where the excerpt is cut.
  server = http.createServer((request, response) => {
    const echoed = String(request.headers['x-notes-key'] ?? '');
    response
      .writeHead(500, { 'content-type': 'text/plain', 'retry-after': '5' })
      .end(`${'x'.repeat(990)}${echoed}${'y'.repeat(500)}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await rm(project, { recursive: true, force: true });
});

it('shows each failure with the answer, the key redacted before the cut', async () => {
  const result = await runCli(
    [
      ...['fuzz', '--base-url', baseUrl, '--max-examples', '2', '--seed', '1', '--phases', 'examples'],
      ...['--report', 'json:fuzz.json', '--report', 'html:fuzz.html'],
    ],
    { cwd: project, env: { NOTES_KEY: key } },
  );
  expect(result.code).toBe(1);
  expect(result.stdout).toMatch(/^ {6}answer: 500, text\/plain, 1512 bytes: x{160}…$/m);
  const report = JSON.parse(await readFile(path.join(project, 'fuzz.json'), 'utf8')) as {
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
  const html = await readFile(path.join(project, 'fuzz.html'), 'utf8');
  for (const text of [result.stdout, JSON.stringify(report), html]) {
    expect(text).not.toContain(key.slice(0, 8));
  }
  expect(html).toContain('answer: <b>500</b>');
  expect(html).toContain('reproduce: <code>curl');
});
