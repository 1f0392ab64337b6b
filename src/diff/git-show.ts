// Reads a file as it was at a git ref with `git show REF:PATH` (no checkout, no shell): the BASE of `contracts diff --base`.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { ContractsError } from '../core/errors.js';

const maxSpecBytes = 64 * 1024 * 1024;

function git(args: string[], cwd: string): Promise<{ ok: boolean; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      'git',
      args,
      { cwd, maxBuffer: maxSpecBytes, timeout: 60_000, encoding: 'utf8' },
      (error, stdout, stderr) => {
        resolve({ ok: !error, stdout, stderr: stderr || (error ? error.message : '') });
      },
    );
  });
}

export interface GitRef {
  ref: string;
  commit: string;
  root: string;
}

/** Checks that `ref` names a commit of the repository holding `cwd`; otherwise one clear line. */
export async function resolveRef(ref: string, cwd: string): Promise<GitRef> {
  if (ref.startsWith('-')) throw new ContractsError('USAGE', `--base takes a git ref, not "${ref}"`);
  const top = await git(['rev-parse', '--show-toplevel'], cwd);
  if (!top.ok)
    throw new ContractsError(
      'INPUT_NOT_READABLE',
      `--base ${ref}: not inside a git repository (${firstLine(top.stderr)})`,
    );
  const commit = await git(['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`], cwd);
  if (!commit.ok)
    throw new ContractsError(
      'INPUT_NOT_READABLE',
      `--base ${ref}: no such commit, branch or tag in this repository (fetch it first, e.g. git fetch origin ${ref.replace(/^origin\//, '')})`,
    );
  return { ref, commit: commit.stdout.trim(), root: top.stdout.trim() };
}

/** The file's text at the ref, or undefined when it did not exist there (a spec added since). */
export async function showAtRef(at: GitRef, file: string): Promise<string | undefined> {
  const relative = path.relative(at.root, path.resolve(file)).split(path.sep).join('/');
  if (relative.startsWith('..'))
    throw new ContractsError('INPUT_NOT_READABLE', `${file} is outside the git repository at ${at.root}`);
  const shown = await git(['show', `${at.commit}:${relative}`], at.root);
  if (shown.ok) return shown.stdout;
  if (/does not exist|exists on disk, but not in/.test(shown.stderr)) return undefined;
  throw new ContractsError('INPUT_NOT_READABLE', `cannot read ${relative} at ${at.ref}: ${firstLine(shown.stderr)}`);
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0] ?? '';
}
