// A failure's reproduction script (src/fuzz/repro-script.ts), run in bash against a small target that records what
// it is sent: the hook is created first and its id read from the answer, the failing request is sent with it, the
// check is judged again (exit 1 / 0), the hook is deleted at exit, and an id a target answers that is no path segment
// stops the script (exit 2) before any request carries it.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSpec } from '../../src/core/load-spec.js';
import { indexOperations, type OperationSpec } from '../../src/core/operation-index.js';
import { reproScript, type ScriptInput } from '../../src/fuzz/repro-script.js';
import { specFile } from '../helpers/paths.js';

const token = 'repro-test-token-7781';
const base = 'http://127.0.0.1:1';
let operations: OperationSpec[];
let dir: string;

beforeAll(async () => {
  operations = indexOperations((await loadSpec(specFile('repository-webhooks'))).document);
  dir = await mkdtemp(path.join(tmpdir(), 'contracts-repro-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** A failure: a hook created (id 5 in the run), then its GET answered 500. */
function input(status = 500): ScriptInput {
  const auth: [string, string] = ['Authorization', `Bearer ${token}`];
  return {
    api: 'repository-webhooks',
    failure: { id: 'abcd1234', check: 'not_a_server_error', operation: 'getWebhook', status, seed: 1, message: 'm' },
    finding: {
      check: 'not_a_server_error',
      severity: 'error',
      operation: 'getWebhook',
      instancePath: '',
      message: 'm',
    },
    trail: [
      {
        request: {
          method: 'POST',
          url: `${base}/repos/o/r/hooks`,
          headers: [['content-type', 'application/json'], auth],
          body: '{"name":"web","config":{"url":"http://127.0.0.1:9/h?contracts-fuzz=0badcafe-1","secret":"fuzz-secret-0badcafe-1"}}',
        },
        status: 201,
        json: { id: 5 },
      },
    ],
    last: { request: { method: 'GET', url: `${base}/repos/o/r/hooks/5`, headers: [auth] }, status, json: undefined },
    operations,
    baseUrl: base,
    credentials: [{ env: 'WEBHOOKS_TOKEN', in: 'header', name: 'Authorization', prefix: 'Bearer ' }],
  };
}

/** A target that makes hook `id` on POST and answers a GET of it with `getStatus`; every request it got. */
async function target(id: unknown, getStatus: number) {
  const seen: string[] = [];
  const server = http.createServer((request, response) => {
    seen.push(`${request.method} ${request.url} ${request.headers.authorization ?? ''}`);
    if (request.method === 'POST') {
      response.writeHead(201, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ id }));
    } else if (request.method === 'GET') {
      response.writeHead(getStatus, { 'content-type': 'application/json' });
      response.end('{}');
    } else {
      response.writeHead(204);
      response.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, close: () => server.close() };
}

async function runScript(script: string, url: string) {
  const file = path.join(dir, `${Math.random().toString(36).slice(2)}.sh`);
  await writeFile(file, script);
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = execFile(
      'bash',
      [file],
      { env: { PATH: process.env.PATH, BASE_URL: url, WEBHOOKS_TOKEN: token }, timeout: 30_000 },
      (_error, stdout, stderr) => resolve({ code: child.exitCode, stdout: String(stdout), stderr: String(stderr) }),
    );
  });
}

describe('a reproduction script', () => {
  it('holds no credential nor made-up secret, only references to variables', () => {
    const script = reproScript(input());
    expect(script).not.toContain(token);
    expect(script).not.toContain('fuzz-secret-');
    expect(script).not.toContain('0badcafe');
    expect(script).toContain(`'Authorization: Bearer '"$WEBHOOKS_TOKEN"`);
    expect(script).toContain('"$SECRET_1"');
  });

  it.each([
    [500, 1, /^reproduced: not_a_server_error · getWebhook: step 2 answered 500/m],
    [200, 0, /^not reproduced: step 2 answered 200 \(the run got 500/m],
  ])('creates the hook, sends the failing request with its id: answered %i, exit %i', async (answered, code, said) => {
    const server = await target(42, answered);
    try {
      const result = await runScript(reproScript(input()), server.url);
      expect(result.code, result.stderr).toBe(code);
      expect(result.stdout).toMatch(said);
      expect(server.seen).toEqual([
        `POST /repos/o/r/hooks Bearer ${token}`,
        `GET /repos/o/r/hooks/42 Bearer ${token}`,
        `DELETE /repos/o/r/hooks/42 Bearer ${token}`,
      ]);
    } finally {
      server.close();
    }
  });

  it.each([['../../../other'], ['a/b'], [{ id: 1 }], ['.hidden'], ['']])(
    'stops with exit 2 when the target answers the id %j, sending nothing with it',
    async (id) => {
      const server = await target(id, 500);
      try {
        const result = await runScript(reproScript(input()), server.url);
        expect(result.code).toBe(2);
        expect(result.stderr).toMatch(/step 1: no id at \/id in the answer \(201\): the sequence cannot go on/);
        expect(server.seen).toEqual([`POST /repos/o/r/hooks Bearer ${token}`]);
      } finally {
        server.close();
      }
    },
  );
});
