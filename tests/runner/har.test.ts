import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readHar } from '../../src/runner/har.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'contracts-har-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function read(content: string, chunkBytes?: number) {
  const file = path.join(dir, `${Math.random().toString(36).slice(2)}.har`);
  await writeFile(file, content);
  const out = [];
  for await (const exchange of readHar(file, 'capture.har', chunkBytes)) out.push(exchange);
  return out;
}

const tricky = {
  log: {
    version: '1.2',
    creator: { name: 'test', entries: [{ not: 'these' }] },
    pages: [{ id: 'p', title: 'has "quotes" and {braces} and [brackets] and \\ backslashes' }],
    entries: [
      { request: { method: 'GET', url: 'http://h/repos/o/r/hooks/1' }, response: { status: 200, headers: [{ name: 'Content-Type', value: 'application/json' }], content: { text: '{"id":1,"s":"}]\\"{["}' } } },
      { request: { method: 'POST', url: 'http://h/repos/o/r/hooks' }, response: { status: 201, headers: [], content: { text: Buffer.from('{"id":2}').toString('base64'), encoding: 'base64' } } },
      { request: { method: 'DELETE', url: 'http://h/repos/o/r/hooks/2' }, response: { status: 204, headers: [], content: {} } },
    ],
  },
  trailing: { entries: [{ ignored: true }] },
};

describe('readHar', () => {
  it.each([1, 3, 7, 64, 1 << 20])('yields the same exchanges whatever the chunk size (%i bytes)', async (chunk) => {
    const exchanges = await read(JSON.stringify(tricky, null, chunk % 2 ? 2 : 0), chunk);
    expect(exchanges.map((e) => [e.index, e.method, e.path, e.status, e.body])).toEqual([
      [1, 'GET', '/repos/o/r/hooks/1', 200, '{"id":1,"s":"}]\\"{["}'],
      [2, 'POST', '/repos/o/r/hooks', 201, '{"id":2}'],
      [3, 'DELETE', '/repos/o/r/hooks/2', 204, ''],
    ]);
    expect(exchanges[0]?.headers['content-type']).toBe('application/json');
  });

  it('handles multi-byte characters split across chunks', async () => {
    const har = { log: { entries: [{ request: { method: 'GET', url: 'http://h/a' }, response: { status: 200, headers: [], content: { text: 'héllo ☃ 𝄞' } } }] } };
    const [exchange] = await read(JSON.stringify(har), 1);
    expect(exchange?.body).toBe('héllo ☃ 𝄞');
  });

  it.each([
    ['an empty file', '', /is not a HAR file: the file is empty/],
    ['a file that is not JSON', 'hello', /is not a HAR file: not JSON/],
    ['a top-level array', '[1]', /the top level is not an object/],
    ['a capture cut off', '{"log":{"entries":[{"request":{}', /the JSON is cut off/],
    ['no log.entries', '{"entries":[]}', /no log\.entries array/],
    ['an entry without a status', '{"log":{"entries":[{"request":{"method":"GET","url":"http://h/"},"response":{}}]}}', /entry 1 lacks request\.method, request\.url or response\.status/],
  ])('refuses %s with a clear ContractsError', async (_name, content, message) => {
    await expect(read(content)).rejects.toThrow(message);
  });
});
