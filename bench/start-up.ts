// Benchmark: the wall time of `contracts validate` of one small body and of `contracts --version` from a cold
// process, from source (through tsx, as the checkout runs) and built (dist/, as the installed package runs), beside
// `node -e 0` (Node's own start) and tsx loading an empty module (the cost of running TypeScript directly), in
// alternating runs; medians. The bar: built, each at most 3× node -e 0.
import { spawnSync } from 'node:child_process';
import { writeFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { quick, report, round, root, runChild } from './bench-util.js';

const runs = quick ? 1 : 7;
// dist/ as `npm pack` would ship it, built from this checkout first.
const build = spawnSync(process.execPath, ['--import', 'tsx', path.join(root, 'scripts/build.ts')], { cwd: root });
if (build.status !== 0) throw new Error(`npm run build failed: ${build.stdout}${build.stderr}`);
const dir = await mkdtemp(path.join(tmpdir(), 'contracts-bench-start-'));
try {
  const body = path.join(dir, 'hook.json');
  const empty = path.join(dir, 'empty.ts');
  await writeFile(
    body,
    JSON.stringify({
      type: 'Repository',
      id: 1,
      name: 'web',
      active: true,
      events: ['push'],
      config: { url: 'https://example.com/hook', content_type: 'json' },
      updated_at: '2026-11-21T11:24:38Z',
      created_at: '2026-11-21T11:24:38Z',
      url: 'https://api.github.com/repos/o/r/hooks/1',
      test_url: 'https://api.github.com/repos/o/r/hooks/1/test',
      ping_url: 'https://api.github.com/repos/o/r/hooks/1/pings',
      deliveries_url: 'https://api.github.com/repos/o/r/hooks/1/deliveries',
      last_response: { code: null, status: 'unused', message: null },
    }),
  );
  await writeFile(empty, 'export {};\n');
  const validate = [
    path.join(root, 'bin/contracts.js'),
    'validate',
    ...['--api', 'repository-webhooks', '--method', 'GET', '--path', '/repos/o/r/hooks/1', '--status', '200'],
    ...['--header', 'Content-Type: application/json', '--body', body],
  ];
  const version = [path.join(root, 'bin/contracts.js'), '--version'];
  // The spec parsed before (the parse cache, src/core/parse-cache.ts), as in every run after a spec's first; and
  // never parsed before (CONTRACTS_CACHE=off), as in a spec's first run.
  const cache = { CONTRACTS_CACHE_DIR: path.join(dir, 'parse-cache') };
  const noCache = { CONTRACTS_CACHE: 'off' };
  const built = { CONTRACTS_BUILT: '1' };
  const commands = {
    validate: { args: validate, env: cache },
    validateBuilt: { args: validate, env: { ...built, ...cache } },
    validateFirst: { args: validate, env: noCache },
    validateBuiltFirst: { args: validate, env: { ...built, ...noCache } },
    version: { args: version, env: {} },
    versionBuilt: { args: version, env: built },
    nodeE0: { args: ['-e', '0'], env: {} },
    tsxE0: { args: ['--import', 'tsx', empty], env: {} },
  };
  type Name = keyof typeof commands;
  const seconds = Object.fromEntries(Object.keys(commands).map((name) => [name, [] as number[]])) as Record<
    Name,
    number[]
  >;
  let findings = '';
  // Fills the cache the cached runs read.
  const first = await runChild(process.execPath, validate, { env: { ...built, ...cache } as NodeJS.ProcessEnv });
  if (first.code !== 0) throw new Error(`validate exited ${first.code}: ${first.stdout}${first.stderr}`);
  for (let run = 0; run < runs; run++) {
    for (const [name, { args, env }] of Object.entries(commands) as [Name, { args: string[]; env: object }][]) {
      const result = await runChild(process.execPath, args, { env: env as NodeJS.ProcessEnv });
      if (result.code !== 0) throw new Error(`${name} exited ${result.code}: ${result.stdout}${result.stderr}`);
      if (name === 'validate') findings = result.stdout.trim().split('\n')[0] ?? '';
      seconds[name].push(result.seconds);
    }
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const m = Object.fromEntries(Object.entries(seconds).map(([name, values]) => [name, median(values)])) as Record<
    Name,
    number
  >;
  report('start-up', {
    validateSeconds: round(m.validate, 3),
    validateBuiltSeconds: round(m.validateBuilt, 3),
    versionSeconds: round(m.version, 3),
    versionBuiltSeconds: round(m.versionBuilt, 3),
    nodeE0Seconds: round(m.nodeE0, 3),
    tsxE0Seconds: round(m.tsxE0, 3),
    validateFirstSeconds: round(m.validateFirst, 3),
    validateBuiltFirstSeconds: round(m.validateBuiltFirst, 3),
    ratioToNodeE0: round(m.validate / m.nodeE0, 1),
    validateBuiltRatio: round(m.validateBuilt / m.nodeE0, 1),
    validateFirstRatio: round(m.validateFirst / m.nodeE0, 1),
    validateBuiltFirstRatio: round(m.validateBuiltFirst / m.nodeE0, 1),
    versionRatio: round(m.version / m.nodeE0, 1),
    versionBuiltRatio: round(m.versionBuilt / m.nodeE0, 1),
    validateRuns: seconds.validate.map((value) => round(value, 3)),
    validateBuiltRuns: seconds.validateBuilt.map((value) => round(value, 3)),
    validateSays: findings,
  });
} finally {
  await rm(dir, { recursive: true, force: true });
}
