// `fuzz --replay` tells "could not reproduce" from "fixed": on a small service of our own, item 7 answers 500 (the
// bug the run found), and once it is deleted every GET of it answers 404. The bug is still there, so "no longer
// fails (answered 404)" was a false all-clear; a refused request (401) proves nothing either.
import { mkdtemp, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMain } from '../helpers/run-main.js';

const spec = `openapi: 3.1.0
info: { title: items, version: "1" }
paths:
  /items/{id}:
    get:
      operationId: getItem
      parameters: [{ name: id, in: path, required: true, schema: { type: integer } }]
      responses: { "200": { description: an item }, "401": { description: no key }, "404": { description: no such item } }
`;

let project: string;
let server: http.Server;
let baseUrl: string;
let state: 'buggy' | 'deleted' | 'fixed' | 'locked' = 'buggy';

beforeAll(async () => {
  project = await mkdtemp(path.join(os.tmpdir(), 'contracts-replay-gone-'));
  await writeFile(path.join(project, 'items.yaml'), spec);
  await writeFile(path.join(project, 'contracts.config.yaml'), 'apis:\n  - name: items\n    spec: items.yaml\n');
  server = http.createServer((_req, res) => {
    const status = { buggy: 500, deleted: 404, fixed: 200, locked: 401 }[state];
    res.writeHead(status, status === 200 ? { 'content-type': 'application/json' } : {}).end(status === 200 ? '{}' : '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const failure = {
    id: 'get00007',
    api: 'items',
    operation: 'getItem',
    check: 'not_a_server_error',
    status: 500,
    message: 'status 500',
    phase: 'examples',
    note: 'the smallest valid request',
    curl: 'curl …',
    seed: 1,
    request: { method: 'GET', url: `${baseUrl}/items/7`, headers: [] },
  };
  // A keyless request the run saw answered 200: on replay a 401 is its fix, not a refusal that proves nothing.
  const keyless = { ...failure, id: 'auth0007', check: 'ignored_auth', status: 200 };
  await writeFile(path.join(project, 'run.json'), JSON.stringify({ seed: 1, results: [], failures: [failure] }));
  await writeFile(path.join(project, 'auth.json'), JSON.stringify({ seed: 1, results: [], failures: [keyless] }));
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

async function replay(file = 'run.json') {
  return runMain(['fuzz', '--api', 'items', '--replay', file, '--base-url', baseUrl], project);
}

describe('contracts fuzz --replay', () => {
  it.each([
    ['buggy', /getItem: still fails \(answered 500\)/, 1],
    ['deleted', /getItem: could not reproduce: answered 404 where the run got 500 \(what it needs is gone\)/, 1],
    [
      'locked',
      /getItem: could not reproduce: answered 401 where the run got 500 \(refused: check the credentials\)/,
      1,
    ],
    ['fixed', /getItem: no longer fails \(answered 200\)/, 0],
  ] as const)('when the item is %s: %s', async (now, verdict, exit) => {
    state = now;
    const result = await replay();
    expect(result.output).toMatch(verdict);
    expect(result.code, result.output).toBe(exit);
  });

  it('counts a refusal as the fix of an ignored_auth failure', async () => {
    state = 'locked';
    const result = await replay('auth.json');
    expect(result.output).toMatch(/\[auth0007\] ignored_auth · getItem: no longer fails \(answered 401\)/);
    expect(result.code, result.output).toBe(0);
  });
});
