// `--checks FILE` and the config's `apis[].checks`: which module of the user's own checks each API of a run uses
// (src/config/load-user-checks.ts loads it; src/core/user-checks/run-user-checks.ts runs it). One option, the same
// meaning on check, fuzz, proxy and validate.
import path from 'node:path';
import type { ChecksModule } from '../config/load-user-checks.js';
import { ContractsError } from '../core/errors.js';
import { escapeLine } from '../core/escape-line.js';
import { notExercisedReason, userChecksNotRun } from '../core/user-checks/run-user-checks.js';
import type { UserCheckSet, UserChecksLoader } from '../core/user-checks/user-check-set.js';
import type { Io, OptionSpec, ParsedOptions } from './command.js';

export const checksOption: OptionSpec = {
  name: 'checks',
  type: 'string',
  valueName: 'file',
  description: "A .ts or .js module of your own checks (defineChecks); default: the config API's `checks`",
};

/**
 * The checks module of each API of the run: --checks FILE (relative to the working folder) for the run's one API,
 * else the API's `checks` from the config (relative to the config's folder, confined to the project when read).
 */
export function checksModules(
  options: ParsedOptions,
  io: Io,
  apis: readonly { name: string; checks?: string | undefined; baseDir?: string }[],
): (api: string) => ChecksModule | undefined {
  const given = options.checks;
  if (typeof given === 'string') {
    if (apis.length !== 1)
      throw new ContractsError(
        'USAGE',
        `--checks holds the checks of one API, and this run has ${apis.length}: name it with --api, or set apis[].checks in the config`,
      );
    const module = { file: path.resolve(io.cwd, given), shown: given };
    return () => module;
  }
  const modules = new Map<string, ChecksModule>();
  for (const api of apis) {
    if (api.checks === undefined || api.baseDir === undefined) continue;
    const file = path.resolve(api.baseDir, api.checks);
    modules.set(api.name, { file, shown: path.relative(io.cwd, file) || file });
  }
  return (api) => modules.get(api);
}

/** Loads each API's module when the runner asks (its spec is loaded then); nothing is imported for an API without. */
export function userChecksLoader(modules: (api: string) => ChecksModule | undefined): UserChecksLoader {
  return async (api, contract) => {
    const module = modules(api);
    if (module === undefined) return undefined;
    const { loadUserChecks } = await import('../config/load-user-checks.js');
    return loadUserChecks(module, contract);
  };
}

/**
 * One line per user check that ran on no exchange; how many. `fails`: a failure (proxy: the session claimed it),
 * else a note (validate of one response: the user chose which response, of which operation).
 */
export function sayUserChecksNotRun(
  checks: UserCheckSet | undefined,
  out: (line: string) => void,
  fails = true,
): number {
  const notRun = userChecksNotRun(checks);
  for (const { check, operations } of notRun) {
    const where = operations[0] === '*' ? '' : ` (${operations.map(escapeLine).join(', ')})`;
    out(
      fails
        ? `✗ ${check}${where}: could not be exercised: ${notExercisedReason}`
        : `- ${check}${where}: not exercised: this response is of another operation`,
    );
  }
  return notRun.length;
}

/** The loader of a run's checks modules (APIs `names`, their config entries in `entries`): see checksModules. */
export function userChecksFor(
  options: ParsedOptions,
  io: Io,
  names: readonly string[],
  entries: readonly { name: string; checks?: string | undefined; baseDir?: string }[],
): UserChecksLoader {
  return userChecksLoader(
    checksModules(
      options,
      io,
      names.map((name) => ({ ...entries.find((entry) => entry.name === name), name })),
    ),
  );
}

/**
 * `validate --har` judges captures in worker threads that do not load the user's checks (yet): --checks with it is a
 * usage error, and a config API's checks module is said not to run, so neither passes silently.
 */
export function userChecksOnHar(
  options: ParsedOptions,
  io: Io,
  specs: readonly { api: string }[],
  entries: readonly { name: string; checks?: string | undefined; baseDir?: string }[],
): void {
  if (typeof options.checks === 'string')
    throw new ContractsError('USAGE', '--checks does not go with --har yet: give one response (--status, --body)');
  for (const { api: name } of specs) {
    const checks = entries.find((entry) => entry.name === name)?.checks;
    if (checks !== undefined)
      io.err(`contracts validate: ${name}: the checks of ${escapeLine(checks)} are not run on a --har capture (yet)`);
  }
}
