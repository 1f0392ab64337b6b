// `contracts fuzz --replay` of a hostile or stale report changes only what the replay itself created: a saved hook id
// is bound afresh whatever its form (a server that reads `+1` as hook 1 must not lose someone else's hook 1), and a
// changing request that names a resource the replay did not create is not sent.
import http from 'node:http';
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/plugins/example-sandbox.js';
import { onLoopback } from '../helpers/loopback.js';
import { fixture } from '../helpers/paths.js';
import { runCli } from '../helpers/run-cli.js';

const env = { WEBHOOKS_TOKEN: 'replay-token-5be1c9', CLIENT_SESSION_API_KEY: 'replay-key-0a7d33' };
let dir: string;
let sandbox: Sandbox;
const closers: (() => Promise<void>)[] = [];

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'contracts-replay-'));
  sandbox = await startSandbox({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  for (const close of closers) await close();
  await sandbox?.stop();
  await rm(dir, { recursive: true, force: true });
});

/** A front for `backend` that reads hook ids leniently, as many servers do: `+1`, `01` and `1.0` are hook 1. */
async function lenientFront(backend: string): Promise<{ url: string; seen: string[] }> {
  const seen: string[] = [];
  const server = http.createServer(async (incoming, outgoing) => {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const url = new URL(incoming.url ?? '/', 'http://front.invalid');
    const pathname = url.pathname.replace(/(\/hooks\/)([^/]+)/, (whole, prefix: string, id: string) => {
      const number = Number(decodeURIComponent(id));
      return Number.isInteger(number) ? `${prefix}${number}` : whole;
    });
    seen.push(`${incoming.method} ${pathname}`);
    const headers = Object.entries(incoming.headers).filter(
      ([name]) => !['host', 'connection', 'content-length'].includes(name),
    ) as [string, string][];
    const answer = await fetch(backend + pathname + url.search, {
      method: incoming.method ?? 'GET',
      headers,
      ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}),
    });
    const body = Buffer.from(await answer.arrayBuffer());
    const type = answer.headers.get('content-type');
    outgoing.writeHead(answer.status, type ? { 'content-type': type } : {});
    outgoing.end(body);
  });
  const front = await onLoopback(server);
  closers.push(front.close);
  return { url: front.url, seen };
}

const failure = (id: string, operation: string, method: string, url: string, body?: unknown) => ({
  id,
  api: operation.includes('Pet') ? 'petstore' : 'repository-webhooks',
  operation,
  check: 'not_a_server_error',
  status: 500,
  message: 'status 500',
  phase: 'examples',
  note: 'the smallest valid request',
  curl: 'curl …',
  seed: 1,
  request: {
    method,
    url,
    headers: [['Authorization', 'Bearer [REDACTED]']],
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  },
});

async function savedReport(name: string, failures: unknown[]): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, JSON.stringify({ seed: 1, results: [], failures }));
  return file;
}

describe('contracts fuzz --replay (real process, real server)', () => {
  it("binds a saved hook id afresh whatever its form: someone else's hook 1 survives a saved DELETE of hook +1", async () => {
    const hooks = `${sandbox.url}/repos/octo/app/hooks`;
    const theirs = await fetch(hooks, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer theirs' },
      body: JSON.stringify({ name: 'web', config: { url: 'https://hooks.example.com/someone-else' } }),
    });
    const { id } = (await theirs.json()) as { id: number };
    expect(id).toBe(1);
    const front = await lenientFront(sandbox.url);
    const file = await savedReport('lenient.json', [
      failure('del00001', 'deleteWebhook', 'DELETE', 'http://127.0.0.1:1/repos/octo/app/hooks/+1'),
      failure('get00001', 'getWebhook', 'GET', 'http://127.0.0.1:1/repos/octo/app/hooks/01'),
    ]);
    const result = await runCli(['fuzz', '--replay', file, '--base-url', front.url, '--rate', '0'], { env });
    expect(result.stderr).not.toContain('internal error');
    expect(result.stdout).toMatch(
      /^\[del00001\] not_a_server_error · deleteWebhook: no longer fails \(answered 204\)$/m,
    );
    expect((await fetch(`${hooks}/1`, { headers: { authorization: 'Bearer theirs' } })).status).toBe(200);
    expect(front.seen.filter((line) => /\/hooks\/1(\/|$)/.test(line))).toEqual([]);
  }, 60_000);

  it('does not send a changing request that names a resource the replay did not create, nor a path value that is no segment, and says so in one line', async () => {
    await copyFile(fixture('specs', 'openapi-30', 'pets.yaml'), path.join(dir, 'pets.yaml'));
    const config = path.join(dir, 'contracts.config.yaml');
    await writeFile(config, 'apis:\n  - name: petstore\n    spec: pets.yaml\n');
    const seen: string[] = [];
    const target = await onLoopback(
      http.createServer((request, response) => {
        seen.push(`${request.method} ${request.url}`);
        request.resume();
        response.writeHead(404).end();
      }),
    );
    closers.push(target.close);
    const pet = { petType: 'cat', name: 'a', weight: 1 };
    const file = await savedReport('pets.json', [
      failure('put00007', 'putPet', 'PUT', 'http://127.0.0.1:1/pets/7', pet),
      failure('get00007', 'getPet', 'GET', 'http://127.0.0.1:1/pets/7'),
      // Read back as the id `a/../../admin`: a server that decodes %2F before it routes would climb out of /pets.
      failure('get000dd', 'getPet', 'GET', 'http://127.0.0.1:1/pets/a%2F..%2F..%2Fadmin'),
    ]);
    const result = await runCli(['fuzz', '--config', config, '--replay', file, '--base-url', target.url], { env });
    expect(result.stdout).toContain(
      '[put00007] not_a_server_error · putPet: not replayed: PUT /pets/{petId} would change a resource this replay did not create (petId): a replay changes only what it creates',
    );
    expect(result.stdout).toContain(
      `[get000dd] not_a_server_error · getPet: not replayed: getPet's petId is "a/../../admin": not sent as a path segment (a dot segment)`,
    );
    expect(seen).toEqual(['GET /pets/7']);
  }, 60_000);
});
