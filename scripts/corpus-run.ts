// One `contracts` command of the corpus run as a real process: its own process group (so it and whatever it starts
// can be stopped together), a timeout, peak memory from GNU time, and the outcome classified from its exit and output.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';

export type Outcome = 'ok' | 'error' | 'internal' | 'timeout' | 'skipped' | 'cancelled';

export interface CommandResult {
  outcome: Outcome;
  exitCode: number | null;
  /** The signal that ended the command, when one did. */
  signal: string | null;
  seconds: number;
  /** Peak resident memory of its largest process, in KB (GNU time's %M); null without /usr/bin/time. */
  peakKb: number | null;
  /** First non-empty line of stderr, capped. */
  firstStderr: string;
  /** Last non-empty line of stdout, capped: the summary most commands end with. */
  lastStdout: string;
  /** For `internal`: the line that made it so, and the stack under it when the CLI printed one. */
  evidence?: string;
  stack?: string[];
  /** For `timeout`: whether SIGINT stopped it within the grace period. */
  sigint?: 'stopped' | 'ignores-sigint';
  /** Something worth a look that does not change the outcome (processes left behind, an exit 2 that is not one line). */
  notes?: string[];
}

export interface RunOptions {
  /** Arguments after `contracts`. */
  args: string[];
  cwd: string;
  timeoutMs: number;
  env: NodeJS.ProcessEnv;
  /** Run-wide abort (the deadline, Ctrl-C): the command is stopped and counted as cancelled. */
  signal: AbortSignal;
  /** A line on stdout that means "up": the command is then sent SIGINT, as a user's Ctrl-C (contracts mock). */
  readyPattern?: RegExp;
}

const lineCap = 300;
const headBytes = 256 * 1024;
const tailBytes = 64 * 1024;
const sigintGraceMs = 5000;
const timeBin = '/usr/bin/time';
export const hasGnuTime = existsSync(timeBin);
const repoRoot = path.resolve(import.meta.dirname, '..');
const contractsBin = path.join(repoRoot, 'bin/contracts.js');

const stackLine = /^\s+at (?:async )?(?:\S.*\()?(?:file:\/\/|\/|node:)[^\s)]*:\d+(?::\d+)?\)?\s*$/m;
const crashLine = /internal error|FATAL ERROR|heap out of memory|Segmentation fault|Maximum call stack size exceeded/i;

export const cap = (text: string) => (text.length > lineCap ? `${text.slice(0, lineCap - 1)}…` : text);

/** Keeps the start and the end of a stream, so a flood of output costs bounded memory. */
class BoundedText {
  private head = '';
  private tail = '';
  private dropped = 0;
  add(chunk: string): void {
    if (this.head.length < headBytes) {
      const room = headBytes - this.head.length;
      this.head += chunk.slice(0, room);
      chunk = chunk.slice(room);
    }
    if (chunk.length === 0) return;
    this.tail += chunk;
    if (this.tail.length > tailBytes) {
      this.dropped += this.tail.length - tailBytes;
      this.tail = this.tail.slice(-tailBytes);
    }
  }
  text(): string {
    return this.dropped > 0 ? `${this.head}\n…\n${this.tail}` : this.head + this.tail;
  }
}

function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * The processes of a group that still run (zombies waiting to be reaped do not count: a reparented esbuild service
 * shows as <defunct> for a moment), each as its command line.
 */
function liveMembers(pgid: number): string[] {
  const listing = spawnSync('ps', ['-eo', 'pgid=,stat=,args='], { encoding: 'utf8' }).stdout ?? '';
  return listing
    .split('\n')
    .map((line) => /^\s*(\d+)\s+(\S+)\s+(.*)$/.exec(line))
    .filter((match) => match !== null && Number(match[1]) === pgid && !match[2]!.startsWith('Z'))
    .map((match) => match![3]!.replaceAll(repoRoot, '.').slice(0, 100));
}

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

/** Every process group still running, so Ctrl-C on the corpus run can stop them all. */
export const liveGroups = new Set<number>();

export async function runContracts(options: RunOptions): Promise<CommandResult> {
  const memFile = path.join(options.cwd, `.time-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}`);
  const command = hasGnuTime
    ? [timeBin, '-f', '%M', '-o', memFile, process.execPath, contractsBin, ...options.args]
    : [process.execPath, contractsBin, ...options.args];
  const started = performance.now();
  const child = spawn(command[0]!, command.slice(1), {
    cwd: options.cwd,
    env: options.env,
    detached: true, // its own process group: a timeout stops it and every process it started
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const pid = child.pid!;
  liveGroups.add(pid);
  const stdout = new BoundedText();
  const stderr = new BoundedText();
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => stdout.add(chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => stderr.add(chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal })),
  );

  let reason: 'timeout' | 'cancelled' | 'ready' | undefined;
  let sigint: CommandResult['sigint'];
  const stopWithGrace = async (why: 'timeout' | 'cancelled' | 'ready') => {
    if (reason !== undefined) return;
    reason = why;
    killGroup(pid, 'SIGINT');
    const stopped = await Promise.race([exited.then(() => true), sleep(sigintGraceMs).then(() => false)]);
    sigint = stopped ? 'stopped' : 'ignores-sigint';
    if (!stopped) killGroup(pid, 'SIGKILL');
  };
  const timer = setTimeout(() => void stopWithGrace('timeout'), options.timeoutMs);
  const onAbort = () => void stopWithGrace('cancelled');
  options.signal.addEventListener('abort', onAbort, { once: true });
  if (options.signal.aborted) onAbort();
  if (options.readyPattern) {
    const pattern = options.readyPattern;
    let seen = '';
    child.stdout.on('data', (chunk: string) => {
      if (reason !== undefined || seen.length > headBytes) return;
      seen += chunk;
      if (pattern.test(seen)) void stopWithGrace('ready');
    });
  }

  const exit = await exited;
  const seconds = (performance.now() - started) / 1000;
  clearTimeout(timer);
  options.signal.removeEventListener('abort', onAbort);
  // A mock's "ready" SIGINT must finish its grace wait before the verdict.
  while (reason !== undefined && sigint === undefined) await sleep(50);
  const notes: string[] = [];
  // A process just reparented may take a moment to be reaped: look again before calling it left behind.
  const left = groupAlive(pid) ? (await sleep(1000), liveMembers(pid)) : [];
  if (left.length > 0) {
    notes.push(`still running after the command exited (stopped by the corpus run): ${left.join(' | ')}`);
    killGroup(pid, 'SIGKILL');
  }
  liveGroups.delete(pid);

  const timeReport = hasGnuTime ? await readFile(memFile, 'utf8').catch(() => '') : '';
  await rm(memFile, { force: true });
  const peak = Number(timeReport.trim().split('\n').at(-1));
  const termination = /Command terminated by signal (\d+)/.exec(timeReport);
  // Under GNU time the command's own death by a signal shows as "terminated by signal N" (time exits 128+N).
  const signal = exit.signal ?? (termination ? signalName(Number(termination[1])) : null);
  const exitCode = termination ? null : exit.code;
  const err = stderr.text();
  const out = stdout.text();
  const firstStderr = cap(
    err
      .split('\n')
      .find((line) => line.trim() !== '')
      ?.trim() ?? '',
  );
  const result: CommandResult = {
    outcome: 'ok',
    exitCode,
    signal,
    seconds: Math.round(seconds * 100) / 100,
    peakKb: Number.isFinite(peak) && peak > 0 ? peak : null,
    firstStderr,
    lastStdout: cap(
      out
        .split('\n')
        .findLast((line) => line.trim() !== '')
        ?.trim() ?? '',
    ),
  };

  if (reason === 'timeout' || (reason === 'ready' && sigint === 'ignores-sigint')) {
    result.outcome = 'timeout';
    result.sigint = sigint;
    if (reason === 'ready') notes.push('it was up, and did not stop within 5 s of SIGINT');
  } else if (reason === 'cancelled') {
    result.outcome = 'cancelled';
  } else {
    const evidence = findEvidence(err) ?? findEvidence(out);
    if (evidence) {
      result.outcome = 'internal';
      result.evidence = evidence.line;
      if (evidence.stack.length > 0) result.stack = evidence.stack;
    } else if (reason === 'ready' ? exitCode !== 0 : signal !== null || ![0, 1, 2].includes(exitCode ?? -1)) {
      result.outcome = 'internal';
      result.evidence = cap(
        signal !== null ? `ended by ${signal}` : `exit status ${exitCode}${reason === 'ready' ? ' after SIGINT' : ''}`,
      );
    } else if (exitCode === 2) {
      result.outcome = 'error';
      const lines = err.split('\n').filter((line) => line.trim() !== '' && !/^Run `contracts .* --help`/.test(line));
      if (lines.length !== 1)
        notes.push(lines.length === 0 ? 'exit 2 with nothing on stderr' : `exit 2 with ${lines.length} stderr lines`);
    }
  }
  if (notes.length > 0) result.notes = notes;
  return result;
}

/** The line of the output that shows a crash, and the stack frames after it. */
function findEvidence(text: string): { line: string; stack: string[] } | undefined {
  const lines = text.split('\n');
  const crash = lines.findIndex((line) => crashLine.test(line));
  const firstFrame = lines.findIndex((line) => stackLine.test(line));
  if (crash === -1 && firstFrame === -1) return undefined;
  const at = crash !== -1 ? crash : Math.max(0, firstFrame - 1);
  const stack = lines
    .slice(at + 1)
    .filter((line) => stackLine.test(line))
    .slice(0, 8)
    .map((line) => cap(line.trim()));
  return { line: cap(lines[at]!.trim()), stack };
}

const signalNames: Record<number, string> = { 1: 'SIGHUP', 2: 'SIGINT', 6: 'SIGABRT', 9: 'SIGKILL', 11: 'SIGSEGV' };
const signalName = (n: number) => signalNames[n] ?? `signal ${n}`;

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Ctrl-C on the corpus run: every command still running is stopped (SIGINT, then SIGKILL after the grace period). */
export async function stopAllGroups(): Promise<void> {
  for (const pid of liveGroups) killGroup(pid, 'SIGINT');
  const deadline = Date.now() + sigintGraceMs;
  while (Date.now() < deadline && [...liveGroups].some(groupAlive)) await sleep(100);
  for (const pid of liveGroups) killGroup(pid, 'SIGKILL');
}
