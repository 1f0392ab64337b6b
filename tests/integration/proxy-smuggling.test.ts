// `contracts proxy` against request smuggling, both ways: every framing that two HTTP readers could take differently
// (CL.TE, TE.CL, TE.TE variants, framing headers named in Connection, obs-fold, bare CR, NUL, duplicate and invalid
// lengths) and request targets the target would route elsewhere than they are judged (dot segments, encoded
// slashes), each followed by a pipelined request. The target is raw TCP and reads requests leniently, as a backend
// might: whatever the proxy let through would show up there as a request it never judged. The proxy runs as its own
// process, with and without --errors, and at the end its HAR (every exchange it judged) must list exactly the
// requests the target received.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawExchange, spawnProxy } from '../helpers/proxy.js';
import { type RawTarget, type ReceivedRequest, startRawTarget } from '../helpers/raw-target.js';

const smuggled = 'DELETE /repos/smuggled/app/hooks/42 HTTP/1.1\r\nHost: x\r\n\r\n';
const smuggledAnswer =
  'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 17\r\n\r\n{"smuggled":true}';
const hook = '{"name":"web"}';
const list = (owner: string) => `/repos/${owner}/app/hooks`;
const get = (target: string) => `GET ${target} HTTP/1.1\r\nHost: proxy\r\n\r\n`;
const post = (owner: string, headers: string, body: string) =>
  `POST ${list(owner)} HTTP/1.1\r\nHost: proxy\r\nContent-Type: application/json\r\n${headers}\r\n${body}`;
const hex = (text: string) => Buffer.byteLength(text, 'latin1').toString(16);
const chunked = (text: string) => `${hex(text)}\r\n${text}\r\n0\r\n\r\n`;

/** Requests the proxy must refuse (the status, and nothing reaches the target), built for a case's owner. */
const refusedRequests: [string, number, (owner: string) => string][] = [
  [
    'CL.TE: Content-Length and Transfer-Encoding',
    400,
    (o) => post(o, `Content-Length: ${5 + smuggled.length}\r\nTransfer-Encoding: chunked\r\n`, `0\r\n\r\n${smuggled}`),
  ],
  [
    'TE.CL: Transfer-Encoding and Content-Length',
    400,
    (o) => post(o, 'Transfer-Encoding: chunked\r\nContent-Length: 4\r\n', chunked(smuggled)),
  ],
  [
    'TE.TE: Transfer-Encoding: chunked, identity',
    501,
    (o) => post(o, 'Transfer-Encoding: chunked, identity\r\n', chunked(smuggled)),
  ],
  [
    'TE.TE: a space before the colon',
    400,
    (o) => post(o, `Transfer-Encoding : chunked\r\nContent-Length: ${5 + smuggled.length}\r\n`, `0\r\n\r\n${smuggled}`),
  ],
  [
    'TE.TE: xchunked',
    501,
    (o) => post(o, `Transfer-Encoding: xchunked\r\nContent-Length: ${5 + smuggled.length}\r\n`, `0\r\n\r\n${smuggled}`),
  ],
  [
    'TE.TE: two Transfer-Encoding headers',
    400,
    (o) => post(o, 'Transfer-Encoding: chunked\r\nTransfer-Encoding: identity\r\n', chunked(smuggled)),
  ],
  [
    'TE.TE: Transfer-Encoding folded onto the line before',
    400,
    (o) =>
      post(
        o,
        `X-Pad: 1\r\n Transfer-Encoding: chunked\r\nContent-Length: ${5 + smuggled.length}\r\n`,
        `0\r\n\r\n${smuggled}`,
      ),
  ],
  [
    'obs-fold: a continuation line starting with a space',
    400,
    (o) => `GET ${list(o)} HTTP/1.1\r\nHost: proxy\r\nX-Note: a\r\n b\r\n\r\n`,
  ],
  ['obs-fold: a first header line starting with a tab', 400, (o) => `GET ${list(o)} HTTP/1.1\r\n\tHost: proxy\r\n\r\n`],
  [
    'Connection naming Content-Length (the body read as a second request)',
    400,
    (o) => post(o, `Connection: keep-alive, content-length\r\nContent-Length: ${smuggled.length}\r\n`, smuggled),
  ],
  [
    'Connection naming Transfer-Encoding',
    400,
    (o) => post(o, 'Connection: transfer-encoding\r\nTransfer-Encoding: chunked\r\n', chunked(smuggled)),
  ],
  ['Connection naming Host', 400, (o) => `GET ${list(o)} HTTP/1.1\r\nHost: proxy\r\nConnection: close, Host\r\n\r\n`],
  [
    'a bare CR in a header value',
    400,
    (o) =>
      post(
        o,
        `X-A: a\rTransfer-Encoding: chunked\r\nContent-Length: ${5 + smuggled.length}\r\n`,
        `0\r\n\r\n${smuggled}`,
      ),
  ],
  ['a bare CR in the request target', 400, (o) => `GET ${list(o)}\rX: HTTP/1.1\r\nHost: proxy\r\n\r\n`],
  ['a NUL in the request target', 400, (o) => get(`/repos/${o}\0/app/hooks`)],
  ['a tab in the request target', 400, (o) => get(`/repos/${o}\t/app/hooks`)],
  ['a NUL in a header value', 400, (o) => `GET ${list(o)} HTTP/1.1\r\nHost: proxy\r\nX-A: a\0b\r\n\r\n`],
  ['two equal Content-Length headers', 400, (o) => post(o, 'Content-Length: 14\r\nContent-Length: 14\r\n', hook)],
  ['two different Content-Length headers', 400, (o) => post(o, 'Content-Length: 14\r\nContent-Length: 0\r\n', hook)],
  ['Content-Length: +14', 400, (o) => post(o, 'Content-Length: +14\r\n', hook)],
  ['Content-Length: 0xe', 400, (o) => post(o, 'Content-Length: 0xe\r\n', hook)],
  ['Content-Length: 14, 14', 400, (o) => post(o, 'Content-Length: 14, 14\r\n', hook)],
  ['Content-Length: -1', 400, (o) => post(o, 'Content-Length: -1\r\n', hook)],
  ['an empty Content-Length', 400, (o) => post(o, 'Content-Length:\r\n', hook)],
  ['a .. segment', 400, (o) => get(`/repos/${o}/app/hooks/../../../../admin`)],
  ['a %2e%2e segment', 400, (o) => get(`/repos/${o}/%2e%2e/%2E%2e/admin`)],
  ['a .%2e segment', 400, (o) => get(`/repos/${o}/app/.%2e/x/hooks`)],
  ['a . segment', 400, (o) => get(`/./repos/${o}/app/hooks`)],
  ['a ..; segment', 400, (o) => get(`/repos/${o}/app/..;/x/hooks`)],
  ['a %2e%2e segment behind an encoded slash', 400, (o) => get(`/repos/${o}/app%2f%2e%2e%2f%2e%2e%2fadmin/hooks`)],
  ['a .. segment behind an encoded backslash', 400, (o) => get(`/repos/${o}/app%5c..%5cadmin/hooks`)],
  ['a raw backslash', 400, (o) => get(`/repos/${o}\\x/app/hooks`)],
  ['a fragment', 400, (o) => get(`/repos/${o}/app/hooks#/../../admin`)],
];

/** Requests the proxy relays as they are: each is received by the target once, with the pipelined one after it. */
const relayedRequests: [string, (owner: string) => string][] = [
  ['a Content-Length body', (o) => post(o, `Content-Length: ${hook.length}\r\n`, hook)],
  [
    'a chunked body with a chunk extension',
    (o) => post(o, 'Transfer-Encoding: chunked\r\n', `3;x=1\r\n{"n\r\n${chunked('ame":"web"}')}`),
  ],
  ['Transfer-Encoding: CHUNKED', (o) => post(o, 'Transfer-Encoding: CHUNKED\r\n', chunked(hook))],
  ['a Content-Length with leading zeros', (o) => post(o, `Content-Length: 000${hook.length}\r\n`, hook)],
  ['lines ended by LF alone', (o) => `GET ${list(o)} HTTP/1.1\nHost: proxy\n\n`],
  [
    'Connection naming an ordinary header',
    (o) => `GET ${list(o)} HTTP/1.1\r\nHost: proxy\r\nConnection: keep-alive, X-Hop\r\nX-Hop: 1\r\n\r\n`,
  ],
];

/** Answers the proxy must not relay (502), each followed on the wire by a smuggled answer. */
const refusedAnswers: [string, string][] = [
  [
    'Content-Length and Transfer-Encoding',
    'content-length: 7\r\ntransfer-encoding: chunked\r\n\r\n2\r\n[]\r\n0\r\n\r\n',
  ],
  ['Connection naming Content-Length', 'content-length: 2\r\nconnection: content-length\r\n\r\n[]'],
  [
    'Connection naming Transfer-Encoding',
    'transfer-encoding: chunked\r\nconnection: transfer-encoding\r\n\r\n2\r\n[]\r\n0\r\n\r\n',
  ],
  [
    'two Transfer-Encoding headers',
    'transfer-encoding: chunked\r\ntransfer-encoding: identity\r\n\r\n2\r\n[]\r\n0\r\n\r\n',
  ],
  ['Transfer-Encoding: chunked, identity', 'transfer-encoding: chunked, identity\r\n\r\n2\r\n[]\r\n0\r\n\r\n'],
  ['Transfer-Encoding with a space before the colon', 'transfer-encoding : chunked\r\ncontent-length: 2\r\n\r\n[]'],
  ['Transfer-Encoding: xchunked', 'transfer-encoding: xchunked\r\ncontent-length: 2\r\n\r\n[]'],
  ['two equal Content-Length headers', 'content-length: 2\r\ncontent-length: 2\r\n\r\n[]'],
  ['two different Content-Length headers', 'content-length: 2\r\ncontent-length: 3\r\n\r\n[]'],
  ['Content-Length: +2', 'content-length: +2\r\n\r\n[]'],
  ['an obs-folded header line', 'x-note: a\r\n b\r\ncontent-length: 2\r\n\r\n[]'],
  ['a bare CR in a header value', 'x-a: a\rtransfer-encoding: chunked\r\ncontent-length: 2\r\n\r\n[]'],
  ['a NUL in a header value', 'x-a: a\0b\r\ncontent-length: 2\r\n\r\n[]'],
];

/** Answers the proxy relays as they are. */
const relayedAnswers: [string, string][] = [
  ['a chunked answer', 'transfer-encoding: chunked\r\n\r\n1\r\n[\r\n1\r\n]\r\n0\r\n\r\n'],
  ['a Content-Length with leading zeros', 'content-length: 002\r\n\r\n[]'],
];

const answerHead = 'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n';
const plainAnswer = `${answerHead}content-length: 2\r\n\r\n[]`;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'contracts-proxy-smuggling-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe.each([
  ['forwarding', []],
  ['--errors', ['--errors']],
])('contracts proxy against request smuggling (%s)', (mode, flags) => {
  let target: RawTarget;
  let proxy: Awaited<ReturnType<typeof spawnProxy>>;
  let port: number;
  const har = () => path.join(dir, `${mode.replace(/\W/g, '')}.har`);
  let syncs = 0;

  beforeAll(async () => {
    target = await startRawTarget((request) => {
      const owner = /^\/api\/repos\/(a\d+)\/app\/hooks$/.exec(request.target)?.[1];
      const index = owner === undefined ? -1 : Number(owner.slice(1));
      const all = [...refusedAnswers, ...relayedAnswers];
      return index >= 0 && index < all.length ? `${answerHead}${all[index]![1]}${smuggledAnswer}` : plainAnswer;
    });
    proxy = await spawnProxy(
      ['--target', `${target.url}/api`, '--port', '0', '--har-out', har(), ...flags],
      'repository-webhooks',
    );
    port = Number(new URL(proxy.url).port);
  }, 60_000);
  afterAll(async () => {
    if (proxy?.child.exitCode === null) proxy.child.kill('SIGKILL');
    await target?.close();
  });

  /** What the target received since `from`, once a request on another connection has gone through after it. */
  async function receivedSince(from: number): Promise<string[]> {
    const sync = `sync${syncs++}`;
    const { answers } = await rawExchange(port, get(list(sync)));
    expect(answers.map((answer) => answer.status)).toEqual([200]);
    return target.received
      .slice(from)
      .map((request) => request.target)
      .filter((received) => received !== `/api${list(sync)}`);
  }

  it.each(refusedRequests.map(([name, status, bytes], index) => [name, status, bytes, `q${index}`] as const))(
    'refuses a request with %s (%i), pipelined request and all: the target gets none of it',
    async (_name, status, bytes, owner) => {
      const from = target.received.length;
      const { answers, closed, raw } = await rawExchange(port, bytes(owner) + get(list(`${owner}-after`)), {
        count: 2,
      });
      expect(answers.map((answer) => answer.status)).toEqual([status]);
      expect(answers[0]!.body).toMatch(/^\{"error":".+"\}$/);
      expect(closed).toBe(true);
      expect(raw).not.toContain('smuggled');
      expect(await receivedSince(from)).toEqual([]);
    },
  );

  it.each(relayedRequests.map(([name, bytes], index) => [name, bytes, `r${index}`] as const))(
    'relays a request with %s as it is, and the request pipelined after it',
    async (_name, bytes, owner) => {
      const from = target.received.length;
      const { answers } = await rawExchange(port, bytes(owner) + get(list(`${owner}-after`)), { count: 2 });
      expect(answers.map((answer) => [answer.status, answer.body])).toEqual([
        [200, '[]'],
        [200, '[]'],
      ]);
      expect(await receivedSince(from)).toEqual([`/api${list(owner)}`, `/api${list(`${owner}-after`)}`]);
      const request = target.received[from]!;
      if (request.method === 'POST') expect(request.body).toBe(hook);
    },
  );

  // Data in a segment to the APIs that use it (GitLab's `group%2Fproject`): relayed as it is.
  it('relays an encoded slash in a segment as it is', async () => {
    const from = target.received.length;
    const { answers } = await rawExchange(port, get('/repos/group%2Fproject/app/hooks'));
    expect(answers.map((answer) => answer.status)).toEqual([200]);
    expect(await receivedSince(from)).toEqual(['/api/repos/group%2Fproject/app/hooks']);
  });

  it.each(refusedAnswers.map(([name], index) => [name, `a${index}`] as const))(
    'answers 502 for a target answer with %s, and never relays the answer smuggled after it',
    async (_name, owner) => {
      const { answers, raw } = await rawExchange(port, get(list(owner)) + get(list(`${owner}-after`)), { count: 2 });
      expect(answers[0]?.status).toBe(502);
      expect(answers[0]!.body).toMatch(/"bad gateway"/);
      // The pipelined request was on the same target connection (502 too), or went on a new one after it.
      expect([502, 200]).toContain(answers[1]?.status ?? 502);
      expect(raw).not.toContain('smuggled');
    },
  );

  it.each(relayedAnswers.map(([name], index) => [name, `a${refusedAnswers.length + index}`] as const))(
    'relays a target answer with %s, and the next answer after it',
    async (_name, owner) => {
      // The smuggled answer after it answers the pipelined request: it is the target's own, in step.
      const { answers } = await rawExchange(port, get(list(owner)) + get(list(`${owner}-after`)), { count: 2 });
      expect(answers.map((answer) => [answer.status, answer.body])).toEqual([
        [200, '[]'],
        [200, '{"smuggled":true}'],
      ]);
    },
  );

  it('judged exactly the requests the target received, in its HAR, and no other', async () => {
    const { code } = await proxy.stop('SIGINT');
    expect(code, proxy.output.stderr).not.toBe(2);
    const entries = (JSON.parse(await readFile(har(), 'utf8')) as { log: { entries: HarEntry[] } }).log.entries;
    const judged = entries.map((entry) => `${entry.request.method} ${new URL(entry.request.url).pathname}`).sort();
    const received = target.received.map((request: ReceivedRequest) => `${request.method} ${request.target}`).sort();
    expect(received.filter((request) => request.includes('smuggled'))).toEqual([]);
    expect(judged).toEqual(received);
    expect(proxy.output.stdout).toContain(`SIGINT: ${entries.length} exchanges`);
  }, 30_000);
});

interface HarEntry {
  request: { method: string; url: string };
}
