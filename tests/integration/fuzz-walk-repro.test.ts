// The reproductions of the stateful walk's failures (issue 46: "scripts and --replay of every failure reproduce it
// from a fresh start, including the create steps"): one default run on each planted-bug service, then each lifecycle
// failure's script run in bash against a fresh service with the same bugs (it reproduces: exit 1) and against the
// bug-free twin (it does not: exit 0). Each fresh service holds nothing but what the script makes.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type PlantedShape, plantedShapes, startPlanted } from '../helpers/planted.js';
import { runCli } from '../helpers/run-cli.js';

interface Report {
  failures: { id: string; check: string; operation: string; script: string }[];
}

const lifecycleChecks = new Set([
  'ensure_resource_availability',
  'use_after_free',
  'read_after_write',
  'listed_after_create',
  'paging_consistent',
  'conflict_documented',
  'ignored_auth',
]);

/** Runs a failure's script in bash against a fresh service (bugs: its lifecycle bugs, or none: the twin). */
async function runScript(shape: PlantedShape, script: string, bugs: readonly string[]): Promise<number | null> {
  const service = await startPlanted(shape, bugs);
  try {
    return await new Promise((resolve, reject) => {
      const child = spawn('bash', ['-c', script], {
        env: { ...process.env, ...service.env, BASE_URL: service.url },
        stdio: ['ignore', 'ignore', 'ignore'],
      });
      child.on('error', reject);
      child.on('close', (code) => resolve(code));
    });
  } finally {
    await service.stop();
  }
}

/** `contracts fuzz --replay` of a report against a fresh service: its exit code, and each failure's verdict. */
async function replay(shape: PlantedShape, file: string, bugs: readonly string[]) {
  const service = await startPlanted(shape, bugs);
  try {
    const args = ['fuzz', '--replay', file, '--base-url', service.url];
    const result = await runCli(args, { cwd: service.dir, env: service.env });
    const verdicts = Object.fromEntries(
      [...result.stdout.matchAll(/^\[[0-9a-f]+\] ([a-z_]+) · \S+: (still fails|no longer fails|not replayed)/gm)].map(
        (match) => [match[1]!, match[2]!],
      ),
    );
    return { code: result.code, verdicts };
  } finally {
    await service.stop();
  }
}

/** One default run (seed 1) on a service with its lifecycle bugs on, and the JSON report it wrote. */
async function fuzzReport(shape: PlantedShape): Promise<Report & { file: string }> {
  const facts = plantedShapes[shape];
  const service = await startPlanted(shape, facts.lifecycleBugs);
  const file = path.join(await mkdtemp(path.join(os.tmpdir(), 'contracts-walk-repro-')), 'fuzz.json');
  try {
    const args = ['fuzz', '--api', facts.api, '--base-url', service.url, '--seed', '1', '--report', `json:${file}`];
    const result = await runCli(args, { cwd: service.dir, env: service.env });
    expect(result.code, result.stdout + result.stderr).toBe(1);
  } finally {
    await service.stop();
  }
  return { ...(JSON.parse(await readFile(file, 'utf8')) as Report), file };
}

/** The operations of a script's steps, in order (`# 1. createOrder: the run got 201`). */
const stepsOf = (script: string) => [...script.matchAll(/^# \d+\. (\S+): the run got/gm)].map((match) => match[1]!);

/** Shrunk trails (shrink-walk.ts): the anonymous probes and reads the finding does not need are gone. */
const shrunk: Partial<Record<PlantedShape, Record<string, string[]>>> = {
  orders: {
    conflict_documented: ['createOrder', 'cancelOrder', 'cancelOrder'],
    read_after_write: ['putDocument', 'putDocument', 'getDocument'],
  },
};

describe.each(Object.keys(plantedShapes) as PlantedShape[])('the walk failures of the planted %s service', (shape) => {
  it('each reproduce from a fresh start, by its script in bash and by --replay, and not on the bug-free twin', async () => {
    const facts = plantedShapes[shape];
    const report = await fuzzReport(shape);
    const outcomes: Record<string, { bugged: number | null; twin: number | null }> = {};
    for (const failure of report.failures.filter((one) => lifecycleChecks.has(one.check)))
      outcomes[failure.check] = {
        bugged: await runScript(shape, failure.script, facts.lifecycleBugs),
        twin: await runScript(shape, failure.script, []),
      };
    expect(outcomes).toEqual(Object.fromEntries(facts.lifecycleBugs.map((check) => [check, { bugged: 1, twin: 0 }])));
    const walkFailures = report.failures.filter((one) => lifecycleChecks.has(one.check));
    if (shrunk[shape])
      expect(Object.fromEntries(walkFailures.map((one) => [one.check, stepsOf(one.script)]))).toEqual(shrunk[shape]);
    // --replay sends each walk failure's steps again from a fresh start, and judges it as the script does.
    const verdicts = (verdict: string) => Object.fromEntries(facts.lifecycleBugs.map((check) => [check, verdict]));
    expect(await replay(shape, report.file, facts.lifecycleBugs)).toEqual({
      code: 1,
      verdicts: verdicts('still fails'),
    });
    expect(await replay(shape, report.file, [])).toEqual({ code: 0, verdicts: verdicts('no longer fails') });
  }, 240_000);
});
