// #46's acceptance on the planted-bug services (tests/fixtures/planted/): one default `contracts fuzz` run finds
// every lifecycle bug of a service by the rule named after it, and no lifecycle rule fires on a bug that is
// another rule's; each service's bug-free twin exits 0. Seed 1 here (seeds 2 and 3 measured alike by hand).
import { describe, expect, it } from 'vitest';
import { type PlantedShape, plantedShapes, startPlanted } from '../helpers/planted.js';
import { runCli } from '../helpers/run-cli.js';

const lifecycleChecks = [
  'ensure_resource_availability',
  'use_after_free',
  'read_after_write',
  'listed_after_create',
  'paging_consistent',
  'conflict_documented',
  'ignored_auth',
];

async function fuzz(shape: PlantedShape, bugs: string[]) {
  const service = await startPlanted(shape, bugs);
  try {
    const args = ['fuzz', '--api', plantedShapes[shape].api, '--base-url', service.url, '--seed', '1'];
    return await runCli(args, { cwd: service.dir, env: service.env });
  } finally {
    await service.stop();
  }
}

/** The checks of the failures a run printed (`      ✗ check` under each operation). */
const failedChecks = (stdout: string) => new Set([...stdout.matchAll(/^ {6}✗ ([a-z_]+)$/gm)].map((match) => match[1]!));

describe.each(Object.keys(plantedShapes) as PlantedShape[])('the planted %s service', (shape) => {
  const facts = plantedShapes[shape];

  it('with every bug on: each lifecycle bug found by its own rule, and no other lifecycle rule fires', async () => {
    const result = await fuzz(shape, [...facts.lifecycleBugs, ...facts.singleBugs]);
    expect(result.code, result.stdout + result.stderr).toBe(1);
    const lifecycleFailed = [...failedChecks(result.stdout)].filter((check) => lifecycleChecks.includes(check));
    expect(lifecycleFailed.sort()).toEqual([...facts.lifecycleBugs].sort());
  }, 180_000);

  it('its bug-free twin exits 0', async () => {
    const result = await fuzz(shape, []);
    expect(result.code, result.stdout + result.stderr).toBe(0);
  }, 180_000);
});
