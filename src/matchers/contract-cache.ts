// The vitest matchers' specs: each API's contract (and its component schemas) compiled once per test file and
// reused by every assertion, since compiling is the expensive part and checking is cheap.
import path from 'node:path';
import { readProject, specPath, type Project } from '../config/project.js';
import { compileContract, type Contract } from '../core/compile-contract.js';
import { compileSpec, type CompiledSpec } from '../core/compile-spec.js';
import { ContractsError } from '../core/errors.js';
import { loadSpec, setRefPolicy } from '../core/load-spec.js';

export interface SpecChoice {
  /** An API of contracts.config.yaml. */
  api: string;
  /** Another spec file for the API (a variant, a newer draft) instead of the shipped one. */
  spec?: string;
}

const contracts = new Map<string, Promise<Contract>>();
const schemas = new Map<string, Promise<CompiledSpec>>();

/** The project of this test process, read on the first assertion (undefined before). */
let project: Project | undefined;

/**
 * The APIs are those of contracts.config.yaml, as for the CLI: the one in the test's working directory (or named by
 * CONTRACTS_CONFIG), else the nearest one above it. Read once, on the first assertion, into a frozen Project.
 */
function projectOnce(): Project {
  if (project) return project;
  project = readProject({
    cwd: process.cwd(),
    file: process.env.CONTRACTS_CONFIG || undefined,
    ignored: (line) => process.stderr.write(`${line}\n`),
  });
  if (project.configFile !== undefined) setRefPolicy(project.refs ?? {});
  return project;
}

/** The spec file for a choice; an unknown API is a ContractsError naming the choices. */
export function specFileOf(choice: SpecChoice): string {
  const { names, noApisMessage, api: entryOf, has } = projectOnce();
  if (choice.spec !== undefined) return path.resolve(choice.spec);
  const api: unknown = choice.api;
  if (typeof api !== 'string' || !has(api)) {
    throw new ContractsError(
      'UNKNOWN_API',
      names.length === 0
        ? `unknown API ${JSON.stringify(api)}: ${noApisMessage()}`
        : `unknown API ${JSON.stringify(api)}: choose one of ${names.join(', ')}`,
    );
  }
  return specPath(entryOf(api));
}

export function contractFor(choice: SpecChoice, strict: boolean): Promise<Contract> {
  const file = specFileOf(choice);
  return cached(contracts, `${file}\u0000${strict}`, async () => compileContract(await load(file), { strict }));
}

export function compiledSpecFor(choice: SpecChoice): Promise<CompiledSpec> {
  const file = specFileOf(choice);
  return cached(schemas, file, async () => compileSpec(await load(file)));
}

function load(file: string) {
  return loadSpec(file, path.relative(process.cwd(), file) || file);
}

function cached<T>(cache: Map<string, Promise<T>>, key: string, make: () => Promise<T>): Promise<T> {
  let entry = cache.get(key);
  if (!entry) {
    entry = make();
    // A spec that failed to load is tried again next time (the test may fix the file), not cached as a failure.
    entry.catch(() => cache.delete(key));
    cache.set(key, entry);
  }
  return entry;
}
