// Benchmark: requests/s through `contracts proxy` (checking both sides of every exchange) beside the same load
// sent directly to the sandbox, and through Prism's own proxy mode on the same spec, same connections (autocannon,
// 10 connections), and through a bare forwarding proxy with no checks (the floor). Each server runs in a process of its own, so the ratios compare servers, not one event loop.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createRequire } from 'node:module';
import { quick, report, round, root } from './bench-util.js';

const require = createRequire(import.meta.url);
const autocannon = require('autocannon') as (options: object) => Promise<{ requests: { average: number }; latency: { p50: number; p99: number }; errors: number; non2xx: number; timeouts: number }>;
const prismBin = path.join(path.dirname(require.resolve('@stoplight/prism-cli/package.json')), 'dist/index.js');
const duration = quick ? 1 : 8;
const headers = { 'X-API-KEY': 'bench-key', 'X-API-VERSION': '2.4' };
const children: ChildProcess[] = [];

/** Starts a server process and resolves with the first loopback URL it prints (or with `url` at once). */
function startServer(args: string[], url?: string): Promise<string> {
  const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, SCARF_ANALYTICS: 'false', FORCE_COLOR: '0' } });
  children.push(child);
  let output = '';
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited ${code}: ${output}`)));
    if (url !== undefined) resolve(url);
    const look = (chunk: Buffer) => {
      output += chunk.toString();
      const found = /(http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
      if (found) resolve(found);
    };
    child.stdout!.on('data', look);
    child.stderr!.on('data', look);
  });
}

async function load(url: string) {
  const result = await autocannon({ url, connections: 10, duration, headers });
  if (result.errors > 0 || result.non2xx > 0 || result.timeouts > 0) throw new Error(`load on ${url}: ${result.errors} errors, ${result.non2xx} non-2xx, ${result.timeouts} timeouts`);
  return { requestsPerSecond: Math.round(result.requests.average), latencyP50Ms: result.latency.p50, latencyP99Ms: result.latency.p99 };
}

const figures: Record<string, unknown> = {};
try {
  const contracts = path.join(root, 'bin/contracts.js');
  const sandbox = await startServer([contracts, 'sandbox', '--port', '0']);
  const proxy = await startServer([contracts, 'proxy', '--api', 'client-session', '--target', sandbox, '--port', '0']);
  const bareProxy = await startServer([path.join(root, 'bench/bare-proxy.mjs'), sandbox]);
  const prismPort = 4600 + Math.floor(Math.random() * 300);
  let prism: string | undefined = await startServer([prismBin, 'proxy', path.join(root, 'specs/client-session.yaml'), sandbox, '-p', String(prismPort), '-h', '127.0.0.1', '-v', 'fatal'], `http://127.0.0.1:${prismPort}`);
  // Prism prints nothing at -v fatal: wait until it answers (at most 20 s; without it, its row is left out).
  let answering = false;
  for (let tries = 0; tries < 200 && !answering; tries++) {
    answering = await fetch(`${prism}/client-session`, { headers }).then((response) => response.ok, () => false);
    if (!answering) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (!answering) prism = undefined;
  const direct = await load(`${sandbox}/client-session`);
  const ours = await load(`${proxy}/client-session`);
  const bare = await load(`${bareProxy}/client-session`);
  const prisms = prism ? await load(`${prism}/client-session`) : undefined;
  figures.clientSession = {
    direct,
    contractsProxy: ours,
    bareNodeHttpProxy: bare,
    ...(prisms ? { prismProxy: prisms } : {}),
    proxyToDirect: round(ours.requestsPerSecond / direct.requestsPerSecond, 3),
    bareProxyToDirect: round(bare.requestsPerSecond / direct.requestsPerSecond, 3),
    ...(prisms ? { prismProxyToDirect: round(prisms.requestsPerSecond / direct.requestsPerSecond, 3) } : {}),
  };
} finally {
  for (const child of children) child.kill('SIGINT');
}
report('proxy-throughput', figures);
