// Benchmark (issue #47, Speed): the stateful sandbox of a spec (`contracts sandbox --spec`) beside Prism's mock of
// the same spec (`prism mock`, bare: no front of ours), same machine, same run. Each server in a process of its own,
// autocannon (10 connections) in this one. Two loads: a GET of a stored item (ours reads the note it stored; Prism
// answers its example for the same URL) and a create (POST of a valid note; ours stores each). Alternated runs, so a
// change in the machine's load falls on both alike; every answer of every load must be 2xx. Then the time from
// spawn to the first answer, on the same spec and on GitHub's description (13 MB), Prism's capped, and where ours
// goes on GitHub's, phase by phase (sandbox-start-phases.ts; on the small spec with --quick).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import { stopChild } from '../src/mock/start-mocks.js';
import { autocannon, quick, report, round, root } from './bench-util.js';

const require = createRequire(import.meta.url);
const prismBin = path.join(path.dirname(require.resolve('@stoplight/prism-cli/package.json')), 'dist/index.js');
const contractsBin = path.join(root, 'bin/contracts.js');
const specFile = path.join(root, 'tests/fixtures/planted/notes/openapi.yaml');
const githubFile = path.join(root, 'node_modules/@octokit/openapi/generated/api.github.com.json');
const duration = quick ? 1 : 5;
const runs = quick ? 1 : 3;
const auth = { authorization: 'Bearer bench-token' };
/** USER_HZ: 100 on every Linux Node runs on (sysconf(_SC_CLK_TCK)); Node has no call for it. */
const ticksPerSecond = 100;

const note = JSON.stringify({ title: 'Groceries', body: 'Milk, eggs', tags: ['home'], pinned: false });
// The built command line (dist/, as installed) when this checkout has one: start-up.ts builds it earlier in the run.
const hasBuild = existsSync(path.join(root, 'dist/cli/run-cli.js'));
const built = { CONTRACTS_BUILT: process.env.BENCH_FROM_SOURCE === '1' || !hasBuild ? '0' : '1' };

interface Server {
  url: string;
  child: ChildProcess;
  secondsToFirstAnswer: number;
}

const ours = await startOurs(specFile);
const prism = await startPrism(specFile);
const figures: Record<string, unknown> = {};
try {
  const created = await fetch(`${ours.url}/notes`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: note,
  });
  if (created.status !== 201) throw new Error(`create on the sandbox: ${created.status} ${await created.text()}`);
  const stored = (await created.json()) as { id: string };
  const loads = {
    getStoredItem: { method: 'GET', path: `/notes/${stored.id}`, headers: {} },
    create: { method: 'POST', path: '/notes', headers: { ...auth, 'content-type': 'application/json' }, body: note },
  };
  for (const [name, load] of Object.entries(loads)) {
    const sandboxRuns: Run[] = [];
    const prismRuns: Run[] = [];
    for (let run = 0; run < runs; run++) {
      sandboxRuns.push(await hammer(ours, load));
      prismRuns.push(await hammer(prism, load));
    }
    const [sandbox, theirs] = [mean(sandboxRuns), mean(prismRuns)];
    figures[name] = {
      request: `${load.method} ${load.path}`,
      sandbox,
      prism: theirs,
      sandboxToPrism: round(sandbox.requestsPerSecond / theirs.requestsPerSecond, 2),
      runRatios: sandboxRuns.map((one, index) => round(one.requestsPerSecond / prismRuns[index]!.requestsPerSecond, 2)),
      // Each server's CPU time per answer (its process's, from /proc): what a busy shared machine changes least, as
      // a descheduled server loses wall time, not CPU time. Prism's over ours, the median of the runs' ratios.
      cpuRatio: median(
        sandboxRuns.flatMap((one, index) => {
          const theirs = prismRuns[index]!.cpuMicrosPerRequest;
          return one.cpuMicrosPerRequest && theirs ? [theirs / one.cpuMicrosPerRequest] : [];
        }),
      ),
    };
  }
  figures.spec = path.relative(root, specFile);
  figures.startUp = {
    sandboxSeconds: round(ours.secondsToFirstAnswer, 3),
    prismSeconds: round(prism.secondsToFirstAnswer, 3),
  };
} finally {
  await Promise.all([stopChild(ours.child), stopChild(prism.child)]);
}
figures.githubStartUp = quick ? undefined : await githubStartUp();
figures.startUpPhases = quick
  ? { spec: path.relative(root, specFile), ...(await startUpPhases(specFile, '/notes/note_abcdefghijkl')) }
  : { spec: path.relative(root, githubFile), ...(await startUpPhases(githubFile, '/')) };
figures.built = built.CONTRACTS_BUILT === '1';
report('stateful-vs-prism', figures);

type Run = {
  requestsPerSecond: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  /** The server process's CPU time (user + system) per answer; undefined where /proc is not there. */
  cpuMicrosPerRequest?: number | undefined;
};

async function hammer(server: Server, load: { method: string; path: string; headers: object; body?: string }) {
  const base = server.url;
  const cpuBefore = await cpuMicros(server.child.pid);
  const result = await autocannon({
    url: base + load.path,
    connections: 10,
    duration,
    method: load.method,
    headers: load.headers,
    ...(load.body ? { body: load.body } : {}),
  });
  if (result.errors > 0 || result.non2xx > 0 || result.timeouts > 0)
    throw new Error(
      `${load.method} ${base}${load.path}: ${result.errors} errors, ${result.non2xx} non-2xx, ${result.timeouts} timeouts`,
    );
  const cpuAfter = await cpuMicros(server.child.pid);
  return {
    requestsPerSecond: Math.round(result.requests.average),
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    cpuMicrosPerRequest:
      cpuBefore === undefined || cpuAfter === undefined || result.requests.total === 0
        ? undefined
        : round((cpuAfter - cpuBefore) / result.requests.total, 1),
  };
}

/** A process's CPU time so far in µs (user + system, proc(5): /proc/PID/stat fields 14 and 15, in clock ticks). */
async function cpuMicros(pid: number | undefined): Promise<number | undefined> {
  if (pid === undefined) return undefined;
  const { readFile } = await import('node:fs/promises');
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  // The command name (field 2) is in parentheses and may hold spaces: fields are counted after its closing one.
  const fields = stat?.slice(stat.lastIndexOf(')') + 2).split(' ');
  if (!fields) return undefined;
  const ticks = Number(fields[11]) + Number(fields[12]);
  return Number.isFinite(ticks) ? (ticks * 1e6) / ticksPerSecond : undefined;
}

function median(values: number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return round(sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2, 2);
}

function mean(list: Run[]): Run {
  const cpu = list.map((run) => run.cpuMicrosPerRequest);
  return {
    requestsPerSecond: Math.round(list.reduce((sum, run) => sum + run.requestsPerSecond, 0) / list.length),
    latencyP50Ms: Math.max(...list.map((run) => run.latencyP50Ms)),
    latencyP99Ms: Math.max(...list.map((run) => run.latencyP99Ms)),
    cpuMicrosPerRequest: cpu.every((value) => value !== undefined) ? median(cpu as number[]) : undefined,
  };
}

/** `contracts sandbox --spec FILE`, timed from spawn to its first answer (of an operation of the spec). */
async function startOurs(file: string, probe = '/notes/note_abcdefghijkl', limitMs = 60_000): Promise<Server> {
  const started = process.hrtime.bigint();
  const child = spawn(process.execPath, [contractsBin, 'sandbox', '--spec', file, '--port', '0'], {
    cwd: root,
    env: { ...process.env, SCARF_ANALYTICS: 'false', ...built },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`the sandbox did not start: ${output}`)), limitMs);
    child.once('exit', (code) => reject(new Error(`the sandbox exited ${code}: ${output}`)));
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
      const found = /(http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (found) {
        clearTimeout(timer);
        resolve(found[1]!);
      }
    };
    child.stdout!.on('data', collect);
    child.stderr!.on('data', collect);
  });
  await firstAnswer(url + probe, started, limitMs);
  return { url, child, secondsToFirstAnswer: Number(process.hrtime.bigint() - started) / 1e9 };
}

/** `prism mock FILE` on a free port, timed from spawn to its first answer; undefined when not within limitMs. */
async function startPrism(file: string, probe = '/notes/note_abcdefghijkl', limitMs = 60_000): Promise<Server> {
  const port = await freePort();
  const started = process.hrtime.bigint();
  const child = spawn(
    process.execPath,
    [prismBin, 'mock', '-p', String(port), '-h', '127.0.0.1', '-v', 'fatal', file],
    {
      cwd: root,
      env: { ...process.env, SCARF_ANALYTICS: 'false', FORCE_COLOR: '0' },
      stdio: 'ignore',
    },
  );
  const url = `http://127.0.0.1:${port}`;
  try {
    await firstAnswer(url + probe, started, limitMs, child);
  } catch (error) {
    await stopChild(child);
    throw error;
  }
  return { url, child, secondsToFirstAnswer: Number(process.hrtime.bigint() - started) / 1e9 };
}

async function firstAnswer(url: string, started: bigint, limitMs: number, child?: ChildProcess): Promise<void> {
  for (;;) {
    if (child && child.exitCode !== null) throw new Error(`${url}: the server exited ${child.exitCode}`);
    const answered = await fetch(url).then(
      async (response) => (await response.arrayBuffer(), response.status < 500),
      () => false,
    );
    if (answered) return;
    if (Number(process.hrtime.bigint() - started) / 1e6 > limitMs)
      throw new Error(`${url}: no answer in ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Spawn to first answer on GitHub's description (GET /, its meta root): ours, then Prism capped at 60 s. */
async function githubStartUp() {
  const sandbox = await startOurs(githubFile, '/', 60_000);
  await stopChild(sandbox.child);
  const prismSeconds = await startPrism(githubFile, '/', 60_000).then(
    async (server) => (await stopChild(server.child), round(server.secondsToFirstAnswer, 3)),
    () => 'no answer within 60 s',
  );
  return { sandboxSeconds: round(sandbox.secondsToFirstAnswer, 3), prismSeconds };
}

/** Where the start-up goes, phase by phase (sandbox-start-phases.ts), in a fresh process of its own. */
function startUpPhases(file: string, probe: string): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(root, 'bench/sandbox-start-phases.ts'), file, probe],
      {
        cwd: root,
        env: { ...process.env, SCARF_ANALYTICS: 'false' },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) =>
      code === 0
        ? resolve(JSON.parse(output.trim().split('\n').at(-1)!) as Record<string, unknown>)
        : reject(new Error(`sandbox-start-phases.ts exited ${code}`)),
    );
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
