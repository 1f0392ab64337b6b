// The parsers of the option table's values (shared-options.ts, the commands' own options, the plug-ins' through
// core/): each turns what the user typed into a typed value or a usage error in one line naming the option.
import { ContractsError } from '../../core/errors.js';

/** A string option that must be one of `choices`. */
export function requireChoice(name: string, value: unknown, choices: readonly string[]): string {
  if (typeof value !== 'string' || !choices.includes(value)) {
    throw new ContractsError(
      'USAGE',
      `--${name} must be one of ${choices.join(', ')}${value === undefined ? '' : `, not "${String(value)}"`}`,
    );
  }
  return value;
}

/**
 * A size in megabytes (--max-body, --max-in-flight): more than 0, at most 1024; in bytes. One rule for every command
 * that takes one (check, validate, proxy).
 */
export function requireMegabytes(value: unknown, name = 'max-body'): number {
  const megabytes = Number(value);
  if (!(megabytes > 0) || megabytes > 1024)
    throw new ContractsError('USAGE', `--${name} must be a number of megabytes from 0 to 1024, not "${String(value)}"`);
  return Math.round(megabytes * 2 ** 20);
}

export function requireMilliseconds(name: string, value: unknown): number {
  const ms = Number(value);
  if (!Number.isSafeInteger(ms) || ms < 1)
    throw new ContractsError('USAGE', `--${name} must be a whole number of milliseconds, not "${String(value)}"`);
  return ms;
}

/** A port option: a whole number from 0 (any free port) to 65535. */
export function requirePort(name: string, value: unknown): number {
  const raw = String(value);
  const port = Number(raw);
  if (!/^\d+$/.test(raw) || port > 65535)
    throw new ContractsError('USAGE', `--${name} must be a port number from 0 to 65535, not "${raw}"`);
  return port;
}

/** A whole number from min to max, or a usage error naming the option and what it got. */
export function wholeNumber(name: string, raw: unknown, min: number, max: number, unit = ''): number {
  const value = Number(raw);
  if (typeof raw !== 'string' || !/^\d+$/.test(raw.trim()) || value < min || value > max)
    throw new ContractsError(
      'USAGE',
      `--${name} must be a whole number${unit} from ${min} to ${max}, not "${String(raw)}"`,
    );
  return value;
}
