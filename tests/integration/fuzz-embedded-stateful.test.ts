// `contracts fuzz` without --base-url fuzzes the stateful sandbox of the spec (start-stateful-mocks.ts), not a
// stateless mock: the walk over the resource model runs against it too (run-fuzz.ts walkOf), and on the three
// planted-bug services' specs (their bugs absent: the spec is the truth) it finds nothing. As a real process, in
// each service's own project folder, with no credential set (the sandbox takes any value).
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { root } from '../helpers/paths.js';
import { runCli } from '../helpers/run-cli.js';

describe('contracts fuzz of a spec with no --base-url', () => {
  it.each(['notes', 'boards', 'orders'])(
    'fuzzes the stateful sandbox of the planted %s spec, walk included, and finds nothing',
    async (service) => {
      const result = await runCli(['fuzz', '--spec', 'openapi.yaml', '--max-examples', '10', '--seed', '7'], {
        cwd: path.join(root, 'tests/fixtures/planted', service),
      });
      expect(result.stderr).toMatch(
        new RegExp(
          `^contracts fuzz: no --base-url: fuzzing the stateful sandbox of ${service} \\(what a create stores a read returns; each answer checked against the spec before it is served\\)$`,
          'm',
        ),
      );
      expect(result.stdout).toMatch(
        new RegExp(`^${service} \\(its stateful sandbox, http://127\\.0\\.0\\.1:\\d+\\)$`, 'm'),
      );
      expect(result.stdout).toMatch(/^\d+ passed, 0 failed, \d+ skipped; 0 distinct failures$/m);
      expect(result.code, result.stdout + result.stderr).toBe(0);
    },
    120_000,
  );

  it('runs the walk against it: the walk alone (--phases stateful) exercises the lifecycle checks', async () => {
    const result = await runCli(['fuzz', '--spec', 'openapi.yaml', '--phases', 'stateful', '--seed', '7'], {
      cwd: path.join(root, 'tests/fixtures/planted/notes'),
    });
    // A stateless mock runs no walk: every operation would be "not exercised" by --phases stateful alone.
    expect(result.stdout).toMatch(/^ {2}✓ getNote +\d+ passed/m);
    expect(result.stdout).toMatch(/^ {2}✓ deleteNote +\d+ passed/m);
    expect(result.stdout).toMatch(/^\d+ passed, 0 failed, \d+ skipped; 0 distinct failures$/m);
    expect(result.code, result.stdout + result.stderr).toBe(0);
  }, 120_000);
});
