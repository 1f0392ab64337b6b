// Usage mistakes through main(), the CLI's own entry, with the real command table: one clear line, exit 2.
import { describe, expect, it } from 'vitest';
import { allCommands, main } from '../../src/cli/main.js';

import { commandFor } from '../../src/cli/command.js';
import { commandHelp, mainHelp } from '../../src/cli/help.js';
import { seedProject } from '../../src/config/seed-project.js';

// Help as this repository's project (the two example APIs) shows it.
const commands = (await allCommands()).map((command) => commandFor(command, seedProject));
import { root } from '../helpers/paths.js';

async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { out: (text) => out.push(text), err: (text) => err.push(text), cwd: root, env: {} });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('a misspelt name gets a "Did you mean" in one line, exit 2', () => {
  it.each([
    ['a command', ['chek'], 'contracts: unknown command "chek". Did you mean "check"? Run `contracts --help`.'],
    [
      'a top-level flag',
      ['--verison'],
      'contracts: unknown command "--verison". Did you mean "--version"? Run `contracts --help`.',
    ],
    [
      'a flag',
      ['check', '--base-ur', 'http://127.0.0.1:9'],
      'contracts check: unknown option --base-ur. Did you mean --base-url?',
    ],
    [
      'a flag given with =',
      ['validate', '--formt=json'],
      'contracts validate: unknown option --formt. Did you mean --format?',
    ],
    [
      'an --api name',
      ['check', '--api', 'clint-session'],
      'contracts check: unknown API "clint-session". Did you mean "client-session"? The APIs: client-session, repository-webhooks',
    ],
    [
      'an --api name of fuzz',
      ['fuzz', '--api', 'repository-webhook'],
      'contracts fuzz: unknown API "repository-webhook". Did you mean "repository-webhooks"? The APIs: client-session, repository-webhooks',
    ],
  ])('%s', async (_what, args, line) => {
    const result = await cli(args);
    expect(result.err).toBe(line);
    expect(result.code).toBe(2);
  });

  it('names the commands when nothing is close', async () => {
    const result = await cli(['deploy']);
    expect(result.err).toMatch(
      /^contracts: unknown command "deploy". Commands: lint, generate, .*\. Run `contracts --help`.$/,
    );
    expect(result.code).toBe(2);
  });
});

describe('help', () => {
  const helps: [string, string][] = [
    ['contracts', mainHelp(commands, seedProject)],
    ...commands.map((command): [string, string] => [`contracts ${command.name}`, commandHelp(command)]),
  ];
  it.each(helps)('of %s keeps every line within 100 columns', (_name, text) => {
    const wide = text.split('\n').filter((line) => [...line].length > 100);
    expect(wide).toEqual([]);
  });

  it('wraps a long option description under its column', () => {
    const check = commands.find((command) => command.name === 'check')!;
    const lines = commandHelp(check).split('\n');
    const at = lines.findIndex((line) => line.startsWith('  --hook-url <url>'));
    expect(lines[at + 1]).toMatch(/^ {31}\S/);
  });

  it('lists --version, and `contracts --version` and `-v` print the package version', async () => {
    expect(mainHelp(commands, seedProject)).toMatch(/^ {2}-v, --version +Print the version of contracts$/m);
    for (const flag of ['--version', '-v']) {
      const result = await cli([flag]);
      expect(result.out).toMatch(/^\d+\.\d+\.\d+/);
      expect(result.code).toBe(0);
    }
  });
});

describe('--quiet', () => {
  // Port 9 on loopback: nothing listens, so the run ends at once (exit 2) after its notes.
  const args = [
    'fuzz',
    '--api',
    'client-session',
    '--base-url',
    'http://127.0.0.1:9',
    '--phases',
    'examples',
    '--max-examples',
    '1',
    '--seed',
    '1',
  ];
  it('drops the notes on standard error but keeps the verdict', async () => {
    const loud = await cli(args);
    expect(loud.err).toContain('CLIENT_SESSION_API_KEY is not set');
    const quiet = await cli([...args, '--quiet']);
    expect(quiet.err).not.toContain('CLIENT_SESSION_API_KEY is not set');
    expect(quiet.err).toMatch(/contracts fuzz: .*127\.0\.0\.1:9/);
    expect(quiet.code).toBe(loud.code);
  }, 60_000);
});
