// toSatisfyContract and toMatchSchema for Playwright test: `import { expect } from 'contracts-kit/playwright'`
// instead of @playwright/test's, or add `contractMatchers` to an expect of your own (`baseExpect.extend(...)`,
// `mergeExpects`). Playwright's expect.extend takes async matchers: the APIResponse body is read with the awaited
// `body()`, so the assertion is awaited too. The `request` fixture needs no browser.
import { expect as baseExpect } from '@playwright/test';
import type { ApiNameOf, MatchSchemaOptions as AnyMatchSchemaOptions } from '../matchers/matchers.js';
import type { MatcherResult, SatisfyContractOptions as AnySatisfyContractOptions } from '../matchers/matchers.js';
import { toMatchSchema, toSatisfyContract } from '../matchers/matchers.js';

/**
 * The names of your config's APIs, for the type checker: empty, `api` takes any string. Declare yours once, in any
 * .ts file of your project, and a misspelt name no longer compiles:
 *   declare module 'contracts-kit/playwright' { interface ContractApis { inventory: true; payments: true } }
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by the user's declaration merging
export interface ContractApis {}

/** An API of contracts.config.yaml: any string, or one of the names declared in ContractApis. */
export type ContractApi = ApiNameOf<ContractApis>;
export type SatisfyContractOptions = AnySatisfyContractOptions<ContractApi>;
export type MatchSchemaOptions = AnyMatchSchemaOptions<ContractApi>;

/** The matchers as Playwright's expect.extend takes them; each names itself in Playwright's report. */
export const contractMatchers = {
  async toSatisfyContract(
    received: unknown,
    options: SatisfyContractOptions,
  ): Promise<MatcherResult & { name: string }> {
    return { ...(await toSatisfyContract(received, options)), name: 'toSatisfyContract' };
  },
  async toMatchSchema(received: unknown, options: MatchSchemaOptions): Promise<MatcherResult & { name: string }> {
    return { ...(await toMatchSchema(received, options)), name: 'toMatchSchema' };
  },
};

/** @playwright/test's expect with the contract matchers: `await expect(response).toSatisfyContract({ api })`. */
export const expect = baseExpect.extend(contractMatchers);
