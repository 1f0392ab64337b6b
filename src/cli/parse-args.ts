// Parses one command's arguments against its option table; mistakes become UsageErrors with a clear message.
import { parseArgs } from 'node:util';
import { ContractsError } from '../core/errors.js';
import type { ParsedOptions, ProjectCommand } from './command.js';
import { didYouMean } from './did-you-mean.js';
import { watchLaunchers } from './launcher-watch.js';
import { configOption } from './options/shared-options.js';

export function parseCommandArgs(
  command: ProjectCommand,
  argv: string[],
): { options: ParsedOptions; positionals: string[] } {
  // --help and --config are every command's (main.ts handles them); the rest come from the command's table.
  const config: Record<string, { type: 'string' | 'boolean'; multiple?: boolean; short?: string }> = {
    help: { type: 'boolean', short: 'h' },
  };
  for (const option of [configOption, ...command.options]) {
    config[option.name] = {
      type: option.type,
      ...(option.multiple ? { multiple: true } : {}),
      ...(option.short ? { short: option.short } : {}),
    };
  }
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: config, allowPositionals: true, strict: true });
  } catch (error) {
    throw new ContractsError('USAGE', explainParseError(error as Error, Object.keys(config)));
  }
  const options: ParsedOptions = { ...(parsed.values as ParsedOptions) };
  if (!options.help) checkCombinations(command, options);
  for (const option of command.options) {
    if (options[option.name] === undefined && option.default !== undefined) options[option.name] = option.default;
  }
  // Every value through its parser now: a bad one is a usage error before anything starts (not with --help).
  if (!options.help) for (const option of command.options) option.parse?.(options[option.name]);
  return { options, positionals: parsed.positionals };
}

/**
 * The option table's `requires` and `conflicts`, on the options the user gave (before defaults are filled in): an
 * option that would do nothing in the chosen mode is a mistake worth saying, not something to ignore.
 */
function checkCombinations(command: ProjectCommand, given: ParsedOptions): void {
  for (const option of command.options) {
    if (given[option.name] === undefined || given[option.name] === false) continue;
    const missing = option.requires?.find((name) => given[name] === undefined || given[name] === false);
    if (missing !== undefined) throw new ContractsError('USAGE', `--${option.name} has no effect without --${missing}`);
    const clash = option.conflicts?.find((name) => given[name] !== undefined && given[name] !== false);
    if (clash !== undefined) throw new ContractsError('USAGE', `--${option.name} has no effect with --${clash}`);
  }
}

/** An --api value that names no API of the config (or `all`, where the command takes it): a usage error with a hint. */
export function checkApiName(value: unknown, names: readonly string[]): void {
  if (typeof value !== 'string' || value === 'all' || names.includes(value)) return;
  throw new ContractsError(
    'UNKNOWN_API',
    `unknown API "${value}".${didYouMean(value, names)} The APIs: ${names.join(', ')}`,
  );
}

function explainParseError(error: Error, known: string[]): string {
  const code = (error as { code?: string }).code;
  const option = /'(-{1,2}[^' ]+)/.exec(error.message)?.[1];
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const hint = option?.startsWith('--')
      ? didYouMean(option.slice(2).split('=')[0]!, known, (name) => `--${name}`)
      : '';
    return `unknown option ${option ?? ''}`.trim() + (hint ? `.${hint}` : '');
  }
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    const name = option?.split(' ')[0] ?? 'this option';
    if (/ambiguous/.test(error.message))
      return `option ${name} needs a value; for a value starting with "-" write ${name}=VALUE`;
    if (/does not take an argument/.test(error.message)) return `option ${name} takes no value`;
    return `option ${name} needs a value`;
  }
  return error.message.split('\n')[0] ?? String(error);
}

/**
 * Resolves on the first SIGINT, SIGTERM or SIGHUP, or (as SIGHUP) when the process that launched us is gone (see
 * launcher-watch.ts). Long-running commands call it before they start anything, so a signal during start-up still
 * stops what was started.
 */
export function untilSignalled(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const stopWatching = watchLaunchers(() => resolve('SIGHUP'));
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
      process.once(signal, () => {
        stopWatching();
        resolve(signal);
      });
    }
  });
}
