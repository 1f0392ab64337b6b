// The library's `startSandbox({ spec, hooks })`: hooks given as an object (checked as a module's export is) or as the
// path of a module to load (load-hooks.ts), against the spec's operationIds.
import { ContractsError } from '../../core/errors.js';
import type { LoadedSpec } from '../../core/load-spec.js';
import { indexOperations } from '../../core/operation-index.js';
import { hooksProblem, loadHooks } from './load-hooks.js';
import type { SandboxHooks } from './sandbox-hooks.js';

export async function specHooks(
  hooks: string | SandboxHooks,
  spec: LoadedSpec,
): Promise<{ hooks: SandboxHooks; source: string }> {
  const operationIds = indexOperations(spec.document).map((operation) => operation.operationId);
  if (typeof hooks === 'string') return { hooks: await loadHooks(hooks, hooks, operationIds), source: hooks };
  const problem = hooksProblem(hooks, operationIds);
  if (problem !== undefined) throw new ContractsError('USAGE', `the sandbox hooks given: ${problem}`);
  return { hooks, source: 'the hooks given to startSandbox' };
}
