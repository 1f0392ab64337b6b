// Benchmark: requests/s of `contracts fuzz` (generate, judge with the validators, send, check every answer) against
// the sandbox's GET /client-session, beside autocannon's requests/s on the same endpoint with the same concurrency
// (fuzz's default --workers, 4, against autocannon's 4 connections), and beside a bare loop of the runner's own
// HttpCapture.exchange with as many requests in flight (the transport fuzz uses), which bounds what fuzz can reach.
// The fuzz rate is marginal: a small run is subtracted from a large one, so loading and compiling the spec is not
// counted. Everything shares one process and its one thread, as a `contracts fuzz` run against the embedded sandbox.
import { createRequire } from 'node:module';
import { FuzzRunner } from '../src/fuzz/run-fuzz.js';
import { HttpCapture } from '../src/runner/http-capture.js';
import { startSandbox } from '../src/sandbox/start-sandbox.js';
import { quick, report, round } from './bench-util.js';

const require = createRequire(import.meta.url);
const autocannon = require('autocannon') as (options: object) => Promise<{ requests: { average: number }; errors: number; non2xx: number }>;
const [small, large] = quick ? [10, 60] : [100, 2000];
const headers = { 'X-API-KEY': 'bench-key', 'X-API-VERSION': '2.4' };
const workers = 4;

const sandbox = await startSandbox({ port: 0, host: '127.0.0.1' });
try {
  const fuzz = async (examples: number) => {
    const runner = new FuzzRunner({
      apis: ['client-session'], baseUrls: { 'client-session': sandbox.url }, phases: ['random'], maxExamples: examples, seed: 1, owner: 'octo', repo: 'app',
      hookUrl: 'http://127.0.0.1:9/contracts-check', timeoutMs: 10_000, strict: false, readOnly: false, maxTimeMs: 600_000, rate: 0, marker: 'bench',
      env: {}, log: () => undefined, addSecret: () => undefined, workers,
    });
    const started = performance.now();
    const run = await runner.run();
    if (run.error || run.failures.length > 0) throw new Error(`the fuzz run against the sandbox failed: ${run.error?.message ?? run.failures[0]?.message}`);
    return { requests: run.requests, seconds: (performance.now() - started) / 1000 };
  };
  const a = await fuzz(small);
  const b = await fuzz(large);
  // With --quick the runs are too short for the difference to mean anything: the plain rate then.
  const fuzzPerSecond = b.seconds > a.seconds && b.requests > a.requests ? (b.requests - a.requests) / (b.seconds - a.seconds) : b.requests / b.seconds;

  const capture = new HttpCapture({ timeoutMs: 10_000 });
  const started = performance.now();
  let left = large;
  const loop = async () => {
    while (left-- > 0) await capture.exchange({ method: 'GET', url: `${sandbox.url}/client-session`, headers: Object.entries(headers) });
  };
  await Promise.all(Array.from({ length: workers }, loop));
  const capturePerSecond = large / ((performance.now() - started) / 1000);
  capture.close();

  const load = await autocannon({ url: `${sandbox.url}/client-session`, connections: workers, duration: quick ? 1 : 8, headers });
  if (load.errors > 0 || load.non2xx > 0) throw new Error(`autocannon: ${load.errors} errors, ${load.non2xx} non-2xx`);
  report('fuzz-throughput', {
    fuzz: { requests: b.requests, requestsPerSecond: Math.round(fuzzPerSecond) },
    httpCaptureLoop: { requestsPerSecond: Math.round(capturePerSecond) },
    workers,
    autocannon: { connections: workers, requestsPerSecond: Math.round(load.requests.average) },
    fuzzToAutocannon: round(fuzzPerSecond / load.requests.average, 3),
    fuzzToHttpCapture: round(fuzzPerSecond / capturePerSecond, 3),
  });
} finally {
  await sandbox.stop();
}
