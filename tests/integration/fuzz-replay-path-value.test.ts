// `contracts fuzz --replay` re-sends the value that failed. A real server breaks on one path value (an id outside
// ASCII), on reads and on updates: the replay of the read sends that id again and still fails; the update, which
// the replay may only send to an item it created, is said to be "not replayed" with why, never "no longer fails"
// (it used to swap in a fresh id, and the fresh id did not fail).
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

const spec = `openapi: 3.1.0
info: { title: items, version: "1" }
components:
  schemas:
    Item: { type: object, required: [id], properties: { id: { type: integer }, name: { type: string } } }
paths:
  /items:
    post:
      operationId: createItem
      requestBody:
        required: true
        content: { application/json: { schema: { type: object, properties: { name: { type: string, maxLength: 9 } } } } }
      responses:
        "201": { description: made, content: { application/json: { schema: { $ref: "#/components/schemas/Item" } } } }
        "400": { description: refused }
  /items/{itemId}:
    parameters:
      - { name: itemId, in: path, required: true, schema: { type: string, maxLength: 20 } }
    get:
      operationId: getItem
      responses:
        "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/Item" } } } }
        "404": { description: none }
    put:
      operationId: updateItem
      requestBody:
        required: true
        content: { application/json: { schema: { type: object, properties: { name: { type: string, maxLength: 9 } } } } }
      responses:
        "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/Item" } } } }
        "400": { description: refused }
        "404": { description: none }
`;

let project: string;
let server: http.Server;
let baseUrl: string;
let made = 0;

beforeAll(async () => {
  project = await mkdtemp(path.join(os.tmpdir(), 'contracts-replay-value-'));
  await writeFile(path.join(project, 'items.yaml'), spec);
  await writeFile(path.join(project, 'contracts.config.yaml'), 'apis:\n  - name: items\n    spec: items.yaml\n');
  server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const segments = new URL(req.url ?? '/', 'http://x').pathname.split('/').slice(1).map(decodeURIComponent);
      const json = (status: number, body: unknown) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (segments.length === 1) return req.method === 'POST' ? json(201, { id: ++made }) : json(404, {});
      // The planted bug: an id outside ASCII breaks the lookup, whatever the method.
      if (/[^\u0000-\u007f]/.test(segments[1]!)) return json(500, { error: 'lookup failed' });
      return json(200, { id: 1 });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

describe('contracts fuzz --replay of failures a path value triggered', () => {
  it('says still fails for the read, and not replayed (never "no longer fails") for the update', async () => {
    const report = path.join(project, 'report.json');
    const base = ['fuzz', '--api', 'items', '--base-url', baseUrl, '--rate', '0'];
    const run = await runCli([...base, '--seed', '3', '--report', `json:${report}`], { cwd: project });
    expect(run.code, run.stderr).toBe(1);
    const failures = (
      JSON.parse(await readFile(report, 'utf8')) as { failures: { operation: string; check: string }[] }
    ).failures;
    const serverErrors = failures.filter((failure) => failure.check === 'not_a_server_error');
    expect(serverErrors.map((failure) => failure.operation).sort()).toEqual(['getItem', 'updateItem']);
    const replay = await runCli([...base, '--replay', report], { cwd: project });
    const lines = replay.stdout.split('\n').filter((line) => line.includes('not_a_server_error'));
    expect(lines.find((line) => line.includes('· getItem:'))).toMatch(/: still fails \(answered 500\)$/);
    expect(lines.find((line) => line.includes('· updateItem:'))).toMatch(
      /: not replayed: could not replay the same request: it changes itemId "[^"]+", which this replay did not create; on itemId \d+, made by this replay instead, it answered 200, which says nothing of the saved value$/,
    );
    expect(replay.stdout).not.toMatch(/no longer fails/);
  }, 240_000);
});
