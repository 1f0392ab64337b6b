// Outside a project there are no APIs to name: help said `Prism mock servers ()` and `(by default )`.
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { root } from '../helpers/paths.js';
import { runCli } from '../helpers/run-cli.js';
import { runMain } from '../helpers/run-main.js';

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

describe('help of every command', () => {
  const commands = [
    'lint',
    'validate',
    'check',
    'fuzz',
    'proxy',
    'sandbox',
    'mock',
    'diff',
    'generate',
    'init',
    'receive',
  ];
  it.each(
    commands.flatMap((command) => [[command, 'outside a project'] as const, [command, 'in this repository'] as const]),
  )('%s --help %s prints no empty parentheses', async (command, where) => {
    const cwd = where === 'in this repository' ? root : await mkdtemp(path.join(os.tmpdir(), 'contracts-help-'));
    const result = await runMain([command, '--help'], cwd);
    expect(result.output).not.toMatch(/\(\s*\)|\(by default\s*\)|\(default:?\s*\)/);
    expect(result.code).toBe(0);
  });
});
