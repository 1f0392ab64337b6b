// `contracts check --api NAME` on a user's API judges the lifecycle rules of its resource model on the generic
// conformance pass (src/runner/generic/lifecycle-hooks.ts), as a real process against the planted-bug services: each
// lifecycle bug one pass can show is found by the rule named after it, and no other lifecycle rule fires; each
// service's bug-free twin exits 0. (paging_consistent and ignored_auth need the walk's many instances and probes:
// fuzz's; orders' read_after_write needs a second PUT, which the pass does not send.)
import { mkdtemp, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type PlantedShape, plantedShapes, startPlanted } from '../helpers/planted.js';
import { runCli } from '../helpers/run-cli.js';

interface Report {
  results: { operation: string; check: string; status: string; reason?: string }[];
}

const lifecycle = new Set([
  'ensure_resource_availability',
  'use_after_free',
  'read_after_write',
  'listed_after_create',
  'paging_consistent',
  'conflict_documented',
  'ignored_auth',
]);

// [shape, the lifecycle results that fail with every lifecycle bug of the shape on]
const found: [PlantedShape, { operation: string; check: string }[]][] = [
  ['notes', [{ operation: 'updateNote', check: 'read_after_write' }]],
  [
    'boards',
    [
      { operation: 'createPost', check: 'ensure_resource_availability' },
      { operation: 'createPost', check: 'listed_after_create' },
      { operation: 'deletePost', check: 'use_after_free' },
    ],
  ],
  ['orders', [{ operation: 'cancelOrder', check: 'conflict_documented' }]],
];

async function check(shape: PlantedShape, bugs: readonly string[]) {
  const service = await startPlanted(shape, bugs);
  const file = path.join(await mkdtemp(path.join(os.tmpdir(), 'contracts-check-lifecycle-')), 'check.json');
  try {
    const args = ['check', '--api', plantedShapes[shape].api, '--base-url', service.url, '--report', `json:${file}`];
    const result = await runCli(args, { cwd: service.dir, env: service.env });
    return { ...result, report: JSON.parse(await readFile(file, 'utf8')) as Report };
  } finally {
    await service.stop();
  }
}

const lifecycleResults = (report: Report, status: string) =>
  report.results
    .filter((result) => lifecycle.has(result.check) && result.status === status)
    .map(({ operation, check }) => ({ operation, check }));

describe.each(found)('contracts check --api on the planted %s service', (shape, failing) => {
  it('finds each lifecycle bug a pass shows by its own rule, and no other lifecycle rule fires', async () => {
    const { code, stdout, stderr, report } = await check(shape, plantedShapes[shape].lifecycleBugs);
    expect(code, stdout + stderr).toBe(1);
    expect(lifecycleResults(report, 'failed')).toEqual(failing);
  }, 120_000);

  it('exits 0 on the bug-free twin, those rules judged and passed', async () => {
    const { code, stdout, stderr, report } = await check(shape, []);
    expect(code, stdout + stderr).toBe(0);
    expect(lifecycleResults(report, 'failed')).toEqual([]);
    expect(lifecycleResults(report, 'passed')).toEqual(expect.arrayContaining(failing));
  }, 120_000);
});
