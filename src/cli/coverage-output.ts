// --coverage FILE and --min-coverage N, shared by the commands that observe traffic: parses the threshold, prints
// the summary, writes the JSON, and says whether the run fell short.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { coverageLines, type CoverageReport } from '../core/coverage.js';
import { ContractsError } from '../core/errors.js';
import type { Io, OptionSpec, ParsedOptions } from './command.js';

export const coverageOptions: OptionSpec[] = [
  {
    name: 'coverage',
    type: 'string',
    valueName: 'file',
    description:
      'Write the contract coverage as JSON (operations exercised, statuses, media types and parameters seen)',
  },
  {
    name: 'min-coverage',
    type: 'string',
    valueName: 'percent',
    description: 'Fail (exit 1) when fewer than this % of the documented operation × status pairs were seen',
  },
];

export interface CoverageSettings {
  file: string | undefined;
  shown: string | undefined;
  min: number | undefined;
}

export function coverageSettings(options: ParsedOptions, io: Io): CoverageSettings {
  const raw = options['min-coverage'];
  let min: number | undefined;
  if (raw !== undefined) {
    min = Number(raw);
    if (typeof raw !== 'string' || raw.trim() === '' || !(min >= 0 && min <= 100))
      throw new ContractsError('USAGE', `--min-coverage must be a percentage from 0 to 100, not "${String(raw)}"`);
  }
  const shown = options.coverage === undefined ? undefined : String(options.coverage);
  return { file: shown === undefined ? undefined : path.resolve(io.cwd, shown), shown, min };
}

/** Prints the summary (to `print`), writes the file; returns true when the run is under --min-coverage. */
export async function reportCoverage(
  report: CoverageReport,
  settings: CoverageSettings,
  io: Io,
  print: (line: string) => void,
): Promise<boolean> {
  for (const line of coverageLines(report)) print(line);
  if (settings.file !== undefined) {
    try {
      await mkdir(path.dirname(settings.file), { recursive: true });
      await writeFile(settings.file, io.redactor.redact(JSON.stringify(report, null, 2)) + '\n');
    } catch (error) {
      throw new ContractsError(
        'REPORT_NOT_WRITABLE',
        `cannot write the coverage to ${settings.shown}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      );
    }
  }
  if (settings.min !== undefined && report.statusPairs.percent < settings.min) {
    print(`coverage ${report.statusPairs.percent}% is under --min-coverage ${settings.min}%`);
    return true;
  }
  return false;
}
