// Outside a project there are no APIs to name: help said `Prism mock servers ()` and `(by default )`.
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

describe('help outside a project', () => {
  it.each([[['--help']], [['diff', '--help']], [['mock', '--help']]])(
    'prints no empty parentheses: %j',
    async (args) => {
      const cwd = await mkdtemp(path.join(os.tmpdir(), 'contracts-help-'));
      const result = await runCli(args, { cwd });
      expect(result.stdout).not.toMatch(/\(\s*\)|\(by default\s*\)/);
      expect(result.code).toBe(0);
    },
    60_000,
  );
});
