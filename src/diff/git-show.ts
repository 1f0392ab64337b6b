// Reads a file as it was at a git ref with `git show REF:PATH` (no checkout, no shell): the BASE of `contracts diff --base`.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { ContractsError } from '../core/errors.js';
import { defaultMaxSpecFileBytes } from '../core/read-bounded.js';
import type { RefSource } from '../core/resolve-refs.js';

function git(args: string[], cwd: string): Promise<{ ok: boolean; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      'git',
      args,
      { cwd, maxBuffer: defaultMaxSpecFileBytes, timeout: 60_000, encoding: 'utf8' },
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

/**
 * The files a base spec's `$ref`s name, read from the same commit under the resolver's rules: a symbolic link in
 * git is not followed, a file over the bound is not read.
 */
export function gitRefSource(at: GitRef): RefSource {
  const relative = (file: string) => path.relative(at.root, path.resolve(file)).split(path.sep).join('/');
  const entry = async (file: string) => {
    const rel = relative(file);
    if (rel.startsWith('..') || path.isAbsolute(rel)) return undefined;
    const listed = await git(['ls-tree', '-l', '--full-tree', at.commit, '--', rel], at.root);
    const match = /^(\d+) (\w+) ([0-9a-f]+)\s+(-|\d+)\t/.exec(listed.stdout);
    return match ? { mode: match[1]!, type: match[2]!, sha: match[3]!, size: Number(match[4]) } : undefined;
  };
  return {
    canonical: async (file) => ((await entry(file)) ? path.resolve(file) : undefined),
    read: async (file, maxBytes) => {
      const found = await entry(file);
      if (!found) return { refused: `is not in ${at.ref}` };
      if (found.mode === '120000') return { refused: 'is a symbolic link in git (not followed)' };
      if (found.type !== 'blob') return { refused: 'is a directory, not a file' };
      if (found.size > maxBytes) return { refused: `is over the limit for a spec file at ${at.ref}` };
      const shown = await git(['cat-file', 'blob', found.sha], at.root);
      if (!shown.ok) return { refused: `cannot be read at ${at.ref}` };
      return { text: shown.stdout };
    },
  };
}
