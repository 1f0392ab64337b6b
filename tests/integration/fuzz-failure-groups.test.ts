// `contracts fuzz` groups failures by cause: a real local server answers 500 to any string holding a NUL, in any of
// several fields of several operations (one root cause, as a NUL reaching PostgreSQL), and has two more bugs (a 500
// on a non-ASCII id, a create that accepts values of any type). The report has one group per operation, check,
// status and value kind, never one per field; each with its count and a complete reproduction that runs.
import { execFile } from 'node:child_process';
import { chmod, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

const spec = `openapi: 3.1.0
info: { title: items, version: "1" }
paths:
  /items:
    get:
      operationId: listItems
      parameters:
        - { name: q, in: query, schema: { type: string, maxLength: 50 } }
        - { name: tag, in: query, schema: { type: string, maxLength: 50 } }
      responses:
        "200": { description: ok, content: { application/json: { schema: { type: array, items: { type: object } } } } }
    post:
      operationId: createItem
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [name]
              properties:
                name: { type: string, maxLength: 50 }
                label: { type: string, maxLength: 50 }
      responses:
        "201": { description: made, content: { application/json: { schema: { $ref: "#/components/schemas/Item" } } } }
        "400": { description: refused }
  /items/{itemId}:
    get:
      operationId: getItem
      parameters:
        - { name: itemId, in: path, required: true, schema: { type: string, maxLength: 50 } }
        - { name: fields, in: query, schema: { type: string, maxLength: 50 } }
      responses:
        "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/Item" } } } }
components:
  schemas:
    Item:
      type: object
      required: [id]
      properties: { id: { type: integer } }
`;

/** Every string in a JSON value, nested ones included. */
function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(strings);
  return [];
}

function answer(method: string, url: URL, body: string): [number, unknown] {
  let parsed: unknown;
  try {
    parsed = body === '' ? undefined : JSON.parse(body);
  } catch {
    return [400, { error: 'not JSON' }];
  }
  const segments = url.pathname.split('/').slice(1).map(decodeURIComponent);
  const texts = [...segments, ...url.searchParams.values(), ...strings(parsed)];
  // The planted root cause: a NUL anywhere reaches the database, which refuses it.
  if (texts.some((text) => text.includes('\u0000'))) return [500, { error: 'invalid byte sequence' }];
  if (segments.length === 2) {
    // The second bug: an id outside ASCII breaks the lookup.
    if (/[^\u0000-\u007f]/.test(segments[1]!)) return [500, { error: 'lookup failed' }];
    return [200, { id: 1 }];
  }
  // The third: a create that accepts anything (no type nor length check).
  return method === 'POST' ? [201, { id: 1 }] : [200, []];
}

interface Failure {
  id: string;
  operation: string;
  check: string;
  status: number;
  kind: string;
  count: number;
  curl: string;
  script: string;
}

let project: string;
let server: http.Server;
let baseUrl: string;
let run: { code: number | null; stdout: string; stderr: string };
let report: { failureGrouping: string; failures: Failure[] };

beforeAll(async () => {
  project = await mkdtemp(path.join(os.tmpdir(), 'contracts-groups-'));
  await writeFile(path.join(project, 'items.yaml'), spec);
  await writeFile(path.join(project, 'contracts.config.yaml'), 'apis:\n  - name: items\n    spec: items.yaml\n');
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const [status, json] = answer(req.method ?? 'GET', new URL(req.url ?? '/', 'http://x'), body);
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(json));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const file = path.join(project, 'report.json');
  run = await runCli(
    ['fuzz', '--api', 'items', '--base-url', baseUrl, '--seed', '7', '--rate', '0', '--report', `json:${file}`],
    { cwd: project },
  );
  report = JSON.parse(await readFile(file, 'utf8')) as typeof report;
}, 240_000);

afterAll(() => new Promise((resolve) => server.close(resolve)));

const groupOf = (failure: Failure) => [failure.operation, failure.check, failure.status, failure.kind].join(' · ');

describe('contracts fuzz on a server with one root cause met through many fields', () => {
  it('reports one server-error group per operation and value kind that triggers it, counting occurrences', () => {
    expect(run.code, run.stderr).toBe(1);
    const serverErrors = report.failures
      .filter((failure) => failure.check === 'not_a_server_error')
      .map((failure) => [failure.operation, failure.status, failure.kind]);
    expect(serverErrors.sort()).toEqual(
      [
        ['createItem', 500, 'string with NUL'],
        ['getItem', 500, 'non-ASCII string'],
        ['getItem', 500, 'string with NUL'],
        ['listItems', 500, 'string with NUL'],
      ].sort(),
    );
    for (const failure of report.failures.filter((candidate) => candidate.check === 'not_a_server_error'))
      expect(failure.count, groupOf(failure)).toBeGreaterThan(1);
  });

  it('never splits a group by field or message: each operation, check, status and kind is one failure', () => {
    const groups = report.failures.map(groupOf);
    expect(groups).toEqual([...new Set(groups)]);
    // The create that accepts a number for either string field: one cause, one group, counted for both fields.
    const wrongType = report.failures.filter(
      (failure) =>
        failure.operation === 'createItem' &&
        failure.check === 'negative_data_rejection' &&
        failure.kind === 'invalid: wrong type (number for string)',
    );
    expect(wrongType).toHaveLength(1);
    expect(wrongType[0]!.count).toBeGreaterThan(1);
  });

  it('says how failures were grouped, in the text and in the JSON report, with each count', () => {
    expect(report.failureGrouping).toBe('grouped by operation, check, status and value kind');
    expect(run.stdout).toContain('grouped by operation, check, status and value kind');
    const nul = report.failures.find(
      (failure) => groupOf(failure) === 'listItems · not_a_server_error · 500 · string with NUL',
    )!;
    expect(run.stdout).toContain(
      `[${nul.id}] not_a_server_error · listItems · 500 · string with NUL · ${nul.count} occurrences`,
    );
  });

  it('keeps a curl line and a script for every group, and the script reproduces it', async () => {
    for (const failure of report.failures) {
      expect(failure.curl, groupOf(failure)).toMatch(/^curl /);
      expect(failure.script, groupOf(failure)).toMatch(/^#!\/usr\/bin\/env bash\n/);
    }
    const nul = report.failures.find(
      (failure) => groupOf(failure) === 'getItem · not_a_server_error · 500 · string with NUL',
    )!;
    const script = path.join(project, 'nul.sh');
    await writeFile(script, nul.script);
    await chmod(script, 0o755);
    const result = await promisify(execFile)('bash', [script], {
      env: { PATH: process.env.PATH, BASE_URL: baseUrl },
    }).then(
      () => ({ code: 0 }),
      (error: { code: number }) => ({ code: error.code }),
    );
    expect(result.code).toBe(1);
  });
});
