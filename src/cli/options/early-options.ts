// What main() needs before it has a command's whole table, which names the project's APIs (`--port-inventory`) and
// so waits for the config: --config, --spec and --format. Read from the same definitions as the table's, leniently
// (an option the project would add is passed over here); the command's full, strict parse follows and reports any
// mistake.
import { parseArgs } from 'node:util';
import type { OptionSpec } from '../command.js';
import { splitSpecValue } from '../spec-option.js';
import { configOption } from './shared-options.js';

export interface EarlyOptions {
  /** --config FILE, the last one given. */
  config: string | undefined;
  /** --spec [API=]FILE values, split as spec-option.ts splits them, without empty files. */
  specs: { api: string | undefined; file: string }[];
  /** --format, the last one given. */
  format: string | undefined;
}

/** The early options among a command's arguments; `known` is what of its table is known without the project. */
export function earlyOptions(argv: readonly string[], known: readonly OptionSpec[] = []): EarlyOptions {
  const config: Record<string, { type: 'string' | 'boolean'; multiple: true; short?: string }> = {};
  for (const option of [...known, configOption])
    config[option.name] = { type: option.type, multiple: true, ...(option.short ? { short: option.short } : {}) };
  for (const name of ['spec', 'format']) config[name] ??= { type: 'string', multiple: true };
  let values: Record<string, unknown> = {};
  try {
    values = parseArgs({ args: [...argv], options: config, allowPositionals: true, strict: false }).values;
  } catch {
    // Whatever cannot be read here, the command's strict parse says in one line.
  }
  const strings = (name: string) =>
    ([] as unknown[])
      .concat(values[name] ?? [])
      .filter((value): value is string => typeof value === 'string' && value !== '');
  return {
    config: strings('config').at(-1),
    specs: strings('spec')
      .map(splitSpecValue)
      .filter(({ file }) => file !== ''),
    format: strings('format').at(-1),
  };
}
