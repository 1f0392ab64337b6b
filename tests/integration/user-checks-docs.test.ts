// docs/guides/own-checks.md's example, run as written: its spec, config and checks module (which imports
// `defineChecks` from contracts-kit, resolved here to this checkout's library entry) in a scratch project, and its
// command, whose output lines and exit status the page shows. A right order passes the same command.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { root } from '../helpers/paths.js';
import { runCli } from '../helpers/run-cli.js';

const page = readRepoFile('docs/guides/own-checks.md');
let dir: string;

function readRepoFile(file: string) {
  return readFile(path.join(root, file), 'utf8');
}

/** The block of the page fenced as ```LANG NAME, without its first line (a comment naming the file). */
function block(text: string, lang: string, name: string): { file: string; body: string } {
  const match = new RegExp(`\`\`\`${lang} ${name}\\n([\\s\\S]*?)\`\`\``).exec(text);
  if (!match) throw new Error(`no \`\`\`${lang} ${name} block in the page`);
  const [first, ...rest] = match[1]!.split('\n');
  return { file: first!.replace(/^(\/\/|#)\s*/, ''), body: rest.join('\n') };
}

beforeAll(async () => {
  const text = await page;
  dir = await mkdtemp(path.join(os.tmpdir(), 'contracts-own-checks-'));
  for (const [lang, name] of [
    ['ts', 'checks'],
    ['yaml', 'spec'],
    ['yaml', 'config'],
  ] as const) {
    const { file, body } = block(text, lang, name);
    await writeFile(path.join(dir, file), body);
  }
  // `import … from 'contracts-kit'` as an installed package resolves it: here, to this checkout's library entry.
  const pkg = path.join(dir, 'node_modules', 'contracts-kit');
  await mkdir(pkg, { recursive: true });
  await writeFile(
    path.join(pkg, 'package.json'),
    JSON.stringify({ name: 'contracts-kit', type: 'module', exports: './index.ts' }),
  );
  await writeFile(path.join(pkg, 'index.ts'), `export * from ${JSON.stringify(path.join(root, 'src/index.ts'))};\n`);
});

afterAll(() => rm(dir, { recursive: true, force: true }));

describe('the own-checks guide (real process)', () => {
  it("runs its example: the command's output and exit are the page's, and a right order passes", async () => {
    const text = await page;
    const shell = /```sh\n(contracts [^\n]+)\n([^`]*)```/.exec(text)!;
    const args = shell[1]!
      .replace(/^contracts /, '')
      .match(/'[^']*'|\S+/g)!
      .map((arg) => arg.replace(/^'|'$/g, ''));
    await writeFile(
      path.join(dir, 'order.json'),
      JSON.stringify({ id: 'o1', lines: [{ price: 2, quantity: 3 }], total: 2 }),
    );
    const wrong = await runCli(args, { cwd: dir });
    expect(wrong.code, wrong.stderr).toBe(1);
    expect(text).toContain('It exits 1.');
    for (const line of shell[2]!.trim().split('\n')) expect(wrong.stdout).toContain(line);
    await writeFile(
      path.join(dir, 'order.json'),
      JSON.stringify({ id: 'o1', lines: [{ price: 2, quantity: 3 }], total: 6 }),
    );
    const right = await runCli(args, { cwd: dir });
    expect([right.code, right.stderr]).toEqual([0, '']);
  }, 180_000);
});
