// ignored_auth as a user meets it, on services of our own (not the sandbox). A keyless request for an id that does
// not exist proves nothing (404 either way): a DELETE that ignored its key passed, and a keyless DELETE on a real id
// deleted a real item. Now the probes go to ids the run created (or, for a GET, saw), for every kind of security
// scheme, and nothing the run did not create is changed.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runMain } from '../helpers/run-main.js';
import { root } from '../helpers/paths.js';

interface Report {
  results: { operation: string; check: string; status: string }[];
  failures: {
    check: string;
    operation: string;
    message: string;
    request: { url: string; headers: [string, string][] };
  }[];
}

async function fuzz(project: string, baseUrl: string, env: Record<string, string>, extra: string[] = []) {
  const report = path.join(project, 'report.json');
  const args = ['fuzz', '--api', 'svc', '--base-url', baseUrl, '--seed', '1', '--max-examples', '5'];
  const { code, output } = await runMain([...args, ...extra, '--report', `json:${report}`], project, env);
  const json = JSON.parse(await readFile(report, 'utf8')) as Report;
  return { code, output, report: json };
}

const statusOf = (report: Report, operation: string, check: string) =>
  report.results.find((r) => r.operation === operation && r.check === check)?.status;

// ---- The README's inventory service, as a real process ----

const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
});

async function startInventory(bug?: string): Promise<string> {
  const args = [path.join(root, 'examples/inventory/server.mjs'), '--port', '0', ...(bug ? ['--bug', bug] : [])];
  const child = spawn(process.execPath, args, { env: { ...process.env, INVENTORY_KEY: 'inv-key-77e1' } });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const url = /http:\/\/127\.0\.0\.1:\d+/.exec(out)?.[0];
      if (url) resolve(url);
    });
    child.on('exit', (code) => reject(new Error(`the inventory service exited ${code}: ${out}`)));
  });
}

async function inventoryProject(): Promise<string> {
  const project = await mkdtemp(path.join(os.tmpdir(), 'contracts-ignored-auth-'));
  await writeFile(
    path.join(project, 'openapi.yaml'),
    await readFile(path.join(root, 'examples/inventory/openapi.yaml')),
  );
  await writeFile(
    path.join(project, 'contracts.config.yaml'),
    'apis:\n  - name: svc\n    spec: openapi.yaml\n    credentials:\n      - { env: CONTRACTS_SVC_KEY, securityScheme: key }\n',
  );
  return project;
}

async function createItem(baseUrl: string): Promise<number> {
  const response = await fetch(`${baseUrl}/items`, {
    method: 'POST',
    headers: { 'x-inventory-key': 'inv-key-77e1', 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'not the run’s', quantity: 3 }),
  });
  return ((await response.json()) as { id: number }).id;
}

describe('ignored_auth on the inventory service', () => {
  it('finds a DELETE that ignores the key, on an item the run created, and leaves the others alone', async () => {
    const baseUrl = await startInventory('keyless-delete');
    const theirs = await createItem(baseUrl);
    // The negative phase alone: the positive phases' valid DELETEs on made-up ids may delete any item (fuzzing a
    // DELETE does that; --read-only does not), so only what ignored_auth sends decides whether theirs survives.
    const result = await fuzz(await inventoryProject(), baseUrl, { CONTRACTS_SVC_KEY: 'inv-key-77e1' }, [
      '--phases',
      'negative',
    ]);
    const failure = result.report.failures.find((f) => f.check === 'ignored_auth');
    expect(failure, result.output).toMatchObject({ operation: 'deleteItem' });
    expect(failure!.message).toMatch(
      /answered 204 to a request without X-Inventory-Key on itemId \d+, which the run created/,
    );
    expect(failure!.request.headers.map(([name]) => name.toLowerCase())).not.toContain('x-inventory-key');
    expect(result.code).toBe(1);
    const still = await fetch(`${baseUrl}/items/${theirs}`, { headers: { 'x-inventory-key': 'inv-key-77e1' } });
    expect(still.status, 'an item the run did not create was deleted').toBe(200);
    expect(result.output).not.toContain('inv-key-77e1');
  }, 90_000);

  // The saved keyless DELETE named an item of the old run: the replay makes its own (with the key), sends the DELETE
  // without it, and deletes what it made. Before, it said "not replayed" and counted nothing.
  it('replays the keyless DELETE on an item of its own: still failing on the buggy service, fixed on a correct one', async () => {
    const buggy = await startInventory('keyless-delete');
    const project = await inventoryProject();
    const env = { CONTRACTS_SVC_KEY: 'inv-key-77e1' };
    const found = await fuzz(project, buggy, env, ['--phases', 'negative']);
    expect(found.report.failures.map((f) => f.check)).toContain('ignored_auth');
    const report = path.join(project, 'report.json');
    const again = await runMain(['fuzz', '--replay', report, '--base-url', buggy], project, env);
    expect(again.output).toMatch(/ignored_auth · deleteItem: still fails \(answered 204\)/);
    expect(again.code).toBe(1);
    const fixed = await startInventory();
    const after = await runMain(['fuzz', '--replay', report, '--base-url', fixed], project, env);
    expect(after.output).toMatch(/ignored_auth · deleteItem: no longer fails \(answered 401\)/);
    expect(after.code, after.output).toBe(0);
    const left = await fetch(`${fixed}/items`, { headers: { 'x-inventory-key': 'inv-key-77e1' } });
    expect(await left.json(), 'the item the replay made is deleted').toEqual([]);
    expect(after.output + again.output).not.toContain('inv-key-77e1');
  }, 90_000);

  it('passes a service that checks the key, with ignored_auth exercised on every operation', async () => {
    const baseUrl = await startInventory();
    const result = await fuzz(await inventoryProject(), baseUrl, { CONTRACTS_SVC_KEY: 'inv-key-77e1' });
    expect(result.code, result.output).toBe(0);
    for (const operation of ['listItems', 'createItem', 'getItem', 'deleteItem'])
      expect(statusOf(result.report, operation, 'ignored_auth'), operation).toBe('passed');
  }, 90_000);
});

// ---- Every kind of security scheme ----

const schemes = {
  bearer: {
    scheme: '{ type: http, scheme: bearer }',
    env: 'tok-b-5531',
    accepts: (req: http.IncomingMessage) => req.headers.authorization === 'Bearer tok-b-5531',
  },
  basic: {
    scheme: '{ type: http, scheme: basic }',
    env: 'ann:pw-9c2e',
    accepts: (req: http.IncomingMessage) =>
      req.headers.authorization === `Basic ${Buffer.from('ann:pw-9c2e').toString('base64')}`,
  },
  query: {
    scheme: '{ type: apiKey, in: query, name: api_key }',
    env: 'q-41d0',
    accepts: (req: http.IncomingMessage) =>
      new URL(req.url ?? '/', 'http://x').searchParams.get('api_key') === 'q-41d0',
  },
  cookie: {
    scheme: '{ type: apiKey, in: cookie, name: session }',
    env: 'c-77aa',
    accepts: (req: http.IncomingMessage) => (req.headers.cookie ?? '').split(/;\s*/).includes('session=c-77aa'),
  },
} as const;

const thingsSpec = (scheme: string) => `openapi: 3.1.0
info: { title: things, version: "1" }
components:
  securitySchemes:
    auth: ${scheme}
security: [{ auth: [] }]
paths:
  /things:
    get:
      operationId: listThings
      responses:
        "200":
          description: the things
          content:
            application/json:
              schema: { type: array, items: { type: object, required: [id], properties: { id: { type: string, pattern: "^t[0-9]+$" } } } }
        "401": { description: no credentials }
  /things/{thingId}:
    get:
      operationId: getThing
      parameters:
        - { name: thingId, in: path, required: true, schema: { type: string, pattern: "^t[0-9]+$" } }
      responses:
        "200":
          description: the thing
          content:
            application/json:
              schema: { type: object, required: [id], properties: { id: { type: string } } }
        "400": { description: a bad id }
        "401": { description: no credentials }
        "404": { description: no such thing }
`;

/** Two things exist, with ids no generator makes up by chance; a GET of one ignores the credentials when `keyless`. */
async function thingsServer(accepts: (req: http.IncomingMessage) => boolean, keyless: boolean) {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const json = (status: number, body: unknown) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    const item = /^\/things\/([^/]+)$/.exec(url.pathname);
    if (!accepts(req) && !(keyless && item)) return json(401, { error: 'credentials' });
    if (url.pathname === '/things') return json(200, [{ id: 't4821937' }, { id: 't5930148' }]);
    if (!item) return json(404, {});
    if (!/^t[0-9]+$/.test(decodeURIComponent(item[1]!))) return json(400, {});
    return ['t4821937', 't5930148'].includes(item[1]!) ? json(200, { id: item[1] }) : json(404, {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe.each(Object.keys(schemes) as (keyof typeof schemes)[])('ignored_auth with a %s scheme', (kind) => {
  const { scheme, env, accepts } = schemes[kind];
  const project = async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), `contracts-ignored-auth-${kind}-`));
    await writeFile(path.join(dir, 'things.yaml'), thingsSpec(scheme));
    await writeFile(
      path.join(dir, 'contracts.config.yaml'),
      'apis:\n  - name: svc\n    spec: things.yaml\n    credentials:\n      - { env: CONTRACTS_SVC_AUTH, securityScheme: auth }\n',
    );
    return dir;
  };

  it('finds a GET that ignores the credentials, on an id a list answer showed', async () => {
    const { server, url } = await thingsServer(accepts, true);
    try {
      const result = await fuzz(await project(), url, { CONTRACTS_SVC_AUTH: env });
      const failure = result.report.failures.find((f) => f.check === 'ignored_auth');
      expect(failure, result.output).toMatchObject({ operation: 'getThing' });
      expect(failure!.message).toMatch(/on thingId "t(4821937|5930148)", which the run saw/);
      expect(JSON.stringify(failure!.request)).not.toMatch(/tok-b|pw-9c2e|YW5uOnB3|q-41d0|c-77aa/);
      expect(result.output).not.toMatch(/tok-b|pw-9c2e|YW5uOnB3|q-41d0|c-77aa/);
      expect(result.code).toBe(1);
    } finally {
      server.close();
    }
  }, 60_000);

  it('passes when every request needs the credentials', async () => {
    const { server, url } = await thingsServer(accepts, false);
    try {
      const result = await fuzz(await project(), url, { CONTRACTS_SVC_AUTH: env });
      expect(
        result.code,
        JSON.stringify(
          result.report.results.filter((r) => r.status !== 'passed'),
          null,
          1,
        ),
      ).toBe(0);
      expect(statusOf(result.report, 'getThing', 'ignored_auth')).toBe('passed');
      expect(statusOf(result.report, 'listThings', 'ignored_auth')).toBe('passed');
    } finally {
      server.close();
    }
  }, 60_000);
});
