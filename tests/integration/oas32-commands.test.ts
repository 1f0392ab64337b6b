// An OpenAPI 3.2 description of our own (tests/fixtures/oas32/streams-3.2.yaml: QUERY, an additional COPY
// operation, a querystring parameter, a JSON Lines answer, server-sent events) through every command, each a real
// process: lint, validate, fuzz against a stand-in that keeps the description, sandbox, diff and generate.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import type http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOas32StandIn } from '../helpers/oas32-stand-in.js';
import { root } from '../helpers/paths.js';
import { runCli } from '../helpers/run-cli.js';
import { spawnServer, type ServerProcess } from '../helpers/spawn-server.js';

const spec = 'tests/fixtures/oas32/streams-3.2.yaml';
let standIn: http.Server;
let baseUrl: string;
let scratch: string;
const children: ServerProcess[] = [];

beforeAll(async () => {
  ({ server: standIn, baseUrl } = await startOas32StandIn());
  scratch = await mkdtemp(path.join(os.tmpdir(), 'oas32-'));
});
afterAll(async () => {
  for (const child of children) child.kill();
  await rm(scratch, { recursive: true, force: true });
  await new Promise((resolve) => standIn.close(resolve));
});

async function validate(args: string[], body: string) {
  const file = path.join(scratch, `body-${Math.random().toString(36).slice(2)}`);
  await writeFile(file, body);
  return runCli(['validate', '--spec', spec, ...args, '--body', file]);
}

describe('an OpenAPI 3.2 description (real processes)', () => {
  it('lints with no error', async () => {
    const result = await runCli(['lint', spec]);
    expect(result.stderr).toMatch(/1 spec linted: 0 errors/);
    expect(result.code).toBe(0);
  });

  it.each([
    ['QUERY', '/items', '200', '[{"id":1,"name":"one"}]', '✓ conforms (queryItems: 4 checks)', 0],
    ['COPY', '/items/1', '201', '{"id":3,"name":"one"}', '✓ conforms (copyItem: 4 checks)', 0],
    ['COPY', '/items/1', '201', '[]', '✗ response_schema_conformance: body must be object', 1],
  ])('validates a %s %s answer against its operation', async (method, concrete, status, body, line, code) => {
    const result = await validate(
      ['--method', method, '--path', concrete, '--status', status, '--header', 'content-type: application/json'],
      body,
    );
    expect(result.stdout.trim()).toBe(line);
    expect(result.code).toBe(code);
  });

  it('validates a JSON Lines answer item by item, naming the bad item', async () => {
    const result = await validate(
      ['--operation', 'exportItems', '--status', '200', '--header', 'content-type: application/jsonl'],
      '{"id":1,"name":"one"}\n{"id":0,"name":"two"}\n{"id":3,"name":"three"}\n',
    );
    expect(result.stdout.trim()).toBe('✗ response_schema_conformance: item 1 (line 2): /id must be >= 1');
    expect(result.code).toBe(1);
  });

  it('validates server-sent events one by one, naming the bad event and its data', async () => {
    const result = await validate(
      [
        '--operation',
        'watchItems',
        '--status',
        '200',
        '--header',
        'content-type: text/event-stream',
        '--format',
        'json',
      ],
      ': hello\n\nevent: created\ndata: {"id":1,"name":"one"}\n\nevent: created\ndata: {"id":"two","name":"b"}\n\n',
    );
    const findings = JSON.parse(result.stdout).findings;
    expect(findings).toEqual([
      {
        check: 'response_schema_conformance',
        severity: 'error',
        operation: 'watchItems',
        instancePath: '/1/data/id',
        schemaPath: '/properties/id/type',
        message: 'event 1 (line 6, data "{\\"id\\":\\"two\\",\\"name\\":\\"b\\"}"): /data/id must be integer',
      },
    ]);
    expect(result.code).toBe(1);
  });

  it('fuzzes a stand-in that keeps the description, QUERY bodies and the querystring included, finding nothing', async () => {
    const result = await runCli(
      ['fuzz', '--spec', path.join(root, spec), '--base-url', baseUrl, '--max-examples', '10', '--seed', '1'],
      { cwd: scratch },
    );
    const report = result.stdout + result.stderr;
    for (const operation of ['queryItems', 'copyItem', 'searchItems'])
      expect(report).toMatch(new RegExp(`✓ ${operation} +\\d+ passed`));
    expect(report).toMatch(/\d+ passed, 0 failed/);
    expect(result.code, report).toBe(0);
  }, 240_000);

  it('serves QUERY and COPY from the sandbox', async () => {
    const port = await spawnServer(['sandbox', '--spec', spec, '--port', '0'], /statefully at (http:\S+)/, children);
    const query = await fetch(`http://127.0.0.1:${port}/items`, {
      method: 'QUERY',
      headers: { 'content-type': 'application/json' },
      body: '{"name":"a"}',
    });
    expect(query.status).toBe(200);
    expect(Array.isArray(await query.json())).toBe(true);
    const copy = await fetch(`http://127.0.0.1:${port}/items/1`, { method: 'COPY' });
    expect([201, 404]).toContain(copy.status);
    // RFC 9110 section 15.5.6: a 405's Allow lists every method the path has, additionalOperations' included.
    const refused = await fetch(`http://127.0.0.1:${port}/items/1`, { method: 'DELETE' });
    expect([refused.status, refused.headers.get('allow')]).toEqual([405, 'COPY, GET']);
  }, 60_000);

  it.each([
    ['exportItems', '/items.jsonl', 'application/jsonl'],
    ['watchItems', '/events', 'text/event-stream'],
  ])(
    'serves %s from the sandbox as a stream that contracts validate accepts',
    async (operation, route, type) => {
      const port = await spawnServer(['sandbox', '--spec', spec, '--port', '0'], /statefully at (http:\S+)/, children);
      const answer = await fetch(`http://127.0.0.1:${port}${route}`);
      const body = await answer.text();
      expect([answer.status, answer.headers.get('content-type')]).toEqual([200, type]);
      const args = ['--operation', operation, '--status', '200', '--header', `content-type: ${type}`];
      const result = await validate(args, body);
      expect([result.stdout.trim(), result.code]).toEqual([`✓ conforms (${operation}: 4 checks)`, 0]);
    },
    60_000,
  );

  it('diffs a QUERY operation removed as breaking', async () => {
    const text = await readFile(path.join(root, spec), 'utf8');
    const start = text.indexOf('    query:\n');
    const head = path.join(scratch, 'head.yaml');
    await writeFile(head, text.slice(0, start) + text.slice(text.indexOf('  /items/{id}:')));
    const result = await runCli(['diff', spec, head]);
    expect(result.stdout).toBe(`${spec}:63:5 error operation-removed QUERY /items removed\n`);
    expect(result.stderr).toMatch(/1 change: 1 breaking \(error\)/);
    expect(result.code).toBe(1);
  });

  it('diffs an itemSchema as a body: an event type added is said for each item of the stream', async () => {
    const text = await readFile(path.join(root, spec), 'utf8');
    const head = path.join(scratch, 'head-items.yaml');
    await writeFile(head, text.replace('enum: [created, deleted]', 'enum: [created, deleted, moved]'));
    const result = await runCli(['diff', spec, head]);
    expect(result.stdout.replace(/^.*?:\d+:\d+ /, '')).toBe(
      'warning response-enum-value-added response body /event: may now be "moved" [GET /events → 200 (text/event-stream) each item]\n',
    );
    expect(result.code).toBe(0);
  });

  it('generates types from the 3.1 view of the description', async () => {
    const result = await runCli(['generate', '--spec', path.join(root, spec)], { cwd: scratch });
    expect(result.code, result.stderr).toBe(0);
    const types = await readFile(path.join(scratch, 'generated/streams-3-2.ts'), 'utf8');
    expect(types).toMatch(/"\/items\.jsonl": \{/);
  }, 60_000);
});
