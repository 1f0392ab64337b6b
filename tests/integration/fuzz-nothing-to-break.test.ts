// An operation whose request the spec constrains in nothing but its API key (a secured GET with no parameters) has
// no negative case: the keyless request is ignored_auth's, not negative_data_rejection's. That check was planned
// anyway, never reached, and failed the run ("the sequence never reached it").
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

const spec = `openapi: 3.0.3
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
        "401": { description: No key }
components:
  securitySchemes:
    key: { type: apiKey, in: header, name: X-Notes-Key }
`;

let project: string;
let server: http.Server;
let baseUrl: string;

beforeAll(async () => {
  project = await mkdtemp(path.join(os.tmpdir(), 'contracts-nothing-to-break-'));
  await writeFile(path.join(project, 'notes.yaml'), spec);
  await writeFile(
    path.join(project, 'contracts.config.yaml'),
    'apis:\n  - name: notes\n    spec: notes.yaml\n    credentials:\n      - { env: NOTES_KEY, securityScheme: key }\n',
  );
  server = http.createServer((req, res) => {
    if (req.headers['x-notes-key'] !== 'right-key') res.writeHead(401).end();
    else res.writeHead(200, { 'content-type': 'application/json' }).end('["buy milk"]');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await rm(project, { recursive: true, force: true });
});

it('skips negative_data_rejection with its reason, judges ignored_auth, and passes a server that keeps the spec', async () => {
  const result = await runCli(
    ['fuzz', '--base-url', baseUrl, '--max-examples', '3', '--seed', '1', '--report', 'json:fuzz.json'],
    { cwd: project, env: { NOTES_KEY: 'right-key' } },
  );
  expect(result.stdout).not.toContain('never reached');
  expect(result.stdout).toMatch(/\d+ passed, 0 failed/);
  expect(result.code).toBe(0);
  const { readFile } = await import('node:fs/promises');
  const report = JSON.parse(await readFile(path.join(project, 'fuzz.json'), 'utf8')) as {
    results: { operation: string; check: string; status: string; reason?: string }[];
  };
  const of = (check: string) => report.results.find((r) => r.operation === 'listNotes' && r.check === check);
  expect(of('negative_data_rejection')).toMatchObject({
    status: 'skipped',
    reason: 'the spec constrains nothing of this request that can be broken',
  });
  expect(of('ignored_auth')?.status).toBe('passed');
});
