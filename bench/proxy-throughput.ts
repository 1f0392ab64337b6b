// Benchmark: requests/s through `contracts proxy` (checking both sides of every exchange) beside the same load
// sent directly to the sandbox, through Prism's own proxy mode on the same spec, through a bare node:http forwarding
// proxy with no checks, through our own forwarding engine with the checks taken out (bench/unchecked-proxy.ts: what
// judging costs), and through a TCP relay that does no HTTP at all (the ceiling for any proxy), same
// connections (autocannon, 10 connections). Each server runs in a process of its own, so the ratios compare
// servers, not one event loop. Each proxy is loaded for a second right after the sandbox directly, and each ratio is
// the median of 12 such pairs: on a shared machine whose speed drifts from second to second (a virtual machine's
// neighbours), a pair a second apart sees the same machine, and a burst spoils one pair, not one row.
// Beside requests/s, the CPU each proxy process spent per exchange (Linux), which depends far less on the load; and
// what our proxy reported at Ctrl-C, which must account for every exchange it received.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { quick, report, round, root } from './bench-util.js';

const require = createRequire(import.meta.url);
type Result = {
  requests: { average: number; total: number; sent: number };
  latency: { p50: number; p99: number };
  errors: number;
  non2xx: number;
  timeouts: number;
};
const autocannon = require('autocannon') as (options: object) => Promise<Result>;
const prismBin = path.join(path.dirname(require.resolve('@stoplight/prism-cli/package.json')), 'dist/index.js');
const duration = 1;
const rounds = quick ? 1 : 12;
const headers = { 'X-API-KEY': 'bench-key', 'X-API-VERSION': '2.4' };
const children: ChildProcess[] = [];

interface Server {
  url: string;
  child: ChildProcess;
  output: () => string;
}

/** Starts a server process and resolves with the first loopback URL it prints (or with `url` at once). */
function startServer(args: string[], url?: string): Promise<Server> {
  const child = spawn(process.execPath, args, {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, SCARF_ANALYTICS: 'false', FORCE_COLOR: '0' },
  });
  children.push(child);
  let output = '';
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited ${code}: ${output}`)));
    if (url !== undefined) resolve({ url, child, output: () => output });
    const look = (chunk: Buffer) => {
      output += chunk.toString();
      const found = /(http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
      if (found) resolve({ url: found, child, output: () => output });
    };
    child.stdout!.on('data', look);
    child.stderr!.on('data', look);
  });
}

/** CPU time a process has used, in microseconds (from /proc: Linux only). */
function cpuMicros(pid: number | undefined): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * (1e6 / 100);
  } catch {
    return undefined;
  }
}

interface Run {
  requestsPerSecond: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  completed: number;
  cpuMicrosPerExchange: number | undefined;
}

async function load(server: Server, measured: boolean): Promise<Run> {
  const before = cpuMicros(server.child.pid);
  const result = await autocannon({
    url: `${server.url}/client-session`,
    connections: 10,
    duration: measured ? duration : 1,
    headers,
  });
  const after = cpuMicros(server.child.pid);
  if (result.errors > 0 || result.non2xx > 0 || result.timeouts > 0)
    throw new Error(
      `load on ${server.url}: ${result.errors} errors, ${result.non2xx} non-2xx, ${result.timeouts} timeouts`,
    );
  return {
    requestsPerSecond: Math.round(result.requests.average),
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    completed: result.requests.total,
    cpuMicrosPerExchange:
      before !== undefined && after !== undefined ? Math.round((after - before) / result.requests.total) : undefined,
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const figures: Record<string, unknown> = {};
try {
  const contracts = path.join(root, 'bin/contracts.js');
  const sandbox = await startServer([contracts, 'sandbox', '--port', '0']);
  const servers: Record<string, Server> = {
    direct: sandbox,
    contractsProxy: await startServer([
      contracts,
      'proxy',
      '--api',
      'client-session',
      '--target',
      sandbox.url,
      '--port',
      '0',
    ]),
    bareNodeHttpProxy: await startServer([path.join(root, 'bench/bare-proxy.mjs'), sandbox.url]),
    rawTcpRelay: await startServer([path.join(root, 'bench/raw-relay.mjs'), sandbox.url]),
    uncheckedProxy: await startServer(['--import', 'tsx', path.join(root, 'bench/unchecked-proxy.ts'), sandbox.url]),
  };
  const prismPort = 4600 + Math.floor(Math.random() * 300);
  const prism = await startServer(
    [
      prismBin,
      'proxy',
      path.join(root, 'specs/client-session.yaml'),
      sandbox.url,
      '-p',
      String(prismPort),
      '-h',
      '127.0.0.1',
      '-v',
      'fatal',
    ],
    `http://127.0.0.1:${prismPort}`,
  );
  // Prism prints nothing at -v fatal: wait until it answers (at most 20 s; without it, its row is left out).
  let answering = false;
  for (let tries = 0; tries < 200 && !answering; tries++) {
    answering = await fetch(`${prism.url}/client-session`, { headers }).then(
      (response) => response.ok,
      () => false,
    );
    if (!answering) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (answering) servers.prismProxy = prism;
  const loadBefore = os.loadavg()[0]!;
  const runs: Record<string, Run[]> = {};
  let completedThroughOurs = 0;
  for (const [name, server] of Object.entries(servers)) {
    const warm = await load(server, false);
    if (name === 'contractsProxy') completedThroughOurs += warm.completed;
  }
  const pairs: Record<string, number[]> = {};
  for (let index = 0; index < rounds; index++) {
    for (const [name, server] of Object.entries(servers)) {
      if (name === 'direct') continue;
      const direct = await load(servers.direct!, true);
      (runs.direct ??= []).push(direct);
      const run = await load(server, true);
      (runs[name] ??= []).push(run);
      (pairs[name] ??= []).push(round(run.requestsPerSecond / direct.requestsPerSecond, 3));
      if (name === 'contractsProxy') completedThroughOurs += run.completed;
    }
  }
  const loadAfter = os.loadavg()[0]!;
  // Ours stops as at Ctrl-C, judging every exchange still waiting, and says how many it judged.
  const ours = servers.contractsProxy!;
  const stopped = new Promise((resolve) => ours.child.once('exit', resolve));
  ours.child.kill('SIGINT');
  await stopped;
  const summary = /SIGINT: (\d+) exchanges: (\d+) conform, (\d+) fail.*?(?:, (\d+) cut off by the client)?$/m.exec(
    ours.output(),
  );
  const judgedAtOnce = Number(/(\d+) exchanges were checked while forwarding waited/.exec(ours.output())?.[1] ?? 0);
  if (!summary) throw new Error(`contracts proxy printed no summary: ${ours.output().slice(-500)}`);
  const [reported, conform, fail, cutOff] = summary.slice(1).map((value) => Number(value ?? 0)) as [
    number,
    number,
    number,
    number,
  ];
  // autocannon hangs up on the requests in flight when its time is up: those are the ones cut off by the client.
  if (fail > 0 || conform + cutOff !== reported || conform < completedThroughOurs)
    throw new Error(
      `contracts proxy judged ${reported} exchanges (${conform} conform, ${fail} fail, ${cutOff} cut off) for ${completedThroughOurs} answered`,
    );

  const row = (name: string) => {
    const list = runs[name]!;
    return {
      requestsPerSecond: median(list.map((run) => run.requestsPerSecond)),
      latencyP50Ms: median(list.map((run) => run.latencyP50Ms)),
      latencyP99Ms: median(list.map((run) => run.latencyP99Ms)),
      ...(name !== 'direct'
        ? {
            cpuMicrosPerExchange:
              list[0]!.cpuMicrosPerExchange === undefined
                ? undefined
                : median(list.map((run) => run.cpuMicrosPerExchange!)),
          }
        : {}),
    };
  };
  const ratios = (name: string) => pairs[name]!;
  figures.clientSession = {
    direct: row('direct'),
    contractsProxy: row('contractsProxy'),
    bareNodeHttpProxy: row('bareNodeHttpProxy'),
    rawTcpRelay: row('rawTcpRelay'),
    uncheckedProxy: row('uncheckedProxy'),
    ...(runs.prismProxy ? { prismProxy: row('prismProxy') } : {}),
    proxyToDirect: median(ratios('contractsProxy')),
    bareProxyToDirect: median(ratios('bareNodeHttpProxy')),
    rawRelayToDirect: median(ratios('rawTcpRelay')),
    // Our engine with the checks taken out: the most any proxy built on it reaches here, judging nothing.
    uncheckedProxyToDirect: median(ratios('uncheckedProxy')),
    // Ours beside the floor, round by round: what checking costs in throughput, whatever the direct figure.
    proxyToBareProxy: median(
      runs.contractsProxy!.map((run, index) =>
        round(run.requestsPerSecond / runs.bareNodeHttpProxy![index]!.requestsPerSecond, 3),
      ),
    ),
    ...(runs.prismProxy ? { prismProxyToDirect: median(ratios('prismProxy')) } : {}),
    roundRatios: {
      contractsProxy: ratios('contractsProxy'),
      bareNodeHttpProxy: ratios('bareNodeHttpProxy'),
      rawTcpRelay: ratios('rawTcpRelay'),
      uncheckedProxy: ratios('uncheckedProxy'),
      ...(runs.prismProxy ? { prismProxy: ratios('prismProxy') } : {}),
    },
    // Every exchange answered through our proxy was judged, none dropped; those judged while forwarding waited
    // (the check queue being full) are counted.
    checked: {
      answered: completedThroughOurs,
      judged: reported,
      cutOffByClient: cutOff,
      judgedWhileForwardingWaited: judgedAtOnce,
    },
    loadAverage: [round(loadBefore, 1), round(loadAfter, 1)],
  };
} finally {
  for (const child of children) if (child.exitCode === null) child.kill('SIGINT');
}
report('proxy-throughput', figures);
