// Issue #47: `contracts check` without --base-url checks a spec of one's own against the stateful sandbox of it (as
// fuzz does), not Prism: the sandbox keeps what a create stores and judges every answer before sending it. Prism
// stays behind `--mock-engine prism`. As a real process, on the planted notes service's spec (its bugs are in the
// service, not the spec).
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { root } from '../helpers/paths.js';
import { runCli } from '../helpers/run-cli.js';

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'contracts-check-embedded-'));
  await copyFile(path.join(root, 'tests/fixtures/planted/notes/openapi.yaml'), path.join(dir, 'notes.yaml'));
  await writeFile(path.join(dir, 'contracts.config.yaml'), 'apis:\n  - name: notes\n    spec: notes.yaml\n');
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The run's header line for the API, with the port taken out, and its last line. */
function outline(stdout: string): { header: string | undefined; summary: string | undefined } {
  const lines = stdout.trim().split('\n');
  return {
    header: lines.find((line) => line.startsWith('notes ('))?.replace(/:\d+\)$/, ':PORT)'),
    summary: lines.at(-1),
  };
}

describe('contracts check without --base-url', () => {
  it.each([
    { engine: [], header: 'notes (embedded stateful sandbox at http://127.0.0.1:PORT)' },
    { engine: ['--mock-engine', 'prism'], header: 'notes (embedded Prism mock at http://127.0.0.1:PORT)' },
  ])(
    'checks a spec of its own against the stateful sandbox, Prism only when asked ($engine)',
    async ({ engine, header }) => {
      const result = await runCli(['check', '--api', 'notes', ...engine], { cwd: dir });
      expect({ code: result.code, ...outline(result.stdout) }, result.stderr).toEqual({
        code: 0,
        header,
        summary: '20 passed, 0 failed, 0 skipped',
      });
    },
    120_000,
  );
});
