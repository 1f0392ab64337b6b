// Benchmark: the wall time of `contracts validate` of one small body from a cold process (spec load, compile,
// check, exit), beside `node -e 0` (Node's own start) and tsx loading an empty module (the cost of running
// TypeScript directly), in alternating runs; medians.
import { writeFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { quick, report, round, root, runChild } from './bench-util.js';

const runs = quick ? 1 : 7;
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
  const commands = {
    validate: [
      path.join(root, 'bin/contracts.js'),
      'validate',
      '--api',
      'repository-webhooks',
      '--method',
      'GET',
      '--path',
      '/repos/o/r/hooks/1',
      '--status',
      '200',
      '--header',
      'Content-Type: application/json',
      '--body',
      body,
    ],
    nodeE0: ['-e', '0'],
    tsxE0: ['--import', 'tsx', empty],
  };
  const seconds: Record<keyof typeof commands, number[]> = { validate: [], nodeE0: [], tsxE0: [] };
  let findings = '';
  for (let run = 0; run < runs; run++) {
    for (const [name, args] of Object.entries(commands) as [keyof typeof commands, string[]][]) {
      const result = await runChild(process.execPath, args);
      if (result.code !== 0) throw new Error(`${name} exited ${result.code}: ${result.stdout}${result.stderr}`);
      if (name === 'validate') findings = result.stdout.trim().split('\n')[0] ?? '';
      seconds[name].push(result.seconds);
    }
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const [validate, nodeE0, tsxE0] = [median(seconds.validate), median(seconds.nodeE0), median(seconds.tsxE0)];
  report('start-up', {
    validateSeconds: round(validate, 3),
    nodeE0Seconds: round(nodeE0, 3),
    tsxE0Seconds: round(tsxE0, 3),
    ratioToNodeE0: round(validate / nodeE0, 1),
    validateRuns: seconds.validate.map((value) => round(value, 3)),
    validateSays: findings,
  });
} finally {
  await rm(dir, { recursive: true, force: true });
}
