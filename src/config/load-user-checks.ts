// Loads the user's checks module (`apis[].checks`, `--checks FILE`) for one API's spec: imported as the sandbox's
// hooks are (import-user-module.ts), read against the spec's operations (core/user-checks/user-check-set.ts). Every
// failure is one line naming the file, exit 2: a checks module that cannot load must not leave a run that passes.
import type { Contract } from '../core/compile-contract.js';
import { ContractsError } from '../core/errors.js';
import { escapeLine } from '../core/escape-line.js';
import { userCheckSet, type UserCheckSet } from '../core/user-checks/user-check-set.js';
import { importUserModule } from './import-user-module.js';

/** Where a run's checks module is: the file to import and the name messages give it. */
export interface ChecksModule {
  file: string;
  shown: string;
}

/** The checks of `module` for `contract`'s operations, each run's own (what ran is counted per run). */
export async function loadUserChecks(module: ChecksModule, contract: Contract): Promise<UserCheckSet> {
  const fail = (why: string) =>
    new ContractsError('INPUT_NOT_READABLE', `cannot load the checks ${escapeLine(module.shown)}: ${escapeLine(why)}`);
  let loaded: Record<string, unknown>;
  try {
    loaded = await importUserModule(module.file);
  } catch (error) {
    throw fail(error instanceof Error ? error.message : String(error));
  }
  const read = userCheckSet(loaded.default ?? loaded, contract.operations);
  if ('problem' in read) throw fail(read.problem);
  return read.set;
}
