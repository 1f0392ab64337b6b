// `fuzz --replay` re-sends a styled query parameter as the run sent it (OpenAPI 3.1 section 4.8.12.4): `ids=1,2`
// (form, explode=false) is two items. Re-encoded from its decoded text it went out as `ids=1%2C2`, one item "1,2":
// the server no longer failed, and the replay said "no longer fails" of a failure that still reproduces.
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
  /items:
    get:
      operationId: listItems
      parameters:
        - { name: limit, in: query, schema: { type: integer } }
        - { name: ids, in: query, required: true, style: form, explode: false, schema: { type: array, items: { type: integer } } }
        - { name: filter, in: query, style: deepObject, schema: { type: object, properties: { a: { type: string } } } }
      responses: { "200": { description: the items } }
`;

let project: string;
let server: http.Server;
let baseUrl: string;
const seen: string[] = [];

beforeAll(async () => {
  project = await mkdtemp(path.join(os.tmpdir(), 'contracts-replay-styled-'));
  await writeFile(path.join(project, 'items.yaml'), spec);
  await writeFile(path.join(project, 'contracts.config.yaml'), 'apis:\n  - name: items\n    spec: items.yaml\n');
  // The bug: two ids at once answer 500; the server splits the raw value at its `,` as the style says.
  server = http.createServer((req, res) => {
    seen.push(req.url ?? '');
    const ids = new URL(req.url ?? '/', 'http://x').search.match(/[?&]ids=([^&]*)/)?.[1] ?? '';
    if (ids.split(',').length > 1) res.writeHead(500).end();
    else res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const failure = {
    id: 'list0001',
    api: 'items',
    operation: 'listItems',
    check: 'not_a_server_error',
    status: 500,
    message: 'status 500',
    phase: 'examples',
    note: 'two ids',
    curl: 'curl …',
    seed: 1,
    request: { method: 'GET', url: `${baseUrl}/items?limit=3&ids=1,2&filter[a]=x%20y`, headers: [] },
  };
  await writeFile(path.join(project, 'run.json'), JSON.stringify({ seed: 1, results: [], failures: [failure] }));
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

describe('contracts fuzz --replay of a styled query', () => {
  it('re-sends the saved query text byte for byte, and the failure still reproduces', async () => {
    const result = await runMain(['fuzz', '--api', 'items', '--replay', 'run.json', '--base-url', baseUrl], project);
    expect({ seen, code: result.code }).toEqual({ seen: ['/items?limit=3&ids=1,2&filter[a]=x%20y'], code: 1 });
    expect(result.output).toMatch(/\[list0001\] not_a_server_error · listItems: still fails \(answered 500\)/);
  });
});
