// Where a report will really land, and whether it may: checked before a run, so a bad --report costs nothing.
import { lstat, readlink, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { ContractsError } from '../core/errors.js';

export interface ReportTarget {
  kind: 'junit' | 'json' | 'html';
  /** Absolute path as given (it may be a symlink). */
  file: string;
  /** The path as the user wrote it, for messages. */
  shown?: string;
}

/**
 * What is at a report path once symlinks are followed: `new` (nothing yet), `file`, `directory`, or `device`
 * (a character device, FIFO or socket such as /dev/stdout, written to in place). `real` is the path the
 * symlinks lead to, so a report replaces the file a symlink points at and leaves the symlink itself.
 */
export interface ReportPath {
  real: string;
  kind: 'new' | 'file' | 'directory' | 'device';
}

const maxSymlinkHops = 40;

export async function resolveReportPath(file: string): Promise<ReportPath> {
  let current = path.resolve(file);
  for (let hop = 0; hop < maxSymlinkHops; hop++) {
    // /dev/stdout, /dev/fd/3, /proc/self/fd/1: whatever they lead to (a pipe, a terminal, the file a shell
    // redirected to), the report is written through them, never renamed over what they stand for.
    if (/^\/(dev|proc)\//.test(current)) {
      const stats = await stat(current).catch(() => undefined);
      if (stats && !stats.isDirectory()) return { real: current, kind: 'device' };
    }
    const stats = await lstat(current).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return undefined;
      throw error;
    });
    if (!stats) return { real: await realAncestorPath(current), kind: 'new' };
    if (stats.isSymbolicLink()) {
      // Followed by hand rather than by realpath, so a dangling link still says where the file would go.
      current = path.resolve(path.dirname(current), await readlink(current));
      continue;
    }
    if (stats.isDirectory()) return { real: await realpath(current), kind: 'directory' };
    if (!stats.isFile()) return { real: current, kind: 'device' };
    return { real: await realpath(current), kind: 'file' };
  }
  throw Object.assign(new Error('too many levels of symbolic links'), { code: 'ELOOP' });
}

/** `file` with its deepest existing ancestor replaced by that ancestor's real path. */
async function realAncestorPath(file: string): Promise<string> {
  const rest: string[] = [];
  let dir = file;
  for (;;) {
    const parent = path.dirname(dir);
    rest.unshift(path.basename(dir));
    dir = parent;
    try {
      return path.join(await realpath(dir), ...rest);
    } catch {
      if (parent === path.dirname(parent)) return file;
    }
  }
}

/** The first ancestor folder of `file` that exists but is not a folder, if any: a report cannot go under it. */
export async function fileInTheWay(file: string): Promise<string | undefined> {
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    const stats = await stat(dir).catch(() => undefined);
    if (stats) return stats.isDirectory() ? undefined : dir;
    if (dir === path.dirname(dir)) return undefined;
  }
}

export interface RunInput {
  file: string;
  /** What it is, for the message: "the client-session spec". */
  what: string;
}

/**
 * Refuses, before anything runs, a report path that is a directory, sits under a file, is given twice, or is
 * (through any symlink) a file the run reads: a report must never replace its own inputs.
 */
export async function checkReportTargets(targets: readonly ReportTarget[], inputs: readonly RunInput[]): Promise<void> {
  const realInputs = await Promise.all(
    inputs.map(async (input) => ({ ...input, real: await realpath(input.file).catch(() => path.resolve(input.file)) })),
  );
  const seen = new Map<string, ReportTarget>();
  for (const target of targets) {
    const shown = `--report ${target.kind}:${target.shown ?? target.file}`;
    let resolved: ReportPath;
    try {
      resolved = await resolveReportPath(target.file);
    } catch (error) {
      throw new ContractsError(
        'REPORT_NOT_WRITABLE',
        `${shown}: cannot use this path: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      );
    }
    if (resolved.kind === 'directory')
      throw new ContractsError('REPORT_NOT_WRITABLE', `${shown} is a directory: name a file`);
    const input = realInputs.find((candidate) => candidate.real === resolved.real);
    if (input)
      throw new ContractsError(
        'REPORT_NOT_WRITABLE',
        `${shown} would overwrite ${input.what}: write the report elsewhere`,
      );
    if (resolved.kind === 'new') {
      const inTheWay = await fileInTheWay(resolved.real);
      if (inTheWay !== undefined)
        throw new ContractsError('REPORT_NOT_WRITABLE', `${shown}: ${inTheWay} is a file, not a folder`);
    }
    const earlier = seen.get(resolved.real);
    if (earlier && resolved.kind !== 'device') {
      throw new ContractsError(
        'REPORT_NOT_WRITABLE',
        `${shown} is the same file as --report ${earlier.kind}:${earlier.shown ?? earlier.file}: give each report its own file`,
      );
    }
    seen.set(resolved.real, target);
  }
}
