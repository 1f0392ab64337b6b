// The vitest matchers' specs: each API's contract (and its component schemas) compiled once per test file and
// reused by every assertion, since compiling is the expensive part and checking is cheap.
import path from 'node:path';
import { apiNames, apis, isApiName, noApisMessage, specPath, useConfig } from '../config/apis.js';
import { compileContract, type Contract } from '../core/compile-contract.js';
import { compileSpec, type CompiledSpec } from '../core/compile-spec.js';
import { ContractsError } from '../core/errors.js';
import { loadSpec } from '../core/load-spec.js';

export interface SpecChoice {
  /** An API of contracts.config.yaml. */
  api: string;
  /** Another spec file for the API (a variant, a newer draft) instead of the shipped one. */
  spec?: string;
}

const contracts = new Map<string, Promise<Contract>>();
const schemas = new Map<string, Promise<CompiledSpec>>();

let configRead = false;

/**
 * The APIs are those of contracts.config.yaml, as for the CLI: the one in the test's working directory (or named by
 * CONTRACTS_CONFIG), else the nearest one above it. Read once, on the first assertion.
 */
function readConfigOnce(): void {
  if (configRead) return;
  configRead = true;
  useConfig({
    cwd: process.cwd(),
    file: process.env.CONTRACTS_CONFIG || undefined,
    ignored: (line) => process.stderr.write(`${line}\n`),
  });
}

/** The spec file for a choice; an unknown API is a ContractsError naming the choices. */
export function specFileOf(choice: SpecChoice): string {
  readConfigOnce();
  if (choice.spec !== undefined) return path.resolve(choice.spec);
  const api: unknown = choice.api;
  if (typeof api !== 'string' || !isApiName(api)) {
    throw new ContractsError(
      'UNKNOWN_API',
      apiNames.length === 0
        ? `unknown API ${JSON.stringify(api)}: ${noApisMessage()}`
        : `unknown API ${JSON.stringify(api)}: choose one of ${apiNames.join(', ')}`,
    );
  }
  return specPath(apis[api]);
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
