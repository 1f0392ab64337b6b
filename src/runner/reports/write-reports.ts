// Parses `--report kind:FILE` and writes each report, redacted, atomically (a reader never sees half a file).
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ContractsError } from '../../core/errors.js';
import type { Redactor } from '../redact.js';
import type { CheckRun } from '../run-check.js';
import { htmlReport } from './html-report.js';
import { jsonReport } from './json-report.js';
import { junitReport } from './junit-report.js';

export interface ReportTarget {
  kind: 'junit' | 'json' | 'html';
  file: string;
}

export function parseReportTargets(values: readonly string[], cwd: string): ReportTarget[] {
  return values.map((value) => {
    const match = /^(junit|json|html):(.+)$/.exec(value);
    if (!match) throw new ContractsError('USAGE', `--report takes junit:FILE or json:FILE or html:FILE, not "${value}"`);
    return { kind: match[1] as ReportTarget['kind'], file: path.resolve(cwd, match[2]!) };
  });
}

export async function writeReports(run: CheckRun, targets: readonly ReportTarget[], redactor: Redactor): Promise<void> {
  for (const target of targets) {
    const text = redactor.redact(target.kind === 'junit' ? junitReport(run) : target.kind === 'html' ? htmlReport(run, { redact: (value) => redactor.redact(value) }) : jsonReport(run));
    const temporary = `${target.file}.${process.pid}.tmp`;
    try {
      await mkdir(path.dirname(target.file), { recursive: true });
      await writeFile(temporary, text);
      await rename(temporary, target.file);
    } catch (error) {
      throw new ContractsError('REPORT_NOT_WRITABLE', `cannot write the ${target.kind} report to ${target.file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
  }
}
