// `contracts proxy` judges a request as the target gets it. A header the client's Connection header names is
// hop-by-hop and not forwarded (RFC 9110 section 7.6.1): `Connection: x-api-key` made the proxy judge a request that
// carried the key, and forward it without one. With --errors that request must be refused, as the target never
// gets its credential.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawExchange, spawnProxy } from '../helpers/proxy.js';
import { type RawTarget, startRawTarget } from '../helpers/raw-target.js';

const session = '{"clientToken":"t","paymentMethods":[]}';
let target: RawTarget;

beforeAll(async () => {
  target = await startRawTarget(
    () => `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${session.length}\r\n\r\n${session}`,
  );
});
afterAll(() => target.close());

describe('contracts proxy --errors on a header named in Connection', () => {
  it('judges the request without it, as forwarded: a credential so dropped is a refusal', async () => {
    const proxy = await spawnProxy(['--target', target.url, '--port', '0', '--errors'], 'client-session');
    try {
      const port = Number(new URL(proxy.url).port);
      const request = (connection: string) =>
        `GET /client-session HTTP/1.1\r\nHost: proxy\r\nX-API-KEY: k\r\nX-API-VERSION: 2.4\r\n${connection}\r\n`;
      const dropped = await rawExchange(port, request('Connection: x-api-key\r\n'));
      expect(dropped.answers[0]?.status).toBe(400);
      expect(dropped.answers[0]?.body).toMatch(/X-API-KEY|apiKey|credential/i);
      const kept = await rawExchange(port, request(''));
      expect(kept.answers[0]?.status).not.toBe(400);
      expect(target.received.map((received) => received.headers.some(([name]) => /x-api-key/i.test(name)))).toEqual([
        true,
      ]);
    } finally {
      await proxy.stop();
    }
  }, 30_000);
});
