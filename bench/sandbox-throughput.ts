// Benchmark: requests/s of the sandbox under autocannon (10 connections) for GET of one hook and GET of a list
// of 30 hooks, beside a bare node:http server sending the same bytes (status, content type, body) in the same
// run. Both servers run in this process, as does autocannon, so the ratio compares like with like.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startSandbox } from '../src/plugins/example-sandbox.js';
import { autocannon, quick, report, round } from './bench-util.js';

const duration = quick ? 1 : 6;
const hookCount = 30;

const sandbox = await startSandbox({ port: 0 });
const figures: Record<string, unknown> = {};
try {
  const hooksUrl = `${sandbox.url}/repos/octo/app/hooks`;
  for (let index = 0; index < hookCount; index++) {
    const created = await fetch(hooksUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'web',
        active: false,
        events: ['push'],
        config: { url: `https://example.com/hook/${index}`, content_type: 'json' },
      }),
    });
    if (created.status !== 201) throw new Error(`creating hook ${index}: ${created.status} ${await created.text()}`);
  }
  const targets = { oneHook: `/repos/octo/app/hooks/1`, listOf30Hooks: `/repos/octo/app/hooks?per_page=${hookCount}` };
  const recorded = new Map<string, { body: Buffer; contentType: string; link: string | null }>();
  for (const target of Object.values(targets)) {
    const response = await fetch(sandbox.url + target);
    if (response.status !== 200) throw new Error(`GET ${target}: ${response.status}`);
    recorded.set(target, {
      body: Buffer.from(await response.arrayBuffer()),
      contentType: response.headers.get('content-type')!,
      link: response.headers.get('link'),
    });
  }
  if ((JSON.parse(recorded.get(targets.listOf30Hooks)!.body.toString()) as unknown[]).length !== hookCount)
    throw new Error('the list does not hold every hook');

  const bare = http.createServer((request, response) => {
    const answer = recorded.get(request.url ?? '')!;
    response.writeHead(200, {
      'content-type': answer.contentType,
      'content-length': answer.body.length,
      ...(answer.link ? { link: answer.link } : {}),
    });
    response.end(answer.body);
  });
  await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
  const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}`;

  const load = async (url: string) => {
    const result = await autocannon({ url, connections: 10, duration });
    if (result.errors > 0 || result.non2xx > 0 || result.timeouts > 0)
      throw new Error(`load on ${url}: ${result.errors} errors, ${result.non2xx} non-2xx, ${result.timeouts} timeouts`);
    return {
      requestsPerSecond: Math.round(result.requests.average),
      latencyP50Ms: result.latency.p50,
      latencyP99Ms: result.latency.p99,
    };
  };
  for (const [name, target] of Object.entries(targets)) {
    // Alternated, twice each (means; the worst latency), so a change in the machine's load falls on both servers alike.
    const runs = quick ? 1 : 2;
    type Run = Awaited<ReturnType<typeof load>>;
    const sandboxRuns: Run[] = [];
    const bareRuns: Run[] = [];
    for (let run = 0; run < runs; run++) {
      sandboxRuns.push(await load(sandbox.url + target));
      bareRuns.push(await load(bareUrl + target));
    }
    const mean = (list: Run[]): Run => ({
      requestsPerSecond: Math.round(list.reduce((sum, run) => sum + run.requestsPerSecond, 0) / list.length),
      latencyP50Ms: Math.max(...list.map((run) => run.latencyP50Ms)),
      latencyP99Ms: Math.max(...list.map((run) => run.latencyP99Ms)),
    });
    const [ours, theirs] = [mean(sandboxRuns), mean(bareRuns)];
    figures[name] = {
      bodyBytes: recorded.get(target)!.body.length,
      sandbox: ours,
      bareNodeHttp: theirs,
      sandboxToBareThroughput: round(ours.requestsPerSecond / theirs.requestsPerSecond, 3),
      runRatios: sandboxRuns.map((run, index) => round(run.requestsPerSecond / bareRuns[index]!.requestsPerSecond, 3)),
    };
  }
  await new Promise((resolve) => bare.close(resolve));
} finally {
  await sandbox.stop();
}
report('sandbox-throughput', figures);
