// A flag that would do nothing in the chosen mode is a usage error, declared in the option tables (requires /
// conflicts) and checked by parse-args on what the user typed.
import { describe, expect, it } from 'vitest';
import { checkCommand } from '../../src/cli/check-command.js';
import { commandFor, type Command } from '../../src/cli/command.js';
import { fuzzCommand } from '../../src/cli/fuzz-command.js';
import { main } from '../../src/cli/main.js';
import { mockCommand } from '../../src/cli/mock-command.js';
import { parseCommandArgs } from '../../src/cli/parse-args.js';
import { validateCommand } from '../../src/cli/validate-command.js';
import { seedProject } from '../../src/config/seed-project.js';
import { root } from '../helpers/paths.js';

const url = 'http://127.0.0.1:9';

describe('a flag without effect in the chosen mode is refused', () => {
  it.each<[string, Command, string[], string]>([
    [
      'check --hook-id without --read-only',
      checkCommand,
      ['--base-url', url, '--hook-id', '42'],
      '--hook-id has no effect without --read-only',
    ],
    [
      'check --receiver-port against the mocks',
      checkCommand,
      ['--receiver-port', '4030'],
      '--receiver-port has no effect without --base-url',
    ],
    [
      'check --receiver-port with --no-receiver',
      checkCommand,
      ['--base-url', url, '--no-receiver', '--receiver-port', '4030'],
      '--receiver-port has no effect with --no-receiver',
    ],
    [
      'check --receiver-port with --read-only',
      checkCommand,
      ['--base-url', url, '--read-only', '--hook-id', '1', '--receiver-port', '4030'],
      '--receiver-port has no effect with --read-only',
    ],
    [
      'check --no-receiver against the mocks',
      checkCommand,
      ['--no-receiver'],
      '--no-receiver has no effect without --base-url',
    ],
    [
      'check --hook-url against the mocks',
      checkCommand,
      ['--hook-url', 'https://hooks.example.com/in'],
      '--hook-url has no effect without --base-url',
    ],
    [
      'check --hook-url with --read-only',
      checkCommand,
      ['--base-url', url, '--read-only', '--hook-id', '1', '--hook-url', 'https://hooks.example.com/in'],
      '--hook-url has no effect with --read-only',
    ],
    [
      'check --delivery-wait against the mocks',
      checkCommand,
      ['--delivery-wait', '500'],
      '--delivery-wait has no effect without --base-url',
    ],
    [
      'check --delivery-wait with --read-only',
      checkCommand,
      ['--base-url', url, '--read-only', '--hook-id', '1', '--delivery-wait', '500'],
      '--delivery-wait has no effect with --read-only',
    ],
    [
      'fuzz --rate against the embedded sandbox',
      fuzzCommand,
      ['--rate', '5'],
      '--rate has no effect without --base-url',
    ],
    [
      'fuzz --hook-url with --read-only',
      fuzzCommand,
      ['--base-url', url, '--read-only', '--hook-url', 'https://hooks.example.com/in'],
      '--hook-url has no effect with --read-only',
    ],
    [
      'fuzz --read-only with --replay (a replay re-sends what it saved, POSTs included)',
      fuzzCommand,
      ['--base-url', url, '--read-only', '--replay', 'fuzz.json'],
      '--read-only has no effect with --replay',
    ],
    [
      'fuzz --phases with --replay',
      fuzzCommand,
      ['--phases', 'negative', '--replay', 'fuzz.json'],
      '--phases has no effect with --replay',
    ],
    [
      'fuzz --max-examples with --replay',
      fuzzCommand,
      ['--max-examples', '5', '--replay', 'fuzz.json'],
      '--max-examples has no effect with --replay',
    ],
    [
      'fuzz --max-time with --replay',
      fuzzCommand,
      ['--max-time', '5', '--replay', 'fuzz.json'],
      '--max-time has no effect with --replay',
    ],
    [
      'fuzz --shard with --replay',
      fuzzCommand,
      ['--shard', '1/2', '--replay', 'fuzz.json'],
      '--shard has no effect with --replay',
    ],
    [
      'fuzz --report with --replay',
      fuzzCommand,
      ['--report', 'json:x.json', '--replay', 'fuzz.json'],
      '--report has no effect with --replay',
    ],
    [
      'fuzz --coverage with --replay',
      fuzzCommand,
      ['--coverage', 'c.json', '--replay', 'fuzz.json'],
      '--coverage has no effect with --replay',
    ],
    [
      'fuzz --min-coverage with --replay',
      fuzzCommand,
      ['--min-coverage', '50', '--replay', 'fuzz.json'],
      '--min-coverage has no effect with --replay',
    ],
    [
      'validate --side without --har',
      validateCommand,
      ['--api', 'client-session', '--side', 'request'],
      '--side has no effect without --har',
    ],
    [
      'validate --coverage without --har',
      validateCommand,
      ['--api', 'client-session', '--coverage', 'c.json'],
      '--coverage has no effect without --har',
    ],
    [
      'validate --min-coverage without --har',
      validateCommand,
      ['--api', 'client-session', '--min-coverage', '50'],
      '--min-coverage has no effect without --har',
    ],
    [
      'validate --headers without --delivery',
      validateCommand,
      ['--api', 'client-session', '--headers', 'h.txt'],
      '--headers has no effect without --delivery',
    ],
    [
      'validate --secret-env without --delivery',
      validateCommand,
      ['--api', 'client-session', '--secret-env', 'S'],
      '--secret-env has no effect without --delivery',
    ],
    ['mock --seed without --dynamic', mockCommand, ['--seed', '7'], '--seed has no effect without --dynamic'],
  ])('%s', (_name, command, args, message) => {
    expect(() => parseCommandArgs(commandFor(command, seedProject), args)).toThrow(message);
  });

  it.each<[string, Command, string[]]>([
    ['check --hook-id with --read-only', checkCommand, ['--base-url', url, '--read-only', '--hook-id', '42']],
    [
      'check --receiver-port on a full run',
      checkCommand,
      ['--base-url', url, '--receiver-port', '4030', '--hook-url', 'https://t.example.com'],
    ],
    ['fuzz --rate against a server', fuzzCommand, ['--base-url', url, '--rate', '5']],
    [
      'fuzz --replay with what a replay uses',
      fuzzCommand,
      ['--replay', 'fuzz.json', '--seed', '1', '--timeout', '500', '--strict'],
    ],
    ['validate --side with --har', validateCommand, ['--api', 'all', '--har', 'x.har', '--side', 'request']],
    ['mock --seed with --dynamic', mockCommand, ['--dynamic', '--seed', '7']],
    ['the defaults alone (they are not what the user typed)', fuzzCommand, []],
  ])('accepts %s', (_name, command, args) => {
    expect(() => parseCommandArgs(commandFor(command, seedProject), args)).not.toThrow();
  });
});

describe('through the CLI', () => {
  it('says it in one line and exits 2 before anything starts', async () => {
    const err: string[] = [];
    const code = await main(['fuzz', '--rate', '5'], {
      out: () => undefined,
      err: (text) => err.push(text),
      cwd: root,
      env: {},
    });
    expect(err[0]).toBe('contracts fuzz: --rate has no effect without --base-url');
    expect(code).toBe(2);
  });

  it("shows the requirement in the option's help", async () => {
    const out: string[] = [];
    await main(['check', '--help'], { out: (text) => out.push(text), err: () => undefined, cwd: root, env: {} });
    expect(out.join('\n')).toMatch(/--hook-id <id> +With --read-only: the webhook to read \(needs --read-only\)/);
  });
});
