// The tests every planted-bug service gets: its spec lints clean, its twin answers every example of its spec as
// documented, and each planted bug shows to a short request sequence with that bug on and not in the twin.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PlantedService, type PlantedShape, plantedShapes, startPlanted } from './planted.js';
import { runCli } from './run-cli.js';

/** What a sequence observes, in the twin and with its bug on. */
export interface BugSequence {
  run: (base: string) => Promise<unknown>;
  twin: unknown;
  planted: unknown;
}

export function describePlanted(shape: PlantedShape, sequences: [string, BugSequence][]) {
  describe(`the planted ${shape} service`, () => {
    let twin: PlantedService;
    beforeAll(async () => {
      twin = await startPlanted(shape);
    });
    afterAll(() => twin.stop());

    it('has a sequence for each of its bugs', () => {
      const facts = plantedShapes[shape];
      expect(sequences.map(([bug]) => bug).sort()).toEqual([...facts.lifecycleBugs, ...facts.singleBugs].sort());
    });

    it('has a spec our linter finds clean', async () => {
      const result = await runCli(['lint', twin.specPath]);
      expect({ code: result.code, summary: result.stderr.trim().split('\n').at(-1) }).toEqual({
        code: 0,
        summary: '1 spec linted: 0 errors, 0 warnings',
      });
    }, 60_000);

    it('as the twin, answers every example of its spec as documented (fuzz --phases examples exits 0)', async () => {
      const api = plantedShapes[shape].api;
      const args = ['fuzz', '--api', api, '--base-url', twin.url, '--phases', 'examples', '--quiet'];
      const result = await runCli(args, { cwd: twin.dir, env: twin.env });
      expect({ code: result.code, failed: /\b0 failed\b/.test(result.stdout) }).toEqual({ code: 0, failed: true });
    }, 60_000);

    it.each(sequences)('shows %s to its request sequence only with that bug on', async (bug, sequence) => {
      const planted = await startPlanted(shape, [bug]);
      try {
        expect({ twin: await sequence.run(twin.url), planted: await sequence.run(planted.url) }).toEqual({
          twin: sequence.twin,
          planted: sequence.planted,
        });
      } finally {
        await planted.stop();
      }
    });

    it('refuses an unknown bug name instead of starting as the twin', async () => {
      await expect(startPlanted(shape, ['no_such_bug'])).rejects.toThrow(/unknown planted bug: no_such_bug/);
    });
  });
}
