import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readHar, type ReadHarOptions } from '../../src/har/har.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'contracts-har-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function read(content: string | Buffer, chunkBytes?: number, options: ReadHarOptions = {}) {
  const file = path.join(dir, `${Math.random().toString(36).slice(2)}.har`);
  await writeFile(file, content);
  const out = [];
  for await (const exchange of readHar(file, 'capture.har', {
    ...options,
    ...(chunkBytes === undefined ? {} : { chunkBytes }),
  }))
    out.push(exchange);
  return out;
}

const entry = (content: Record<string, unknown>, headers: Record<string, string> = {}) => ({
  request: { method: 'GET', url: 'http://h/a' },
  response: { status: 200, headers: Object.entries(headers).map(([name, value]) => ({ name, value })), content },
});
const har = (...entries: unknown[]) => JSON.stringify({ log: { version: '1.2', entries } });

const tricky = {
  log: {
    version: '1.2',
    creator: { name: 'test', entries: [{ not: 'these' }] },
    pages: [{ id: 'p', title: 'has "quotes" and {braces} and [brackets] and \\ backslashes' }],
    entries: [
      {
        request: { method: 'GET', url: 'http://h/repos/o/r/hooks/1' },
        response: {
          status: 200,
          headers: [{ name: 'Content-Type', value: 'application/json' }],
          content: { text: '{"id":1,"s":"}]\\"{["}' },
        },
      },
      {
        request: { method: 'POST', url: 'http://h/repos/o/r/hooks' },
        response: {
          status: 201,
          headers: [],
          content: { text: Buffer.from('{"id":2}').toString('base64'), encoding: 'base64' },
        },
      },
      {
        request: { method: 'DELETE', url: 'http://h/repos/o/r/hooks/2' },
        response: { status: 204, headers: [], content: {} },
      },
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
    const har = {
      log: {
        entries: [
          {
            request: { method: 'GET', url: 'http://h/a' },
            response: { status: 200, headers: [], content: { text: 'héllo ☃ 𝄞' } },
          },
        ],
      },
    };
    const [exchange] = await read(JSON.stringify(har), 1);
    expect(exchange?.body).toBe('héllo ☃ 𝄞');
  });

  it.each([
    ['an empty file', '', /is not a HAR file: the file is empty/],
    ['a file that is not JSON', 'hello', /is not a HAR file: not JSON/],
    ['a top-level array', '[1]', /is not a HAR file: the top level is not an object/],
    ['a top-level string', '"a string"', /is not a HAR file: the top level is not an object/],
    ['a top-level number', '  42\n', /is not a HAR file: the top level is not an object/],
    ['a top-level null', 'null', /is not a HAR file: the top level is not an object/],
    ['a top-level true', 'true', /is not a HAR file: the top level is not an object/],
    ['a capture cut off', '{"log":{"entries":[{"request":{}', /the JSON is cut off/],
    ['no log.entries', '{"entries":[]}', /no log\.entries array/],
  ])('refuses %s with a clear ContractsError', async (_name, content, message) => {
    await expect(read(content)).rejects.toThrow(message);
  });

  it.each([1, 2, 1 << 20])('accepts a UTF-8 byte order mark (%i-byte chunks)', async (chunk) => {
    const exchanges = await read(
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(har(entry({ text: '{}' })))]),
      chunk,
    );
    expect(exchanges.map((e) => [e.index, e.method, e.body])).toEqual([[1, 'GET', '{}']]);
  });

  const good = entry({ text: '{"ok":true}' });
  const mixed = `{"log":{"entries":[1, "CANARY-string", null, true, -2.5e3, [1], ${JSON.stringify(good)}, {"request":{"method":"GET","url":"http://h/"},"response":{}},
    {"request":{"method":"GET","url":"no url"},"response":{"status":200}}, {"request": "CANARY-in-json" "x"}, ${JSON.stringify(good)}]}}`;

  it.each([1, 5, 1 << 20])(
    'reports each entry that is not an exchange, in place, and goes on (%i-byte chunks)',
    async (chunk) => {
      const exchanges = await read(mixed, chunk);
      expect(exchanges.map((e) => [e.index, e.invalidEntry ?? e.body])).toEqual([
        [1, 'entry 1 is a number, not an object'],
        [2, 'entry 2 is a string, not an object'],
        [3, 'entry 3 is null, not an object'],
        [4, 'entry 4 is a boolean, not an object'],
        [5, 'entry 5 is a number, not an object'],
        [6, 'entry 6 is an array, not an object'],
        [7, '{"ok":true}'],
        [8, 'entry 8 lacks request.method, request.url or response.status'],
        [9, 'entry 9 has an invalid request.url'],
        [10, expect.stringMatching(/^entry 10 is not valid JSON \(at character \d+ of the entry\)$/)],
        [11, '{"ok":true}'],
      ]);
      expect(JSON.stringify(exchanges)).not.toContain('CANARY');
    },
  );

  it('never quotes the text of an entry that is not valid JSON', async () => {
    const [exchange] = await read(
      '{"log":{"entries":[{"request":{"method":"GET","url":"http://h/"}, "key" "CANARYKEY-0123456789"}]}}',
    );
    expect(exchange?.invalidEntry).toMatch(/^entry 1 is not valid JSON/);
    expect(exchange?.invalidEntry).not.toMatch(/CANARY|KEY|"/);
  });
});

describe('readHar: memory bounded by the body cap', () => {
  const small = { maxBodyBytes: 100 };
  const next = entry({ text: '{"next":true}' });

  it.each([7, 64, 1 << 20])(
    'marks a body far over the cap as too large, and reads the next entry (%i-byte chunks)',
    async (chunk) => {
      const exchanges = await read(har(entry({ text: 'x'.repeat(5000) }), next), chunk, small);
      expect(exchanges.map((e) => [e.index, e.body, e.bodyTooLarge])).toEqual([
        [1, '', 100],
        [2, '{"next":true}', undefined],
      ]);
    },
  );

  it('reports an entry far over the cap in the file without keeping it, and goes on', async () => {
    const headers = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`x-h${i}`, 'v'.repeat(600)]));
    const exchanges = await read(har(entry({ text: '{}' }, headers), next), 4096, small);
    expect(exchanges.map((e) => [e.index, e.invalidEntry ?? e.body])).toEqual([
      [1, 'entry 1 is over 67136 characters in the file: not read'],
      [2, '{"next":true}'],
    ]);
  });

  it('reports an entry whose URL is far over the cap', async () => {
    const long = {
      request: { method: 'GET', url: `http://h/${'a'.repeat(5000)}` },
      response: { status: 200, headers: [], content: {} },
    };
    const exchanges = await read(har(long, next), 7, small);
    expect(exchanges.map((e) => [e.index, e.invalidEntry ?? e.body])).toEqual([
      [1, 'entry 1 has a request.method or request.url too long to read'],
      [2, '{"next":true}'],
    ]);
  });

  it('finds log.entries after a long string near the top', async () => {
    const content = JSON.stringify({ log: { comment: 'c'.repeat(100_000), entries: [next] } });
    const exchanges = await read(content, 7);
    expect(exchanges.map((e) => e.body)).toEqual(['{"next":true}']);
  });

  it('reads a 96 MB body in a fixed amount of memory', async () => {
    const file = path.join(dir, 'huge.har');
    const out = createWriteStream(file);
    out.write(
      '{"log":{"entries":[{"request":{"method":"GET","url":"http://h/a"},"response":{"status":200,"headers":[],"content":{"text":"',
    );
    const mb = 'x'.repeat(2 ** 20);
    for (let i = 0; i < 96; i++) if (!out.write(mb)) await once(out, 'drain');
    await new Promise<void>((resolve) => out.end(`"}}}, ${JSON.stringify(next)}]}}`, () => resolve()));
    const before = process.memoryUsage().rss;
    let peak = before;
    const sample = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
    const exchanges = [];
    try {
      for await (const exchange of readHar(file, 'huge.har', { maxBodyBytes: 2 ** 20 })) exchanges.push(exchange);
    } finally {
      clearInterval(sample);
      await rm(file);
    }
    expect(exchanges.map((e) => [e.bodyTooLarge, e.body])).toEqual([
      [2 ** 20, ''],
      [undefined, '{"next":true}'],
    ]);
    // Holding the body would take 96 MB at least (twice that to join it).
    expect((peak - before) / 2 ** 20).toBeLessThan(64);
  }, 60_000);
});

describe('readHar: base64 bodies with a Content-Encoding', () => {
  const body = JSON.stringify({ id: 1, name: 'héllo', events: ['push'] });
  const raw = Buffer.from(body);
  it.each<[string, string, Buffer]>([
    ['gzip', 'gzip', gzipSync(raw)],
    ['deflate (zlib)', 'deflate', deflateSync(raw)],
    ['deflate (raw)', 'deflate', deflateRawSync(raw)],
    ['br', 'br', brotliCompressSync(raw)],
    ['gzip then br', 'gzip, br', brotliCompressSync(gzipSync(raw))],
    ['gzip, stored already decoded by the capture tool', 'gzip', raw],
    ['an unknown coding, left as it is', 'zstd', raw],
  ])('reads a base64 body with Content-Encoding: %s as the decoded body', async (_name, coding, bytes) => {
    const [exchange] = await read(
      har(entry({ text: bytes.toString('base64'), encoding: 'base64' }, { 'Content-Encoding': coding })),
    );
    expect(exchange).toMatchObject({ body, status: 200 });
    expect(exchange?.bodyNotUtf8).toBeUndefined();
    expect(exchange?.bodyTooLarge).toBeUndefined();
  });

  it('marks a gzip bomb as too large instead of inflating it', async () => {
    const bomb = gzipSync(Buffer.alloc(64 * 2 ** 20, 0x20));
    expect(bomb.length).toBeLessThan(2 ** 20);
    const started = Date.now();
    const [exchange] = await read(
      har(entry({ text: bomb.toString('base64'), encoding: 'base64' }, { 'content-encoding': 'gzip' })),
    );
    expect(exchange).toMatchObject({ body: '', bodyTooLarge: 10 * 2 ** 20 });
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  it.each<[string, Record<string, unknown>, Record<string, string>]>([
    [
      'a brotli body',
      { text: brotliCompressSync(Buffer.alloc(4096, 0x61)).toString('base64'), encoding: 'base64' },
      { 'content-encoding': 'br' },
    ],
    ['a base64 body', { text: Buffer.alloc(4096, 0x61).toString('base64'), encoding: 'base64' }, {}],
    ['a text body', { text: 'a'.repeat(4096) }, {}],
  ])('marks %s over maxBodyBytes as too large', async (_name, content, headers) => {
    const [exchange] = await read(har(entry(content, headers)), undefined, { maxBodyBytes: 4095 });
    expect(exchange).toMatchObject({ body: '', bodyTooLarge: 4095 });
    const [fits] = await read(har(entry(content, headers)), undefined, { maxBodyBytes: 4096 });
    expect(fits?.body).toBe('a'.repeat(4096));
  });
});
