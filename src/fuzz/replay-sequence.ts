// `--replay` of a stateful walk's failure: its saved steps (creates first, the failing step last) made into the same
// bash script the run wrote (repro-script.ts), from this spec and credentials, and run against the target from a
// fresh start. The script judges the failure again (exit 1: still fails; 0: no longer fails, as the whole sequence
// was sent again; 2: could not run). Nothing of the report runs as code: every saved text enters the script as one
// quoted word (shell-word.ts), as in any script the run writes.
import { spawn } from 'node:child_process';
import type { Finding } from '../core/finding.js';
import { escapeLine } from '../core/escape-line.js';
import type { ApiTarget, Executor, SavedSequence } from './executor.js';
import { isPlainObject } from './fuzz-case.js';
import { reproScript, type TrailStep } from './repro-script.js';

/** What a replayed sequence showed (replay.ts's ReplayOutcome, without the failure). */
export interface SequenceOutcome {
  reproduced: boolean | undefined;
  status?: number;
  reason?: string;
  fromStart?: boolean;
}

/** The saved failure, as replay.ts read it. */
export interface SavedWalkFailure {
  id: string;
  check: string;
  operation: string;
  status: number;
  sequence: SavedSequence;
}

/** Most steps a saved sequence may hold: the walk's request budget is far below it. */
const maxSteps = 10_000;
/** Bytes of the script's output read: a line per step and the verdict. */
const maxOutput = 1 << 20;

/** What makes a saved sequence unusable, as a path and a reason, or undefined. */
export function sequenceProblem(
  sequence: unknown,
  requestProblem: (request: unknown) => string | undefined,
): string | undefined {
  if (!isPlainObject(sequence)) return ' is not an object';
  const { steps, finding } = sequence;
  if (!Array.isArray(steps) || steps.length === 0 || steps.length > maxSteps)
    return `.steps is not a list of 1 to ${maxSteps} steps`;
  for (const [index, step] of steps.entries()) {
    if (!isPlainObject(step)) return `.steps[${index}] is not an object`;
    const problem = requestProblem(step.request);
    if (problem) return `.steps[${index}].request${problem}`;
    if (!Number.isInteger(step.status)) return `.steps[${index}].status is not a status`;
    const { page } = step;
    if (
      page !== undefined &&
      !(
        isPlainObject(page) &&
        Number.isInteger(page.number) &&
        typeof page.itemsPointer === 'string' &&
        typeof page.idField === 'string'
      )
    )
      return `.steps[${index}].page is not a page number, items pointer and id field`;
  }
  if (!isPlainObject(finding) || typeof finding.message !== 'string' || typeof finding.instancePath !== 'string')
    return '.finding is not a finding (check, message, instancePath)';
  return undefined;
}

/** The reproduction script of a walk failure's steps (`steps`: its sequence, or fewer of them). */
export function sequenceScript(
  executor: Executor,
  target: ApiTarget,
  failure: SavedWalkFailure,
  steps: readonly TrailStep[],
  seed: number,
): string {
  const finding: Finding = { ...failure.sequence.finding, check: failure.check as Finding['check'] };
  const ids = executor.options.plugins?.(target.api)?.scriptIds;
  return reproScript({
    api: target.api,
    ...(ids ? { ids } : {}),
    failure: { ...failure, seed, message: finding.message },
    finding,
    trail: steps.slice(0, -1),
    last: steps.at(-1)!,
    operations: target.contract.operations,
    models: target.models,
    baseUrl: target.baseUrl,
    credentials: executor.binder.credentialsOf(target),
  });
}

/** The saved sequence sent again from a fresh start by its script, and what the script said. */
export async function replaySequence(
  executor: Executor,
  target: ApiTarget,
  failure: SavedWalkFailure,
  timeoutMs: number,
): Promise<SequenceOutcome> {
  const steps = failure.sequence.steps as TrailStep[];
  const script = sequenceScript(executor, target, failure, steps, 0);
  const { code, stdout, stderr } = await runScript(executor, target, script, (steps.length + 2) * timeoutMs);
  const status = /answered (\d{3})/.exec(stdout)?.[1];
  const answered = status === undefined ? {} : { status: Number(status) };
  if (code === 1) return { reproduced: true, ...answered, fromStart: true };
  if (code === 0) return { reproduced: false, ...answered, fromStart: true };
  const why = stderr.split('\n').find((line) => line.startsWith('cannot run') || line.includes('cannot go on'));
  return {
    reproduced: undefined,
    reason: `its ${steps.length} steps could not be sent again: ${escapeLine(why ?? `the script ended with ${code}`).slice(0, 300)}`,
  };
}

/** Runs a reproduction script against the target, with the run's environment (its credentials). */
export function runScript(executor: Executor, target: ApiTarget, script: string, deadlineMs: number) {
  const env: NodeJS.ProcessEnv = { ...(executor.options.env ?? process.env), BASE_URL: target.baseUrl };
  // A check the core judges from one answer is judged again by this same CLI (`contracts validate`).
  const self = [process.execPath, process.argv[1] ?? ''];
  if (self.every((part) => /^[\w./-]+$/.test(part))) env.CONTRACTS = self.join(' ');
  return runBash(script, env, deadlineMs);
}

/** Runs a script with bash (BASE_URL set, the environment's credentials), killed past `deadlineMs`. */
function runBash(
  script: string,
  env: NodeJS.ProcessEnv,
  deadlineMs: number,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', script], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    const read = (into: 'out' | 'err') => (chunk: Buffer) => {
      if (into === 'out' && stdout.length < maxOutput) stdout += chunk.toString();
      if (into === 'err' && stderr.length < maxOutput) stderr += chunk.toString();
    };
    child.stdout.on('data', read('out'));
    child.stderr.on('data', read('err'));
    const timer = setTimeout(() => child.kill('SIGKILL'), deadlineMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ code: 2, stdout, stderr: `cannot run: bash: ${error.message}` });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
