// `contracts proxy` in front of a service that streams server-sent events forever (OpenAPI 3.2 itemSchema): the
// events pass through as they come, a bad one is flagged as it passes (the stream still open), and the proxy's
// memory stays bounded however much has flowed.
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { root } from '../helpers/paths.js';
import { spawnProxy } from '../helpers/proxy.js';

const big = 'x'.repeat(10_000);
let upstream: http.Server;
let target: string;
let scratch: string;

/** Events of some 10 kB each, without end; the sixth (index 5) has an `id` that is no integer. */
function endlessEvents(): http.Server {
  return http.createServer((request, response) => {
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    let index = 0;
    const pump = () => {
      while (!response.destroyed) {
        const data = index === 5 ? '{"id":"five","name":"b"}' : JSON.stringify({ id: index + 1, name: big });
        const more = response.write(`event: created\nid: ${index}\ndata: ${data}\n\n`);
        index++;
        if (!more) return void response.once('drain', pump);
      }
    };
    pump();
    request.on('close', () => response.destroy());
  });
}

/** The resident memory of a process, in bytes (Linux). */
const rss = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;

beforeAll(async () => {
  upstream = endlessEvents();
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  target = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  scratch = await mkdtemp(path.join(os.tmpdir(), 'oas32-proxy-'));
  await copyFile(path.join(root, 'tests/fixtures/oas32/streams-3.2.yaml'), path.join(scratch, 'streams.yaml'));
  await writeFile(path.join(scratch, 'contracts.config.yaml'), 'apis:\n  - name: streams\n    spec: streams.yaml\n');
});
afterAll(async () => {
  upstream.closeAllConnections();
  await new Promise((resolve) => upstream.close(resolve));
  await rm(scratch, { recursive: true, force: true });
});

describe.runIf(process.platform === 'linux')('the proxy on an endless event stream', () => {
  it('passes it through, flags the bad event as it passes, and holds bounded memory', async () => {
    const proxy = await spawnProxy(['--target', target, '--port', '0', '--max-body', '1'], 'streams', {
      CONTRACTS_CONFIG: path.join(scratch, 'contracts.config.yaml'),
    });
    try {
      const answer = await fetch(`${proxy.url}/events`);
      expect(answer.headers.get('content-type')).toBe('text/event-stream');
      const reader = answer.body!.getReader();
      let received = 0;
      let rssAfter20Mb: number | undefined;
      while (received < 200 * 2 ** 20) {
        const { value, done } = await reader.read();
        if (done) break;
        received += value.length;
        if (rssAfter20Mb === undefined && received > 20 * 2 ** 20) rssAfter20Mb = rss(proxy.child.pid!);
      }
      const grown = rss(proxy.child.pid!) - rssAfter20Mb!;
      // Said while the stream is still flowing: the exchange has not ended.
      expect(proxy.output.stdout).toContain(
        '✗ GET /events → 200 (watchItems) response_schema_conformance /5/data/id: event 5 (line 21, data "{\\"id\\":\\"five\\",\\"name\\":\\"b\\"}"): /data/id must be integer\n',
      );
      expect(proxy.output.stdout.match(/response_schema_conformance/g)).toHaveLength(1);
      expect(received).toBeGreaterThanOrEqual(200 * 2 ** 20);
      // 180 MB more went through; the proxy holds one event and a 1 MB copy, whatever the length.
      expect(grown).toBeLessThan(48 * 2 ** 20);
      await reader.cancel();
    } finally {
      await proxy.stop();
    }
  }, 120_000);
});
