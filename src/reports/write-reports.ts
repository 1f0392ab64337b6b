// Parses `--report kind:FILE` and writes each report, redacted, atomically (a reader never sees half a file).
import { randomBytes } from 'node:crypto';
import { writeSync } from 'node:fs';
import { chmod, mkdir, open, rename, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ContractsError } from '../core/errors.js';
import { escapeControls } from './escape-controls.js';
import type { Redactor } from './redact.js';
import type { CheckRun } from '../reports/check-run.js';
import { htmlReport } from './html-report.js';
import { jsonReport } from './json-report.js';
import { junitReport } from './junit-report.js';
import { fileInTheWay, resolveReportPath, type ReportTarget } from './report-path.js';

export type { ReportTarget } from './report-path.js';

export function parseReportTargets(values: readonly string[], cwd: string): ReportTarget[] {
  return values.map((value) => {
    const match = /^(junit|json|html):(.+)$/.exec(value);
    if (!match)
      throw new ContractsError('USAGE', `--report takes junit:FILE or json:FILE or html:FILE, not "${value}"`);
    return { kind: match[1] as ReportTarget['kind'], file: path.resolve(cwd, match[2]!), shown: match[2]! };
  });
}

export async function writeReports(run: CheckRun, targets: readonly ReportTarget[], redactor: Redactor): Promise<void> {
  for (const target of targets) {
    const text = redactor.redact(
      target.kind === 'junit'
        ? junitReport(run)
        : target.kind === 'html'
          ? htmlReport(run, { redact: (value) => redactor.redact(value) })
          : jsonReport(run),
    );
    try {
      await writeReport(target.file, text);
    } catch (error) {
      const inTheWay = await fileInTheWay(target.file).catch(() => undefined);
      const reason =
        inTheWay !== undefined
          ? `${inTheWay} is a file, not a folder`
          : ((error as NodeJS.ErrnoException).code ?? (error as Error).message);
      throw new ContractsError(
        'REPORT_NOT_WRITABLE',
        `cannot write the ${target.kind} report to ${target.shown ?? target.file}: ${reason}`,
      );
    }
  }
}

/**
 * A device (/dev/stdout, a FIFO) is written in place. A file is written to a fresh temporary file next to
 * where the symlinks lead, then renamed over it: the symlink stays, and a reader never sees half a report.
 * The temporary name is random and opened with `wx`, so a file or symlink planted at it makes the write
 * fail instead of being followed.
 */
async function writeReport(file: string, text: string): Promise<void> {
  const target = await resolveReportPath(file);
  if (target.kind === 'device') {
    const fd = descriptorOf(target.real);
    if (fd !== undefined) await writeToDescriptor(fd, text);
    // Appending: on a file a shell redirected to, truncating would erase what is already there.
    else await writeFile(target.real, text, { flag: 'a' });
    return;
  }
  if (target.kind === 'directory') throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
  const dir = path.dirname(target.real);
  await mkdir(dir, { recursive: true });
  const temporary = path.join(dir, `.${path.basename(target.real)}.${randomBytes(8).toString('hex')}.tmp`);
  const handle = await open(temporary, 'wx', 0o666);
  try {
    try {
      await handle.writeFile(text);
    } finally {
      await handle.close();
    }
    // Replacing a report keeps its permissions.
    if (target.kind === 'file') await chmod(temporary, (await stat(target.real)).mode & 0o7777);
    await rename(temporary, target.real);
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
}

/**
 * /dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N: one of our own descriptors. Written to directly, because
 * opening the path again fails when it is a socket (ENXIO), as when a parent process spawned us.
 */
function descriptorOf(file: string): number | undefined {
  const match = /^\/(?:dev\/(stdout|stderr)|dev\/fd\/(\d+)|proc\/self\/fd\/(\d+))$/.exec(file);
  if (!match) return undefined;
  if (match[1]) return match[1] === 'stdout' ? 1 : 2;
  return Number(match[2] ?? match[3]);
}

async function writeToDescriptor(fd: number, text: string): Promise<void> {
  const stream = fd === 1 ? process.stdout : fd === 2 ? process.stderr : undefined;
  if (stream) {
    // Through the stream, so the report comes after the console lines already queued on it; escaped like every
    // console line (JSON escapes C0 controls but not C1, and a \u009b stands for the same character).
    const line = escapeControls(text.endsWith('\n') ? text : `${text}\n`);
    await new Promise<void>((resolve, reject) => stream.write(line, (error) => (error ? reject(error) : resolve())));
    return;
  }
  const bytes = Buffer.from(text);
  for (let written = 0; written < bytes.length; ) written += writeSync(fd, bytes, written);
}
