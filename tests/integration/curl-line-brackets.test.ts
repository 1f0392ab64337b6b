// A failure's curl line, pasted into a shell, sends the request it stands for: curl reads [ ] and { } in a URL as
// globbing, so `filter[a]=x` (a deepObject, OpenAPI 3.1 section 4.8.12.4) or a redacted `key=[REDACTED]` made curl
// exit 3, and `q={x}` sent `q=x`. The scripts had -g already (repro-script.ts); the printed lines now have it too.
import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { curlLine } from '../../src/fuzz/curl-line.js';

let server: http.Server;
let baseUrl: string;
const seen: string[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => (seen.push(req.url ?? ''), res.writeHead(200).end()));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

function bash(line: string): Promise<number | null> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', `${line} > /dev/null`], { stdio: 'ignore' });
    child.on('close', resolve);
  });
}

describe('a curl line with brackets or braces in its URL', () => {
  it.each([
    ['a deepObject', '/items?filter[a]=x'],
    ['a redacted value', '/items?key=[REDACTED]'],
    ['braces', '/items?q={x}'],
    ['a range look-alike', '/items?ids[0-9]=1'],
  ])('sends %s as printed: %s', async (_what, at) => {
    seen.length = 0;
    const code = await bash(curlLine({ method: 'GET', url: `${baseUrl}${at}`, headers: [] }));
    expect({ code, seen }).toEqual({ code: 0, seen: [at] });
  });
});
