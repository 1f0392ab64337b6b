// Loads the sandbox's hooks module (`--hooks FILE`, `apis[].sandbox.hooks`), imported as the user's checks are
// (src/config/import-user-module.ts: .js as it is, .ts transpiled). Every failure, from a syntax error to an export
// that is no hooks object, is one line naming the file: a ContractsError, no stack trace.
import { importUserModule } from '../../config/import-user-module.js';
import { ContractsError } from '../../core/errors.js';
import { escapeLine } from '../../core/escape-line.js';
import type { SandboxHooks } from './sandbox-hooks.js';

/** The module's hooks, checked against the spec's operationIds; `shown` names the file in messages. */
export async function loadHooks(file: string, shown: string, operationIds: readonly string[]): Promise<SandboxHooks> {
  const fail = (why: string) =>
    new ContractsError('INPUT_NOT_READABLE', `cannot load the sandbox hooks ${escapeLine(shown)}: ${escapeLine(why)}`);
  let loaded: Record<string, unknown>;
  try {
    loaded = await importUserModule(file);
  } catch (error) {
    throw fail(error instanceof Error ? error.message : String(error));
  }
  const hooks = (loaded.default ?? loaded) as unknown;
  const problem = hooksProblem(hooks, operationIds);
  if (problem !== undefined) throw fail(problem);
  return hooks as SandboxHooks;
}

/** Why `hooks` is no hooks object for these operationIds, or undefined. */
export function hooksProblem(hooks: unknown, operationIds: readonly string[]): string | undefined {
  if (hooks === null || typeof hooks !== 'object' || Array.isArray(hooks))
    return 'its default export is no object of hooks by operationId';
  const known = new Set(operationIds);
  for (const [operationId, entry] of Object.entries(hooks)) {
    if (!known.has(operationId))
      return `${JSON.stringify(operationId)} is no operationId of the spec (its operationIds: ${[...known].slice(0, 20).join(', ')})`;
    if (entry === null || typeof entry !== 'object')
      return `${operationId} must be an object of before and after functions`;
    for (const [name, hook] of Object.entries(entry as object)) {
      if (name !== 'before' && name !== 'after')
        return `${operationId}.${name} is no hook: an operation has before and after`;
      if (typeof hook !== 'function') return `${operationId}.${name} must be a function`;
    }
  }
  return undefined;
}
