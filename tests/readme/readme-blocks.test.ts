// Every shell block of README.md and of each page of docs/ (```sh, ```bash, ```console) runs as written, in the
// document's order, in a scratch copy of the project made for that document (tracked files, node_modules linked, a
// fresh git repository whose `origin` is itself, as a CI clone). Documents run one after another.
//
// How a block runs:
// - Each command runs in bash from the copy's root. `export NAME=…` lines of a block hold for its later commands.
//   `npx contracts …` runs bin/contracts.js and `npx TOOL` runs node_modules/.bin/TOOL directly (what npx resolves
//   them to, without npm's 2 s start-up); `npm run …` is real npm.
// - A command must exit 0, or the N of a `exits N` in its trailing comment (`npx contracts check   # … exits 0`),
//   or that of the block's expect-exit directive. No output may hold a stack trace.
// - ```console blocks: `$ ` lines are commands; every line shown under one must appear in its output.
// - A `curl -si …   # 404` line (its comment a bare status) must get that HTTP status.
// - Servers: `contracts mock|sandbox|proxy|receive` (also through npm run), a command ending in `&`, or every command
//   of a `background` block is started and waited for until it prints "Ctrl-C to stop"; it stays up for the
//   following commands and blocks until its section (heading) ends, then gets Ctrl-C (SIGINT to its process
//   group) and must stop cleanly. Starting one stops a running server of the same command first (same ports).
//   Servers listen on their README ports (4010, 4011, 4020, 4030, 4031, …) on 127.0.0.1: nothing else may hold them.
//
// Directives: an HTML comment on the line(s) right before the block's fence, entries separated by `;`:
//   <!-- readme-test: skip REASON -->                  the block is not run (only for what cannot run here: say why)
//   <!-- readme-test: skip-command PREFIX (REASON) --> commands starting with PREFIX are not run (npm ci, npm test)
//   <!-- readme-test: expect-exit N -->                every command of the block must exit N
//   <!-- readme-test: background -->                   every command of the block is a server (see above)
//   <!-- readme-test: timeout SECONDS -->              time limit per command (default 120 s)
//   <!-- readme-test: file PATH -->                    any block: its text is exactly the content of the file PATH
// To add a block: write it in README.md or a page of docs/; it runs as is. Add a directive only when it cannot.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { root } from '../helpers/paths.js';
import { runnableDocuments } from './documents.js';
import { type Block, type Command, isShell, parseReadme } from './readme-blocks.js';

const stackTrace = /^\s+at .+:\d+:\d+\)?$/m;
const readyLine = /Ctrl-C to stop/;
const outputCap = 256 * 1024;

let copy = '';
let prelude = '';

interface Server {
  command: Command;
  child: ChildProcess;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}
const servers: Server[] = [];

function makeCopy(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'doc-blocks-'));
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    encoding: 'utf8',
  })
    .split('\0')
    .filter(Boolean);
  for (const file of files) {
    try {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      cpSync(path.join(root, file), path.join(dir, file));
    } catch (error) {
      // A file deleted in the working tree but still in the index: the copy goes without it.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  // node_modules: this checkout's packages, each linked, and contracts-kit itself (the copy), as in a project that
  // installed it, so a page can copy what the package ships (node_modules/contracts-kit/examples/…).
  mkdirSync(path.join(dir, 'node_modules'));
  for (const entry of readdirSync(path.join(root, 'node_modules')))
    symlinkSync(path.join(root, 'node_modules', entry), path.join(dir, 'node_modules', entry));
  symlinkSync(dir, path.join(dir, 'node_modules', 'contracts-kit'), 'dir');
  mkdirSync(path.join(dir, 'reports'), { recursive: true });
  const git = (...args: string[]) =>
    execFileSync('git', args, {
      cwd: dir,
      stdio: 'ignore',
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: 'readme',
        GIT_AUTHOR_EMAIL: 'readme@example.com',
        GIT_COMMITTER_NAME: 'readme',
        GIT_COMMITTER_EMAIL: 'readme@example.com',
      },
    });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', 'README blocks');
  git('remote', 'add', 'origin', dir);
  git('fetch', '-q', 'origin', 'main');
  return dir;
}

function shellPrelude(dir: string): string {
  const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  return [
    `npx() { local tool="$1"; shift; if [ "$tool" = contracts ]; then node ${q(path.join(dir, 'bin/contracts.js'))} "$@";`,
    `  elif [ -x ${q(path.join(dir, 'node_modules/.bin'))}/"$tool" ]; then ${q(path.join(dir, 'node_modules/.bin'))}/"$tool" "$@"; else command npx "$tool" "$@"; fi; }`,
    '',
  ].join('\n');
}

function spawnShell(script: string): { child: ChildProcess; output: () => string } {
  const child = spawn('bash', ['-c', script], {
    cwd: copy,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      GITHUB_STEP_SUMMARY: path.join(copy, 'reports/step-summary.md'),
      NO_COLOR: '1',
      FORCE_COLOR: '0',
    },
  });
  let out = '';
  const keep = (chunk: Buffer) => {
    out += chunk.toString();
    if (out.length > outputCap) out = out.slice(-outputCap);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  return { child, output: () => out };
}

function exitOf(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve) => child.on('close', (code, signal) => resolve({ code, signal })));
}

function interrupt(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    // The group is already gone.
  }
}

async function runCommand(command: Command, env: string, seconds: number): Promise<void> {
  const { child, output } = spawnShell(`${prelude}${env}${command.text}\n`);
  const exited = exitOf(child);
  const timer = setTimeout(() => interrupt(child, 'SIGKILL'), seconds * 1000);
  const { code, signal } = await exited;
  clearTimeout(timer);
  const out = output();
  expect(signal, `${command.text}\n${out}\n(killed after ${seconds} s?)`).toBeNull();
  expect(code, `${command.text}\n${out}`).toBe(command.expectedExit);
  expect(out, `${command.text}: a stack trace`).not.toMatch(stackTrace);
  for (const line of command.output) expect(out, `${command.text}: the README shows this output`).toContain(line);
  if (command.expectedStatus !== undefined)
    expect(out.split('\r\n')[0], command.text).toMatch(new RegExp(`^HTTP/1\\.1 ${command.expectedStatus} `));
}

function sameServer(a: Command, b: Command): boolean {
  const kind = (c: Command) => /\b(mock|sandbox|proxy|receive)\b/.exec(c.bare)?.[1] ?? c.bare;
  return kind(a) === kind(b);
}

async function stopServer(server: Server): Promise<void> {
  servers.splice(servers.indexOf(server), 1);
  interrupt(server.child, 'SIGINT');
  let killed = false;
  const timer = setTimeout(() => {
    killed = true;
    interrupt(server.child, 'SIGKILL');
  }, 20_000);
  const { code, signal } = await server.exited;
  clearTimeout(timer);
  const out = server.output();
  // Ctrl-C reaches the whole group, as in a terminal: the server stops cleanly. npm re-raises the SIGINT on itself
  // after its script exits, and bash then does too, so `npm run …` ends by that signal, as it does in a terminal.
  expect(killed, `${server.command.text}: did not stop within 20 s of Ctrl-C\n${out}`).toBe(false);
  if (signal === null) expect([0, 130], `${server.command.text}: exit ${code} after Ctrl-C\n${out}`).toContain(code);
  else expect(signal, out).toBe('SIGINT');
  expect(out, `${server.command.text}: a stack trace`).not.toMatch(stackTrace);
}

async function startServer(command: Command, env: string, seconds: number): Promise<void> {
  for (const running of servers.filter((s) => sameServer(s.command, command))) await stopServer(running);
  const script = `${prelude}${env}${command.text.replace(/&(\s*(#.*)?)$/, '$1')}\n`;
  const { child, output } = spawnShell(script);
  const server: Server = { command, child, output, exited: exitOf(child) };
  servers.push(server);
  const ready = await new Promise<boolean>((resolve) => {
    const deadline = setTimeout(() => resolve(false), seconds * 1000);
    const check = () => {
      if (!readyLine.test(output())) return;
      clearTimeout(deadline);
      resolve(true);
    };
    child.stdout!.on('data', check);
    child.stderr!.on('data', check);
    void server.exited.then(() => {
      clearTimeout(deadline);
      resolve(readyLine.test(output()));
    });
  });
  if (!ready || child.exitCode !== null) {
    // Reported here, once: it is not stopped again at the end of the section.
    servers.splice(servers.indexOf(server), 1);
    interrupt(child, 'SIGKILL');
  }
  expect(ready, `${command.text}: never said "Ctrl-C to stop" within ${seconds} s\n${output()}`).toBe(true);
  expect(child.exitCode, `${command.text}: exited right after starting\n${output()}`).toBeNull();
}

async function stopAll(): Promise<void> {
  for (const server of [...servers].reverse()) await stopServer(server);
}

function title(file: string, block: Block): string {
  const first = block.commands[0]?.bare ?? block.text.split('\n')[0] ?? '';
  return `${file}:${block.line} (${block.section}): ${first.length > 70 ? `${first.slice(0, 70)}…` : first}`;
}

const startsPrism = (c: Command) =>
  c.server || (/^npx contracts check\b/.test(c.bare) && !c.bare.includes('--base-url'));
const timeoutOf = (block: Block) => block.directives.find((d) => d.kind === 'timeout')?.seconds ?? 120;
const lastOfSection = (shellBlocks: Block[], block: Block) => {
  const runnable = shellBlocks.filter((b) => !b.directives.some((d) => d.kind === 'skip'));
  const next = runnable[runnable.indexOf(block) + 1];
  return next === undefined || next.section !== block.section;
};

const parsed = runnableDocuments.map((file) => ({
  file,
  blocks: parseReadme(readFileSync(path.join(root, file), 'utf8'), file),
}));

it('finds the blocks it runs, each with something to run', () => {
  const shell = parsed.flatMap(({ file, blocks }) => blocks.filter(isShell).map((block) => ({ file, block })));
  expect(shell.length).toBeGreaterThanOrEqual(15);
  for (const { file, block } of shell) expect(block.commands.length, title(file, block)).toBeGreaterThan(0);
});

// A page with nothing to run (prose and tables only) gets no suite: vitest counts an empty one as a failure.
const runs = (block: Block) => isShell(block) || block.directives.some((d) => d.kind === 'file');
for (const { file, blocks } of parsed) if (blocks.some(runs)) describeDocument(file, blocks);

function describeDocument(file: string, blocks: Block[]): void {
  const shellBlocks = blocks.filter(isShell);
  describe(`${file} command blocks`, () => {
    // A copy of every tracked file and a git commit of them: tens of seconds on a loaded machine.
    beforeAll(() => {
      copy = makeCopy();
      prelude = shellPrelude(copy);
    }, 180_000);
    afterAll(async () => {
      for (const server of servers.splice(0)) interrupt(server.child, 'SIGKILL');
      if (copy) rmSync(copy, { recursive: true, force: true });
      copy = '';
    }, 120_000);

    for (const block of blocks.filter((b) => b.directives.some((d) => d.kind === 'file'))) {
      const shown = block.directives.find((d) => d.kind === 'file')!.path;
      it(`${file}:${block.line} shows ${shown} as it is`, () => {
        expect(block.text.trim()).toBe(readFileSync(path.join(root, shown), 'utf8').trim());
      });
    }

    for (const block of shellBlocks) {
      const skip = block.directives.find((d) => d.kind === 'skip');
      if (skip) {
        // Not run here: such a block must need what a test cannot have, a real staging service, or be run as written
        // by another test that names its section (the install of the package, in a project of its own), so that a skip
        // directive never hides a block that runs nowhere.
        const elsewhere = /^runs in (tests\/\S+\.test\.ts)/.exec(skip.reason);
        it(`${title(file, block)} is not run here only because it needs a real service or runs elsewhere (${skip.reason})`, () => {
          if (elsewhere) {
            expect(readFileSync(path.join(root, elsewhere[1]!), 'utf8')).toContain(`## ${block.section}`);
            return;
          }
          expect(block.text).toMatch(/https:\/\/staging\.example\.com/);
          expect(skip.reason).toMatch(/staging/);
        });
        continue;
      }
      const seconds = timeoutOf(block);
      const budget = block.commands.length * (seconds + 25) * 1000;
      // A block that starts Prism (servers, `contracts check` on its embedded mocks) gets one more try: under a heavy
      // load (other work on the same 2 cores) Prism can miss the CLI's own 20 s start-up bound, which is about the
      // machine, not the README. A block that fails twice fails.
      it(title(file, block), { timeout: budget, retry: block.commands.some(startsPrism) ? 1 : 0 }, async () => {
        let env = '';
        try {
          for (const command of block.commands) {
            if (command.skipped) continue;
            if (/^export\s/.test(command.bare)) env += `${command.bare}\n`;
            if (command.server) await startServer(command, env, seconds);
            else await runCommand(command, env, seconds);
          }
        } finally {
          if (lastOfSection(shellBlocks, block)) await stopAll();
        }
      });
    }
  });
}
