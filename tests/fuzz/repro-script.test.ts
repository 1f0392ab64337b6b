// A failure's reproduction script (src/fuzz/repro-script.ts), run in bash against a small target that records what
// it is sent: the hook is created first and its id read from the answer, the failing request is sent with it, the
// check is judged again (exit 1 / 0), the hook is deleted at exit, and an id a target answers that is no path segment
// stops the script (exit 2) before any request carries it. Hostile text in any field (an operationId, a path, a
// header, a body, a message) runs nothing when the script runs, and what was sent is sent again byte for byte.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSpec } from '../../src/core/load-spec.js';
import { indexOperations, type OperationSpec } from '../../src/core/operation-index.js';
import { curlLine } from '../../src/fuzz/curl-line.js';
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
    // The webhooks plug-in's (FuzzPlugin.scriptIds): the hook and delivery ids are bound from earlier answers.
    ids: new Set(['hook_id', 'delivery_id']),
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

/** A target that makes hook `id` on POST and answers a GET or PATCH of it with `getStatus`; what it got. */
async function target(id: unknown, getStatus: number, getBody = '{}') {
  const seen: string[] = [];
  const bodies: string[] = [];
  const server = http.createServer((request, response) => {
    seen.push(`${request.method} ${request.url} ${request.headers.authorization ?? ''}`);
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    // Answered once the body is read, so that it is recorded before the client is done.
    request.on('end', () => {
      bodies.push(body);
      if (request.method === 'POST') {
        response.writeHead(201, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ id }));
      } else if (request.method === 'GET' || request.method === 'PATCH') {
        response.writeHead(getStatus, { 'content-type': 'application/json' });
        response.end(getBody);
      } else {
        response.writeHead(204);
        response.end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    bodies,
    close: () => server.close(),
  };
}

async function runScript(script: string, url: string, env: NodeJS.ProcessEnv = {}) {
  const file = path.join(dir, `${Math.random().toString(36).slice(2)}.sh`);
  await writeFile(file, script);
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = execFile(
      'bash',
      [file],
      { env: { PATH: process.env.PATH, BASE_URL: url, WEBHOOKS_TOKEN: token, ...env }, timeout: 30_000 },
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

  it('says what it deletes at exit only when it made something to delete', () => {
    const single = { ...input(), trail: [] };
    expect(reproScript(input())).toContain('# At exit: what the script made is deleted, its answers removed.');
    expect(reproScript(single)).toContain('# At exit: its answers are removed.');
    expect(reproScript(single)).not.toMatch(/hooks? the script made|deleted/);
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

/** Text that runs `touch MARKERS/<name>-<n>` if a shell ever reads it as anything but data. */
function hostile(markers: string, name: string): string {
  const touch = (n: number) => `touch ${markers}/${name}-${n}`;
  return [
    `\n${touch(1)}\n`,
    `\r\n${touch(2)} #`,
    `$(${touch(3)})`,
    `\`${touch(4)}\``,
    `'; ${touch(5)}; '`,
    `"; ${touch(6)}; "`,
    `\\'; ${touch(7)} #`,
    `; ${touch(8)}`,
    `__cr0_HOOK_0__ __SECRET_1__ $'\\x0a${touch(9)}'`,
  ].join(' ');
}

/** The failure of input(), every field a spec, a config or a target supplies made hostile. */
function hostileInput(markers: string, check: string): { input: ScriptInput; body: string } {
  const at = (name: string) => hostile(markers, name);
  const plain = input();
  const operationId = at('operationId');
  const body = JSON.stringify({ note: at('body') });
  const owner = encodeURIComponent(at('path')).replace(/%24|%28|%29|%60|%27|%3B/g, decodeURIComponent);
  const url = (tail: string) => `${base}/repos/${owner}/r/hooks${tail}`;
  return {
    body,
    input: {
      ...plain,
      api: at('api'),
      failure: { ...plain.failure, check: at('check'), operation: operationId, message: at('message') },
      finding: {
        check: check as ScriptInput['finding']['check'],
        severity: 'error',
        operation: operationId,
        instancePath: `/${at('instancePath').replace(/~/g, '~0').replace(/\//g, '~1')}`,
        message: at('message'),
        actual: at('actual'),
      },
      trail: [{ ...plain.trail[0]!, request: { ...plain.trail[0]!.request, url: url('') } }],
      last: {
        request: {
          method: 'PATCH',
          url: `${url('/5')}?note=${at('query')}&q=1`,
          headers: [
            ['Authorization', `Bearer ${token}`],
            // A header cannot hold a line break (Node refuses to send one): the rest of the payloads it can.
            ['X-Note', at('header').replace(/[\r\n]/g, '')],
            ['Cookie', `a=${at('cookie').replace(/[\r\n;]/g, '')}; b=2`],
          ],
          body,
        },
        status: 500,
        json: undefined,
      },
      operations: operations.map((operation) => ({ ...operation, operationId })),
      varied: { name: 'note', in: 'query', value: at('varied') },
    },
  };
}

/** Runs a script with exactly these variables (and PATH): what a user who set only some of them gets. */
async function runWith(script: string, env: NodeJS.ProcessEnv) {
  const file = path.join(dir, `${Math.random().toString(36).slice(2)}.sh`);
  await writeFile(file, script);
  return new Promise<{ code: number | null; stderr: string }>((resolve) => {
    const child = execFile(
      'bash',
      [file],
      { env: { PATH: process.env.PATH, ...env }, timeout: 30_000 },
      (_e, _o, stderr) => resolve({ code: child.exitCode, stderr: String(stderr) }),
    );
  });
}

describe('a reproduction script and the variables it needs', () => {
  // Exit status: 1 reproduced, 0 not reproduced, 2 the script could not run (a needed variable unset, no target).
  const withOther = (): ScriptInput => ({
    ...input(),
    credentials: [
      ...input().credentials,
      // A credential of the config that the failing requests never send (another scheme's).
      { env: 'OTHER_API_KEY', in: 'header', name: 'X-Other-Key', prefix: '' },
    ],
  });

  it('requires only the credentials its requests send: another one unset, it still reproduces (exit 1)', async () => {
    const server = await target(42, 500);
    try {
      const result = await runWith(reproScript(withOther()), { BASE_URL: server.url, WEBHOOKS_TOKEN: token });
      expect(result.code, result.stderr).toBe(1);
      expect(reproScript(withOther())).not.toContain('OTHER_API_KEY');
    } finally {
      server.close();
    }
  });

  it.each([
    ['a credential its requests send', { BASE_URL: 'http://127.0.0.1:9' }, 'cannot run: set WEBHOOKS_TOKEN'],
    ['BASE_URL', { WEBHOOKS_TOKEN: token }, 'cannot run: set BASE_URL'],
    [
      'a reachable target',
      { BASE_URL: 'http://127.0.0.1:9', WEBHOOKS_TOKEN: token },
      'cannot run: step 1: curl failed',
    ],
  ])('exits 2, saying so in one line, without %s', async (_name, env, said) => {
    const result = await runWith(reproScript(withOther()), env);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(said);
  });
});

describe('a reproduction script of a URL with brackets', () => {
  // A deepObject query (`filter[name]=x`, OpenAPI 3.1 section 4.8.12.4) or a redacted value (`key=[REDACTED]`) is
  // text to send: curl must not read `[...]` as its URL globbing (it failed with exit 3, the script said "cannot run").
  it('sends it as written and reproduces (exit 1)', async () => {
    const given = input();
    const bracketed: ScriptInput = {
      ...given,
      last: {
        ...given.last,
        request: { ...given.last.request, url: `${given.last.request.url}&filter[name]=x&key=[REDACTED]` },
      },
    };
    const server = await target(42, 500);
    try {
      const result = await runWith(reproScript(bracketed), { BASE_URL: server.url, WEBHOOKS_TOKEN: token });
      expect(result.code, result.stderr).toBe(1);
    } finally {
      server.close();
    }
  });
});

describe('a reproduction script of a styled path parameter', () => {
  // OpenAPI 3.1 section 4.8.12.4: hook 5 is `.5` in label style, `;hook_id=5` in matrix style; the script reads the
  // id from the create's answer and writes it in the same style.
  it.each([
    ['label', '/repos/o/r/hooks/.5', 'GET /repos/o/r/hooks/.7'],
    ['matrix', '/repos/o/r/hooks/;hook_id=5', 'GET /repos/o/r/hooks/;hook_id=7'],
  ])('binds a %s segment from the answer and sends it in its style', async (style, sentPath, wanted) => {
    const given = input();
    const hookId = { name: 'hook_id', in: 'path' as const, required: true, style, explode: false };
    const styled: ScriptInput = {
      ...given,
      last: { ...given.last, request: { ...given.last.request, url: `${base}${sentPath}` } },
      models: new Map([
        ['getWebhook', { params: [{ ...hookId, schema: { type: 'integer' }, schemaPath: [], examples: [] }] }],
      ]),
    };
    const server = await target(7, 500);
    try {
      const result = await runScript(reproScript(styled), server.url);
      expect({ code: result.code, seen: server.seen }).toEqual({
        code: 1,
        seen: [
          `POST /repos/o/r/hooks Bearer ${token}`,
          `${wanted} Bearer ${token}`,
          `DELETE /repos/o/r/hooks/7 Bearer ${token}`,
        ],
      });
    } finally {
      server.close();
    }
  });
});

describe('a reproduction script built from hostile text', () => {
  it.each([
    ['a check judged by the script', 'not_a_server_error', 'a target that answers'],
    ['a check judged by contracts validate', 'response_schema_conformance', 'a target that answers'],
    ['a check judged by the script', 'not_a_server_error', 'a closed port'],
  ])('runs nothing of it (%s, %s), and sends the body as the run sent it', async (_what, check, where) => {
    const markers = path.join(dir, `markers-${check}-${where.length}`);
    await mkdir(markers);
    const { input: hostileFailure, body } = hostileInput(markers, check);
    const script = reproScript(hostileFailure);
    // The answer the finding quotes, so that the script finds the failure again and says so.
    const finding = hostileFailure.finding;
    const server = await target(
      42,
      500,
      JSON.stringify({ [finding.instancePath.slice(1).replace(/~1/g, '/').replace(/~0/g, '~')]: finding.actual }),
    );
    try {
      const url = where === 'a closed port' ? 'http://127.0.0.1:1' : server.url;
      // `contracts validate` stands in as `false`: its exit 1 says the answer fails again.
      const result = await runScript(script, url, { CONTRACTS: 'false' });
      expect(await readdir(markers), result.stderr).toEqual([]);
      // Every comment is one line: what follows a `#` never starts a line of its own.
      for (const line of script.split('\n').filter((candidate) => candidate.includes('touch ')))
        expect(line, 'a line with a payload').toMatch(/^(#|step_\d+=\(| {2}echo |echo |if | {2}\[ -n )/);
      if (where === 'a closed port') expect(result.code).toBe(2);
      else {
        expect(result.code, result.stderr).toBe(1);
        expect(server.bodies).toContain(body);
      }
    } finally {
      server.close();
    }
  });

  it('a curl line of the same request is one line, and bash runs nothing of it either', async () => {
    const markers = path.join(dir, 'markers-curl');
    await mkdir(markers);
    const { input: hostileFailure } = hostileInput(markers, 'not_a_server_error');
    // A text body holds its line breaks as they are.
    const body = hostile(markers, 'text-body');
    const server = await target(42, 500);
    try {
      const request = hostileFailure.last.request;
      const line = curlLine(
        { ...request, url: request.url.replace(base, server.url), body },
        hostileFailure.credentials,
        hostileFailure.varied,
      );
      expect(line).not.toMatch(/[\n\r]/);
      const result = await runScript(`${line} -o /dev/null`, server.url);
      expect(await readdir(markers), result.stderr).toEqual([]);
      expect(result.code, result.stderr).toBe(0);
      expect(server.bodies).toEqual([body]);
    } finally {
      server.close();
    }
  });
});
