// Benchmark: requests/s of `contracts fuzz` (generate, judge with the validators, send, check every answer) against
// the sandbox's GET /client-session, beside autocannon's requests/s on the same endpoint with the same concurrency
// (fuzz's default --workers, 4, against autocannon's 4 connections), and beside a bare loop of the runner's own
// HttpCapture.exchange with as many requests in flight (the transport fuzz uses), which bounds what fuzz can reach.
// The fuzz rate is marginal and warm: the time of a small run is subtracted from a large one's, so loading and
// compiling the spec is not counted, and both come after runs that let V8 optimise the code (the first thousands
// of requests of a process run unoptimised code at about half the speed: `firstRun` is a fresh process's first
// run, for that). Fuzz and autocannon then take turns, 5 rounds of a large fuzz run beside 2 s of autocannon: the
// figure is the median of the rounds' ratios, each of two runs a few seconds apart, so that the load of a shared
// machine, which drifts, weighs on both sides of each. Everything shares one process and its one thread, as a
// `contracts fuzz` run against the embedded sandbox: there fuzz is bound by CPU (node:http plus generating and
// judging each case, against autocannon's raw sockets).
// A second pair measures both through a proxy that holds each request 10 ms, as a staging server across a network
// would: there the requests in flight decide the rate, which is what --workers is for.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { FuzzRunner } from '../src/fuzz/run-fuzz.js';
import { fuzzPluginsOf } from '../src/plugins/registry.js';
import { HttpCapture } from '../src/http/http-capture.js';
import { startSandbox } from '../src/plugins/example-sandbox.js';
import { quick, report, round } from './bench-util.js';
import { seedProject } from '../src/config/seed-project.js';

const require = createRequire(import.meta.url);
const autocannon = require('autocannon') as (
  options: object,
) => Promise<{ requests: { average: number; total: number }; errors: number; non2xx: number }>;
const [small, large] = quick ? [10, 60] : [1000, 12_000];
const rounds = quick ? 1 : 5;
const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)]!;
const headers = { 'X-API-KEY': 'bench-key', 'X-API-VERSION': '2.4' };
const workers = 4;

const cpuMs = (usage: NodeJS.CpuUsage) => (usage.user + usage.system) / 1000;

const sandbox = await startSandbox({ port: 0, host: '127.0.0.1' });
try {
  const fuzz = async (examples: number, url = sandbox.url) => {
    const runner = new FuzzRunner({
      apis: [seedProject.api('client-session')],
      baseUrls: { 'client-session': url },
      phases: ['random'],
      maxExamples: examples,
      seed: 1,
      plugins: await fuzzPluginsOf(['client-session']),
      timeoutMs: 10_000,
      strict: false,
      readOnly: false,
      maxTimeMs: 600_000,
      rate: 0,
      marker: 'bench',
      env: {},
      log: () => undefined,
      addSecret: () => undefined,
      workers,
    });
    const started = performance.now();
    const cpu = process.cpuUsage();
    const run = await runner.run();
    if (run.error || run.failures.length > 0)
      throw new Error(`the fuzz run against the sandbox failed: ${run.error?.message ?? run.failures[0]?.message}`);
    return {
      requests: run.requests,
      seconds: (performance.now() - started) / 1000,
      cpuMs: cpuMs(process.cpuUsage(cpu)),
    };
  };
  const cannonCpu: number[] = [];
  const cannon = async (url = sandbox.url, warmUp = false) => {
    const cpu = process.cpuUsage();
    const result = await autocannon({
      url: `${url}/client-session`,
      connections: workers,
      duration: quick ? 1 : url === sandbox.url ? 2 : 4,
      headers,
    });
    if (result.errors > 0 || result.non2xx > 0)
      throw new Error(`autocannon: ${result.errors} errors, ${result.non2xx} non-2xx`);
    if (url === sandbox.url && !warmUp) cannonCpu.push(cpuMs(process.cpuUsage(cpu)) / result.requests.total);
    return result.requests.average;
  };

  // A fresh process's first run: the spec loaded and compiled, and the code not yet optimised.
  const first = await fuzz(quick ? small : 2000);
  // Warm-up: V8 optimises what the cases run (fuzz's code, the validators, the sandbox's) over a few thousand of them.
  await cannon(sandbox.url, true);
  for (let round = 0; round < (quick ? 1 : 3); round++) await fuzz(quick ? small : 4000);
  // A run's fixed cost (loading and compiling the spec, starting up): the time of a small run, median of three.
  const smalls: { requests: number; seconds: number; cpuMs: number }[] = [];
  for (let run = 0; run < 3; run++) smalls.push(await fuzz(small));
  const fixedSeconds = median(smalls.map((run) => run.seconds));
  const fixedCpuMs = median(smalls.map((run) => run.cpuMs));
  const fixedRequests = median(smalls.map((run) => run.requests));
  const cannonRates: number[] = [];
  const fuzzRates: number[] = [];
  const fuzzCpu: number[] = [];
  let requests = 0;
  const roundRatios: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const cannonRate = await cannon();
    const b = await fuzz(large);
    requests = b.requests;
    // With --quick the runs are too short for the difference to mean anything: the plain rate then.
    const marginal = !quick && b.seconds > fixedSeconds;
    const rate = marginal ? (b.requests - fixedRequests) / (b.seconds - fixedSeconds) : b.requests / b.seconds;
    cannonRates.push(cannonRate);
    fuzzRates.push(rate);
    // CPU time per request (this process: client and sandbox both) is what a busy machine disturbs least.
    fuzzCpu.push(marginal ? (b.cpuMs - fixedCpuMs) / (b.requests - fixedRequests) : b.cpuMs / b.requests);
    roundRatios.push(rate / cannonRate);
  }
  const fuzzPerSecond = median(fuzzRates);
  const cannonPerSecond = median(cannonRates);
  const fuzzCpuMs = median(fuzzCpu);

  const capture = new HttpCapture({ timeoutMs: 10_000 });
  const started = performance.now();
  let left = large;
  const loop = async () => {
    while (left-- > 0)
      await capture.exchange({ method: 'GET', url: `${sandbox.url}/client-session`, headers: Object.entries(headers) });
  };
  await Promise.all(Array.from({ length: workers }, loop));
  const capturePerSecond = large / ((performance.now() - started) / 1000);
  capture.close();

  const remote = await delayingProxy(sandbox.url, 10);
  const [near, far] = quick ? [5, 20] : [20, 400];
  const c = await fuzz(near, remote.url);
  const d = await fuzz(far, remote.url);
  const remoteFuzz =
    d.seconds > c.seconds && d.requests > c.requests
      ? (d.requests - c.requests) / (d.seconds - c.seconds)
      : d.requests / d.seconds;
  const remoteCannon = await cannon(remote.url);
  await remote.close();

  report('fuzz-throughput', {
    fuzz: { requests, requestsPerSecond: Math.round(fuzzPerSecond) },
    firstRun: { requests: first.requests, requestsPerSecond: Math.round(first.requests / first.seconds) },
    httpCaptureLoop: { requestsPerSecond: Math.round(capturePerSecond) },
    workers,
    autocannon: { connections: workers, requestsPerSecond: Math.round(cannonPerSecond) },
    fuzzToAutocannon: round(median(roundRatios), 3),
    roundRatios: roundRatios.map((ratio) => round(ratio, 3)),
    fuzzToHttpCapture: round(fuzzPerSecond / capturePerSecond, 3),
    behind10msLatency: {
      fuzz: Math.round(remoteFuzz),
      autocannon: Math.round(remoteCannon),
      fuzzToAutocannon: round(remoteFuzz / remoteCannon, 3),
    },
    cpuMsPerRequest: {
      fuzz: round(fuzzCpuMs, 3),
      autocannon: round(cannonCpu.reduce((sum, value) => sum + value, 0) / cannonCpu.length, 3),
    },
  });
} finally {
  await sandbox.stop();
}

/** A proxy that holds each request `ms` milliseconds before passing it on: a server across a network. */
async function delayingProxy(target: string, ms: number): Promise<{ url: string; close(): Promise<void> }> {
  const agent = new http.Agent({ keepAlive: true });
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () =>
      setTimeout(() => {
        const forward = http.request(
          `${target}${request.url}`,
          { method: request.method, headers: request.headers, agent },
          (answer) => {
            response.writeHead(answer.statusCode!, answer.headers);
            answer.pipe(response);
          },
        );
        forward.on('error', () => response.destroy());
        forward.end(Buffer.concat(chunks));
      }, ms),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      agent.destroy();
    },
  };
}
