// `contracts mock --engine own` as a user runs it: a real process serving a spec of our own, each request answered
// as the spec documents (routing, refusals, credentials, Prefer), every answer one the spec's checks accept.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { copyFile, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { root } from '../helpers/paths.js';

const fixture = path.join(root, 'tests/fixtures/mock-engine/shop.yaml');
let child: ChildProcessWithoutNullStreams;
let url: string;

beforeAll(async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'contracts-mock-engine-'));
  await copyFile(fixture, path.join(dir, 'shop.yaml'));
  await writeFile(path.join(dir, 'contracts.config.yaml'), 'apis:\n  - name: shop\n    spec: shop.yaml\n');
  child = spawn(
    process.execPath,
    [path.join(root, 'bin/contracts.js'), 'mock', '--engine', 'own', '--api', 'shop', '--port-shop', '0'],
    { cwd: dir, env: { ...process.env, SCARF_ANALYTICS: 'false' } },
  );
  url = await new Promise<string>((resolve, reject) => {
    let text = '';
    child.stdout.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const found = /http:\/\/127\.0\.0\.1:\d+/.exec(text);
      if (found && /Ctrl-C/.test(text)) resolve(found[0]);
    });
    child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`contracts mock exited (${code}): ${text}`)));
  });
}, 60_000);

afterAll(() => {
  child?.kill('SIGTERM');
});

async function ask(method: string, target: string, headers: Record<string, string> = {}, body?: unknown) {
  const response = await fetch(url + target, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    body: text === '' ? undefined : (JSON.parse(text) as unknown),
    headers: response.headers,
  };
}

const two = [
  { id: 'it_aaaaaa', name: 'first' },
  { id: 'it_bbbbbb', name: 'second' },
];

describe('contracts mock --engine own', () => {
  it('answers the first example the schema accepts, with or without the server base path', async () => {
    expect(await ask('GET', '/items')).toMatchObject({ status: 200, type: 'application/json', body: two });
    expect(await ask('GET', '/api/v2/items?limit=3')).toMatchObject({ status: 200, body: two });
  });

  it('routes a literal path before a template, and generates what the pattern allows where no example is', async () => {
    expect(await ask('GET', '/items/special')).toMatchObject({ status: 200, body: { special: true } });
    const item = await ask('GET', '/items/it_abc123');
    expect(item.status).toBe(200);
    expect((item.body as { id: string }).id).toMatch(/^it_[a-z0-9]{6}$/);
  });

  it('refuses a request the spec refuses with its documented 4xx, saying why', async () => {
    const refused = await ask('GET', '/items?limit=0');
    expect(refused.status).toBe(422);
    expect((refused.body as { message: string }).message).toMatch(/limit/);
    const undocumented = await ask('POST', '/items', { 'x-key': 'anything' }, { name: 'x', extra: 1 });
    expect(undocumented).toMatchObject({ status: 400, type: 'application/problem+json', body: { status: 400 } });
    expect((undocumented.body as { detail: string }).detail).toMatch(/extra/);
  });

  it('answers 401 to a request without the credential its security requires, whatever value is given', async () => {
    expect(await ask('POST', '/items', {}, { name: 'x' })).toMatchObject({
      status: 401,
      type: 'application/problem+json',
    });
    const created = await ask('POST', '/items', { 'x-key': 'any value passes' }, { name: 'x' });
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toMatch(/^\/items\/it_[a-z0-9]{6}$/);
  });

  it("honours Prism's Prefer header: a documented code, a named example", async () => {
    expect(await ask('GET', '/items/it_abc123', { prefer: 'code=404' })).toMatchObject({ status: 404 });
    expect(await ask('GET', '/items', { prefer: 'example=one' })).toMatchObject({
      status: 200,
      body: [{ id: 'it_cccccc', name: 'only' }],
    });
    // A named example the schema refuses is not served: the answer is mended, the first valid example first.
    expect(await ask('GET', '/items', { prefer: 'example=broken' })).toMatchObject({ status: 200, body: two });
  });

  it("answers with the mock's own 500 rather than an answer the spec refuses", async () => {
    for (const [target, prefer] of [
      ['/items', 'example=absent'],
      ['/items', 'code=418'],
      ['/impossible', ''],
    ]) {
      const answer = await ask('GET', target!, prefer ? { prefer: prefer } : {});
      expect({ target, prefer, status: answer.status, mark: answer.headers.get('contracts-mock') }).toEqual({
        target,
        prefer,
        status: 500,
        mark: 'no-valid-answer',
      });
    }
  });

  it('answers 404 for no path and 405 with Allow for an undocumented method', async () => {
    expect(await ask('GET', '/nothing')).toMatchObject({ status: 404, type: 'application/problem+json' });
    const wrong = await ask('DELETE', '/items');
    expect({ status: wrong.status, allow: wrong.headers.get('allow') }).toEqual({ status: 405, allow: 'GET, POST' });
  });
});
