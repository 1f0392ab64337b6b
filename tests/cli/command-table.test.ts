// main() imports a command's module only when it runs: every name it knows must load the command of that name.
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';

async function run(argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, {
    out: (text) => out.push(text),
    err: (text) => err.push(text),
    cwd: process.cwd(),
    env: {},
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('the command table', () => {
  it('loads, for each command help lists, the command of that name', async () => {
    const help = await run(['--help']);
    const names = [...help.out.matchAll(/^ {2}([a-z-]+) +\S/gm)].map((match) => match[1]!);
    expect(names).toEqual([
      'lint',
      'generate',
      'mock',
      'sandbox',
      'check',
      'validate',
      'receive',
      'proxy',
      'fuzz',
      'merge-reports',
      'diff',
      'init',
    ]);
    for (const name of names) {
      const topic = await run(['help', name]);
      expect(topic.out, name).toMatch(new RegExp(`^Usage: contracts ${name} `));
      expect((await run([name, '--help'])).out, name).toBe(topic.out);
    }
  });

  it.each(['nope', 'toString', '__proto__'])(
    'answers an unknown command "%s" with the list of commands and exit 2',
    async (name) => {
      const result = await run([name]);
      expect(result.code).toBe(2);
      expect(result.err).toContain(
        `unknown command "${name}". Commands: lint, generate, mock, sandbox, check, validate, receive, proxy, fuzz, merge-reports, diff, init.`,
      );
    },
  );
});
