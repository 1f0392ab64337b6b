// `npm run bench`: every benchmark in a process of its own, a table, and the figures as JSON with machine info in
// reports/bench-results.json (git ignores reports/, so a plain run leaves the tree clean). `--write` updates the
// committed bench/results.json instead; `--out FILE` writes anywhere. `--quick` runs each once on tiny inputs (what
// `npm test` does, so they cannot rot).
import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { quick, root } from './bench-util.js';
import { resultsPath } from './results-path.js';

const benchmarks = [
  'check-cost',
  'har-throughput',
  'github-load',
  'mock-throughput',
  'sandbox-throughput',
  'end-to-end',
  'fuzz-throughput',
  'proxy-throughput',
  'start-up',
  'stateful-vs-prism',
  'lint-speed',
];
const out = resultsPath(process.argv, root);

// The load average says how busy the machine was: ratios measured at a load above the core count are noisy.
const loadBefore = os.loadavg()[0]!;
const results: Record<string, unknown> = {};
let failed = false;
for (const name of benchmarks) {
  process.stderr.write(`running ${name}${quick ? ' (quick)' : ''}…\n`);
  const started = Date.now();
  const { code, stdout, stderr } = await run(path.join(root, 'bench', `${name}.ts`));
  const line = stdout.split('\n').find((text) => text.startsWith('BENCH_RESULT '));
  if (code !== 0 || !line) {
    failed = true;
    process.stderr.write(`${name} failed (exit ${code}):\n${stderr.slice(-2000)}\n`);
    continue;
  }
  results[name] = {
    ...(JSON.parse(line.slice('BENCH_RESULT '.length)) as { figures: object }).figures,
    wallSeconds: (Date.now() - started) / 1000,
  };
}

const machine = {
  cpu: os.cpus()[0]?.model ?? 'unknown',
  cores: os.cpus().length,
  memoryGb: Math.round(os.totalmem() / 2 ** 30),
  node: process.version,
  platform: `${os.platform()} ${os.release()}`,
  loadAverage: [loadBefore, os.loadavg()[0]!].map((load) => Math.round(load * 10) / 10),
};
await mkdir(path.dirname(out), { recursive: true });
await writeFile(out, JSON.stringify({ date: new Date().toISOString(), quick, machine, results }, null, 2) + '\n');
process.stdout.write(
  table(results) +
    `\n\nmachine: ${machine.cpu}, ${machine.cores} cores, Node ${machine.node}, load average ${machine.loadAverage.join(' → ')}\nwritten: ${path.relative(process.cwd(), out)}\n`,
);
process.exitCode = failed ? 1 : 0;

function run(file: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', file, ...(quick ? ['--quick'] : [])], {
      cwd: root,
      env: { ...process.env, SCARF_ANALYTICS: 'false' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

function table(all: Record<string, any>): string {
  const rows: [string, string, string][] = [];
  const cost = all['check-cost'];
  if (cost) {
    const spread = (key: string) => (cost.spread?.[key] ? ` [rounds ${cost.spread[key].join('–')}]` : '');
    rows.push([
      'check one response (all checks)',
      `${cost.contractsCheck.nsPerOp} ns (${cost.contractsCheck.opsPerSecond} ops/s)`,
      `${cost.ratios.checkVsJsonParse}× JSON.parse (${cost.jsonParse.nsPerOp} ns) of the same ${cost.bodyBytes} B body${spread('checkVsJsonParse')}`,
    ]);
    if (cost.moreRatios) {
      rows.push([
        '  schema validation alone',
        `${cost.schemaValidationOnly.nsPerOp} ns`,
        `${cost.moreRatios.schemaValidationVsJsonParse}× JSON.parse`,
      ]);
      rows.push([
        '  duplicate-key scan alone',
        `${cost.duplicateKeyScanOnly.nsPerOp} ns`,
        `${cost.moreRatios.duplicateKeyScanVsJsonParse}× JSON.parse`,
      ]);
      rows.push([
        '  a failing body (all checks)',
        `${cost.contractsCheckFailingBody.nsPerOp} ns`,
        `${cost.moreRatios.failingVsConforming}× the conforming body (${cost.failingBodyFindings} findings)${spread('failingVsConforming')}`,
      ]);
    }
    rows.push([
      '  openapi-response-validator',
      `${cost.openapiResponseValidator.nsPerOp} ns`,
      `${cost.ratios.openapiResponseValidatorVsCheck}× our time${cost.moreRatios ? ` (ours is ${cost.moreRatios.checkVsOpenapiResponseValidator}× theirs)${spread('checkVsOpenapiResponseValidator')}` : ''}`,
    ]);
    rows.push([
      '  Prism validateOutput',
      `${cost.prismValidateOutput.nsPerOp} ns`,
      `${cost.ratios.prismVsCheck}× our time`,
    ]);
  }
  const har = all['har-throughput'];
  if (har) {
    for (const [size, figures] of Object.entries<any>(har)) {
      if (typeof figures !== 'object' || !figures || !('exchanges' in figures)) continue;
      const beside =
        figures.ratioToJsonParse === undefined
          ? ''
          : `${figures.ratioToJsonParse}× JSON.parse of the file (${figures.jsonParseSeconds} s, ${figures.jsonParsePeakRssMb} MB); one thread ${figures.singleThreadSeconds} s (${figures.singleThreadRatioToJsonParse}×), ${figures.singleThreadPeakRssMb} MB`;
      rows.push([
        `validate --har, ${size} exchanges (${figures.fileMb} MB), ${figures.jobs ?? 1} workers`,
        `${figures.checkSeconds} s, ${figures.exchangesPerSecond} ex/s, ${figures.checkPeakRssMb} MB peak`,
        beside,
      ]);
    }
  }
  const github = all['github-load'];
  if (github) {
    rows.push([
      `load + first validation, ${github.spec} (${github.fileMb} MB)`,
      `${github.loadAndValidateSeconds} s, ${github.loadAndValidatePeakRssMb} MB peak`,
      `${github.ratioToJsonParse}× JSON.parse of the file (${github.jsonParseSeconds} s, ${github.jsonParsePeakRssMb} MB); RSS ${github.rssRatioToJsonParse}× [runs ${github.runRatios.join(', ')}]`,
    ]);
  }
  const mock = all['mock-throughput'];
  if (mock) {
    for (const api of ['clientSession', 'repositoryWebhooks']) {
      const m = mock[api];
      rows.push([
        `Prism mock, ${api}`,
        `${m.prism.requestsPerSecond} req/s, p50 ${m.prism.latencyP50Ms} ms, p99 ${m.prism.latencyP99Ms} ms`,
        `${m.prismToBareThroughput}× bare node:http (${m.bareNodeHttp.requestsPerSecond} req/s)`,
      ]);
    }
    rows.push(['contracts mock start to both answering', `${mock.startupSeconds} s`, '']);
  }
  const sandbox = all['sandbox-throughput'];
  if (sandbox) {
    for (const [name, label] of [
      ['oneHook', 'GET one hook'],
      ['listOf30Hooks', 'GET a list of 30 hooks'],
    ] as const) {
      const s = sandbox[name];
      if (s)
        rows.push([
          `sandbox, ${label} (${s.bodyBytes} B)`,
          `${s.sandbox.requestsPerSecond} req/s, p50 ${s.sandbox.latencyP50Ms} ms, p99 ${s.sandbox.latencyP99Ms} ms`,
          `${s.sandboxToBareThroughput}× bare node:http (${s.bareNodeHttp.requestsPerSecond} req/s) [runs ${s.runRatios.join(', ')}]`,
        ]);
    }
  }
  const versus = all['stateful-vs-prism'];
  if (versus) {
    for (const [name, label] of [
      ['getStoredItem', 'GET of a stored item'],
      ['create', 'a create (POST)'],
    ] as const) {
      const v = versus[name];
      rows.push([
        `sandbox --spec vs Prism mock, ${label}, ${versus.spec}`,
        `${v.sandbox.requestsPerSecond} req/s, p50 ${v.sandbox.latencyP50Ms} ms, p99 ${v.sandbox.latencyP99Ms} ms`,
        `${v.sandboxToPrism}× Prism (${v.prism.requestsPerSecond} req/s, p99 ${v.prism.latencyP99Ms} ms) [runs ${v.runRatios.join(', ')}]`,
      ]);
    }
    const github = versus.githubStartUp;
    rows.push([
      `sandbox --spec start to first answer${versus.built ? ' (built)' : ''}: ${versus.spec}${github ? ' / GitHub' : ''}`,
      `${versus.startUp.sandboxSeconds} s${github ? ` / ${github.sandboxSeconds} s` : ''}`,
      `Prism ${versus.startUp.prismSeconds} s${github ? ` / ${typeof github.prismSeconds === 'number' ? `${github.prismSeconds} s` : github.prismSeconds}` : ''}`,
    ]);
  }
  const startUp = all['start-up'];
  if (startUp) {
    rows.push([
      'contracts validate of one body, cold, built (dist/): spec parsed before / first parse',
      `${startUp.validateBuiltSeconds} s / ${startUp.validateBuiltFirstSeconds} s`,
      `${startUp.validateBuiltRatio}× / ${startUp.validateBuiltFirstRatio}× node -e 0 (${startUp.nodeE0Seconds} s)`,
    ]);
    rows.push([
      'contracts validate of one body, cold, from source (tsx): spec parsed before / first parse',
      `${startUp.validateSeconds} s / ${startUp.validateFirstSeconds} s`,
      `${startUp.ratioToNodeE0}× / ${startUp.validateFirstRatio}× node -e 0; tsx alone ${startUp.tsxE0Seconds} s`,
    ]);
    rows.push([
      'contracts --version, cold, built / from source',
      `${startUp.versionBuiltSeconds} s / ${startUp.versionSeconds} s`,
      `${startUp.versionBuiltRatio}× / ${startUp.versionRatio}× node -e 0`,
    ]);
  }
  const e2e = all['end-to-end'];
  if (e2e) {
    rows.push([
      'check --api all, embedded mocks',
      `${e2e.checkAgainstMocks.seconds} s`,
      `passed/failed/skipped ${e2e.checkAgainstMocks.passedFailedSkipped?.join('/')}`,
    ]);
    rows.push([
      'check --api all, sandbox',
      `${e2e.checkAgainstSandbox.seconds} s`,
      `passed/failed/skipped ${e2e.checkAgainstSandbox.passedFailedSkipped?.join('/')}`,
    ]);
  }
  const fuzz = all['fuzz-throughput'];
  if (fuzz) {
    rows.push([
      `contracts fuzz vs the sandbox, --workers ${fuzz.workers} / ${fuzz.autocannon.connections} connections`,
      `${fuzz.fuzz.requestsPerSecond} req/s`,
      `${fuzz.fuzzToAutocannon}× autocannon (${fuzz.autocannon.requestsPerSecond} req/s), ${fuzz.fuzzToHttpCapture}× our bare transport loop (${fuzz.httpCaptureLoop.requestsPerSecond} req/s)${fuzz.roundRatios ? ` [rounds ${fuzz.roundRatios.join(', ')}]` : ''}; a fresh process's first ${fuzz.firstRun?.requests ?? '?'} cases ${fuzz.firstRun?.requestsPerSecond ?? '?'} req/s`,
    ]);
    if (fuzz.behind10msLatency)
      rows.push([
        `the same behind 10 ms of latency (a server across a network)`,
        `${fuzz.behind10msLatency.fuzz} req/s`,
        `${fuzz.behind10msLatency.fuzzToAutocannon}× autocannon (${fuzz.behind10msLatency.autocannon} req/s)`,
      ]);
  }
  const proxy = all['proxy-throughput'];
  if (proxy) {
    const p = proxy.clientSession;
    rows.push([
      'contracts proxy, client-session',
      `${p.contractsProxy.requestsPerSecond} req/s, p50 ${p.contractsProxy.latencyP50Ms} ms, p99 ${p.contractsProxy.latencyP99Ms} ms`,
      `${p.proxyToDirect}× direct to the sandbox (${p.direct.requestsPerSecond} req/s); bare node:http proxy ${p.bareProxyToDirect}×${p.proxyToBareProxy ? ` (ours ${p.proxyToBareProxy}× bare)` : ''}${p.uncheckedProxyToDirect ? `; our engine without checks ${p.uncheckedProxyToDirect}×` : ''}${p.rawRelayToDirect ? `; TCP relay (no HTTP) ${p.rawRelayToDirect}×` : ''}${p.prismProxy ? `; Prism proxy ${p.prismProxyToDirect}×` : ''}${p.roundRatios ? ` [rounds ${p.roundRatios.contractsProxy.join(', ')}]` : ''}${p.contractsProxy.cpuMicrosPerExchange ? `; proxy CPU per exchange ${p.contractsProxy.cpuMicrosPerExchange} µs, bare ${p.bareNodeHttpProxy.cpuMicrosPerExchange} µs${p.uncheckedProxy ? `, without checks ${p.uncheckedProxy.cpuMicrosPerExchange} µs` : ''}${p.rawTcpRelay ? `, relay ${p.rawTcpRelay.cpuMicrosPerExchange} µs` : ''}` : ''}`,
    ]);
  }
  const lint = all['lint-speed'];
  if (lint) {
    for (const [spec, f] of Object.entries<any>(lint)) {
      if (typeof f !== 'object' || !f?.contracts) continue;
      const tool = (t: any) =>
        `${t.cpuSeconds} s CPU (${t.wallSeconds} s wall, ${t.peakRssMb} MB, ${t.findings} findings)`;
      rows.push([
        `contracts lint ${spec} (${f.specMb} MB)`,
        tool(f.contracts),
        `${f.cpuRatioToRedocly}× Redocly CLI's CPU: ${tool(f.redocly)}; ${f.cpuRatioToSpectral}× Spectral CLI's: ${tool(f.spectral)}`,
      ]);
    }
  }
  const widths = [0, 1].map((i) => Math.max(...rows.map((row) => row[i]!.length)));
  return rows.map((row) => `${row[0].padEnd(widths[0]!)}  ${row[1].padEnd(widths[1]!)}  ${row[2]}`).join('\n');
}
