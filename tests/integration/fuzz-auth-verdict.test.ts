// Auth is part of the verdict, on a small service of our own (not the sandbox): with no credential configured, or a
// wrong one, every request got 401 and fuzz printed "passed", exit 0. An operation whose every valid request was
// refused has not been exercised: the run fails and says which variable to set or check. With the right key, the
// same service passes.
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMain } from '../helpers/run-main.js';

const spec = `openapi: 3.1.0
info: { title: inventory, version: "1" }
components:
  securitySchemes:
    key: { type: apiKey, in: header, name: X-Inventory-Key }
security: [{ key: [] }]
paths:
  /items:
    get:
      operationId: listItems
      parameters:
        - { name: limit, in: query, schema: { type: integer, minimum: 1, maximum: 50 } }
      responses:
        "200":
          description: the items
          content:
            application/json:
              schema: { type: array, items: { type: object, required: [id], properties: { id: { type: integer } } } }
        "400": { description: a bad limit }
        "401": { description: no or wrong key }
`;

let project: string;
let server: http.Server;
let baseUrl: string;

beforeAll(async () => {
  project = await mkdtemp(path.join(os.tmpdir(), 'contracts-auth-verdict-'));
  await writeFile(path.join(project, 'inventory.yaml'), spec);
  server = http.createServer((req, res) => {
    if (req.headers['x-inventory-key'] !== 'right-key') return void res.writeHead(401).end();
    const limit = new URL(req.url ?? '/', 'http://x').searchParams.get('limit');
    if (limit !== null && !/^(?:[1-9]|[1-4]\d|50)$/.test(limit)) return void res.writeHead(400).end();
    res.writeHead(200, { 'content-type': 'application/json' }).end('[{"id":1}]');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

async function fuzz(config: string, env: Record<string, string> = {}, extra: string[] = []) {
  await writeFile(path.join(project, 'contracts.config.yaml'), config);
  const args = ['fuzz', '--api', 'inventory', '--base-url', baseUrl, '--max-examples', '5', '--seed', '1', ...extra];
  return runMain(args, project, env);
}

const withCredential =
  'apis:\n  - name: inventory\n    spec: inventory.yaml\n    credentials:\n      - { env: CONTRACTS_INVENTORY_KEY, securityScheme: key }\n';

describe('contracts fuzz when the target refuses every request', () => {
  it('fails with no credential configured, saying how to give one', async () => {
    const result = await fuzz('apis:\n  - name: inventory\n    spec: inventory.yaml\n');
    expect(result.output).toMatch(
      /positive_data_acceptance: every valid request \(\d+\) to listItems was refused \(401\): give the API credentials in contracts\.config\.yaml/,
    );
    expect(result.code).toBe(1);
  }, 60_000);

  it('fails with a wrong key, naming the variable and never its value', async () => {
    const result = await fuzz(withCredential, { CONTRACTS_INVENTORY_KEY: 'wrong-key-5c1d' });
    expect(result.output).toMatch(/was refused \(401\): the target refused CONTRACTS_INVENTORY_KEY: check the value/);
    expect(result.output).not.toContain('wrong-key-5c1d');
    expect(result.code).toBe(1);
  }, 60_000);

  it('passes with the right key', async () => {
    const result = await fuzz(withCredential, { CONTRACTS_INVENTORY_KEY: 'right-key' });
    expect(result.output).not.toMatch(/could not be exercised/);
    expect(result.code, result.output).toBe(0);
  }, 60_000);

  it('writes --report html: for an API of the config, with the counts of its JSON report', async () => {
    const html = path.join(project, 'fuzz.html');
    const json = path.join(project, 'fuzz.json');
    const result = await fuzz(withCredential, { CONTRACTS_INVENTORY_KEY: 'right-key' }, [
      '--report',
      `html:${html}`,
      '--report',
      `json:${json}`,
    ]);
    expect(result.code, result.output).toBe(0);
    const summary = (JSON.parse(await readFile(json, 'utf8')) as { summary: Record<string, number> }).summary;
    const page = await readFile(html, 'utf8');
    expect(page).toMatch(/^<!doctype html>/i);
    expect(page).toContain('listItems');
    expect([...page.matchAll(/data-count[^>]*>(\d+)</g)].map((match) => Number(match[1]))).toEqual([
      summary.passed,
      summary.failed,
      summary.skipped,
    ]);
    expect(page).not.toContain('right-key');
  }, 60_000);
});

// A service that refuses everything with 401: the hint to set a variable is given only where the operation's security
// requirement names the scheme that variable feeds (OpenAPI 3.1 section 4.8.10); a login with `security: []` and an
// operation needing another scheme are told what the spec documents instead.
const mixedSpec = `openapi: 3.1.0
info: { title: mixed, version: "1" }
components:
  securitySchemes:
    key: { type: apiKey, in: header, name: X-Inventory-Key }
    bearer: { type: http, scheme: bearer }
security: [{ key: [] }]
paths:
  /items:
    get:
      operationId: listItems
      responses: { "200": { description: ok }, "401": { description: refused } }
  /login:
    post:
      operationId: login
      security: []
      requestBody:
        required: true
        content:
          application/json:
            schema: { type: object, required: [user, password], properties: { user: { type: string }, password: { type: string } } }
      responses: { "200": { description: ok }, "401": { description: refused } }
  /stats:
    get:
      operationId: getStats
      security: [{ bearer: [] }]
      responses: { "200": { description: ok }, "401": { description: refused } }
`;

describe('contracts fuzz when the target refuses every request, on operations of different security', () => {
  let refuser: http.Server;
  let refuserUrl: string;
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'contracts-auth-hint-'));
    await writeFile(path.join(dir, 'mixed.yaml'), mixedSpec);
    await writeFile(
      path.join(dir, 'contracts.config.yaml'),
      'apis:\n  - name: mixed\n    spec: mixed.yaml\n    credentials:\n      - { env: CONTRACTS_MIXED_KEY, securityScheme: key }\n',
    );
    refuser = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(401).end());
    });
    await new Promise<void>((resolve) => refuser.listen(0, '127.0.0.1', resolve));
    refuserUrl = `http://127.0.0.1:${(refuser.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => refuser.close(resolve)));

  it('names the variable only for the operation whose security names its scheme', async () => {
    const args = ['fuzz', '--api', 'mixed', '--base-url', refuserUrl, '--max-examples', '5', '--seed', '1'];
    const result = await runMain(args, dir, { CONTRACTS_MIXED_KEY: 'wrong-key' });
    const reasons = [...result.output.matchAll(/not exercised: (\w+) positive_data_acceptance: (.*)$/gm)]
      .map((match) => [match[1], match[2]!.replace(/\(\d+\)/, '(N)')])
      .sort();
    expect(reasons).toEqual([
      [
        'getStats',
        'every valid request (N) to getStats was refused (401): give the API credentials in contracts.config.yaml (the operation documents security: bearer; credentials: [{ env: NAME, securityScheme: bearer }])',
      ],
      [
        'listItems',
        'every valid request (N) to listItems was refused (401): the target refused CONTRACTS_MIXED_KEY: check the value (credentials in contracts.config.yaml)',
      ],
      ['login', 'every valid request (N) to login was refused (401): the operation documents no security requirement'],
    ]);
    expect(result.code).toBe(1);
  }, 60_000);
});
