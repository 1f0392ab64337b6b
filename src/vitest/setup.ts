// Registers toSatisfyContract and toMatchSchema with vitest: import this file once in a test file, or name it in
// vitest.config.ts `test.setupFiles: ['./src/vitest/setup.ts']` (also `import 'contracts-kit/vitest'`).
// The reference survives into setup.d.ts, where the value import below is elided: without it, TypeScript does not
// apply the `declare module 'vitest'` below in a project that installed the package (its matchers were untyped there).
/// <reference types="vitest" preserve="true" />
import { expect } from 'vitest';
import type { ApiNameOf, MatchSchemaOptions as AnyMatchSchemaOptions } from '../matchers/matchers.js';
import type { SatisfyContractOptions as AnySatisfyContractOptions } from '../matchers/matchers.js';
import { toMatchSchema, toSatisfyContract } from '../matchers/matchers.js';

expect.extend({ toSatisfyContract, toMatchSchema });

/**
 * The names of your config's APIs, for the type checker: empty, `api` takes any string. Declare yours once, in any
 * .ts file of your project, and a misspelt name no longer compiles:
 *   declare module 'contracts-kit/vitest' { interface ContractApis { inventory: true; payments: true } }
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by the user's declaration merging
export interface ContractApis {}

/** An API of contracts.config.yaml: any string, or one of the names declared in ContractApis. */
export type ContractApi = ApiNameOf<ContractApis>;
export type SatisfyContractOptions = AnySatisfyContractOptions<ContractApi>;
export type MatchSchemaOptions = AnyMatchSchemaOptions<ContractApi>;

interface ContractMatchers {
  /** The response (fetch Response, openapi-fetch result or plain exchange) conforms to its operation. Await it. */
  toSatisfyContract(options: SatisfyContractOptions): Promise<void>;
  /** The value validates against a schema under components/schemas. Await it. */
  toMatchSchema(options: MatchSchemaOptions): Promise<void>;
}

declare module 'vitest' {
  // biome-ignore lint/suspicious/noExplicitAny: the declaration merges with vitest's own, which has this default
  interface Assertion<T = any> extends ContractMatchers {}
}
