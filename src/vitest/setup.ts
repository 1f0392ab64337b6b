// Registers toSatisfyContract and toMatchSchema with vitest: import this file once in a test file, or name it in
// vitest.config.ts `test.setupFiles: ['./src/vitest/setup.ts']` (also `import 'contracts-kit/vitest'`).
import { expect } from 'vitest';
import { toMatchSchema, toSatisfyContract } from './matchers.js';
import type { MatchSchemaOptions, SatisfyContractOptions } from './matchers.js';

expect.extend({ toSatisfyContract, toMatchSchema });

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

export type { MatchSchemaOptions, SatisfyContractOptions };
