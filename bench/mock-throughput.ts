// Benchmark 3: requests/s and latency of each Prism mock under autocannon (10 connections), beside a bare
// node:http server answering the same static example in the same run; and the time from `contracts mock`
// start to both mocks answering.
import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { startMocks } from '../src/mock/start-mocks.js';
import { autocannon, quick, report, round, root } from './bench-util.js';

const duration = quick ? 1 : 8;

const mocks = await startMocks({ ports: { 'client-session': 0, 'repository-webhooks': 0 } });
const sessionHeaders = { 'X-API-KEY': 'bench-key', 'X-API-VERSION': '2.4' };
const sessionUrl = `${mocks.urls['client-session']}/client-session`;
const hooksUrl = `${mocks.urls['repository-webhooks']}/repos/octo/app/hooks/1`;
const figures: Record<string, unknown> = {};
try {
  const [sessionExample, hookExample] = await Promise.all([
    fetch(sessionUrl, { headers: sessionHeaders }).then((r) => r.text()),
    fetch(hooksUrl).then((r) => r.text()),
  ]);
  const bare = http.createServer((request, response) => {
    const body = request.url === '/client-session' ? sessionExample : hookExample;
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    response.end(body);
  });
  await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
  const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}`;

  const load = async (url: string, headers: Record<string, string> = {}) => {
    const result = await autocannon({ url, connections: 10, duration, headers });
    if (result.errors > 0 || result.non2xx > 0 || result.timeouts > 0)
      throw new Error(`load on ${url}: ${result.errors} errors, ${result.non2xx} non-2xx, ${result.timeouts} timeouts`);
    return {
      requestsPerSecond: Math.round(result.requests.average),
      latencyP50Ms: result.latency.p50,
      latencyP99Ms: result.latency.p99,
    };
  };
  const prismSession = await load(sessionUrl, sessionHeaders);
  const bareSession = await load(`${bareUrl}/client-session`);
  const prismHooks = await load(hooksUrl);
  const bareHooks = await load(`${bareUrl}/repos/octo/app/hooks/1`);
  bare.close();
  figures.clientSession = {
    prism: prismSession,
    bareNodeHttp: bareSession,
    prismToBareThroughput: round(prismSession.requestsPerSecond / bareSession.requestsPerSecond, 3),
  };
  figures.repositoryWebhooks = {
    prism: prismHooks,
    bareNodeHttp: bareHooks,
    prismToBareThroughput: round(prismHooks.requestsPerSecond / bareHooks.requestsPerSecond, 3),
  };
} finally {
  await mocks.stop();
}

figures.startupSeconds = await timeToBothAnswering();
report('mock-throughput', figures);

/** Spawns `contracts mock` on free ports and measures until both mocks answer. */
async function timeToBothAnswering(): Promise<number> {
  const started = process.hrtime.bigint();
  const child = spawn(
    process.execPath,
    [path.join(root, 'bin/contracts.js'), 'mock', '--port-client-session', '0', '--port-repository-webhooks', '0'],
    { cwd: root, env: { ...process.env, SCARF_ANALYTICS: 'false' } },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const urls = await new Promise<string[]>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`contracts mock exited ${code}: ${output}`)));
    const timer = setInterval(() => {
      const found = [...output.matchAll(/(http:\/\/127\.0\.0\.1:\d+)/g)].map((m) => m[1]!);
      if (found.length >= 2) {
        clearInterval(timer);
        resolve(found);
      }
    }, 5);
  });
  for (const url of urls) await fetch(url + '/');
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGINT');
  await exited;
  return round(seconds, 3);
}
