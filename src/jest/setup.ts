// Registers toSatisfyContract and toMatchSchema with jest (30): name it in jest.config `setupFilesAfterEnv:
// ['contracts-kit/jest']`, or import it once in a test file. `@jest/globals` is answered by jest's own runtime
// (it is not looked up in node_modules), in CommonJS and ESM test runs alike.
// A CommonJS run on Node < 24.9 cannot require() an ES module, so the package's "require" condition points at a
// CommonJS bundle of this file (scripts/build.ts); an ESM run (--experimental-vm-modules) imports this file.
import { expect } from '@jest/globals';
import type { ApiNameOf, MatchSchemaOptions as AnyMatchSchemaOptions } from '../matchers/matchers.js';
import type { SatisfyContractOptions as AnySatisfyContractOptions } from '../matchers/matchers.js';
import { toMatchSchema, toSatisfyContract } from '../matchers/matchers.js';

expect.extend({ toSatisfyContract, toMatchSchema });

/**
 * The names of your config's APIs, for the type checker: empty, `api` takes any string. Declare yours once, in any
 * .ts file of your project, and a misspelt name no longer compiles:
 *   declare module 'contracts-kit/jest' { interface ContractApis { inventory: true; payments: true } }
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by the user's declaration merging
export interface ContractApis {}

/** An API of contracts.config.yaml: any string, or one of the names declared in ContractApis. */
export type ContractApi = ApiNameOf<ContractApis>;
export type SatisfyContractOptions = AnySatisfyContractOptions<ContractApi>;
export type MatchSchemaOptions = AnyMatchSchemaOptions<ContractApi>;

interface ContractMatchers {
  /** The response (fetch Response, openapi-fetch result, supertest response or plain exchange) conforms. Await it. */
  toSatisfyContract(options: SatisfyContractOptions): Promise<void>;
  /** The value validates against a schema under components/schemas. Await it. */
  toMatchSchema(options: MatchSchemaOptions): Promise<void>;
}

// `expect` from @jest/globals (and jest's global `expect` typed by it) reads its matchers from the expect package.
declare module 'expect' {
  interface Matchers<R extends void | Promise<void>, T = unknown> extends ContractMatchers {}
}

// The global `expect` as @types/jest types it, for projects that use those types instead.
declare global {
  namespace jest {
    // biome-ignore lint/complexity/noBannedTypes: the declaration merges with @types/jest's, which has this default
    interface Matchers<R, T = {}> extends ContractMatchers {}
  }
}
