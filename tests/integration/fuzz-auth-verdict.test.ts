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
