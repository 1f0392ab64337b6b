// The jest and Playwright matchers are typed: options are checked and the assertion is a promise to await.
import { expect as jestExpect } from '@jest/globals';
import type { APIResponse } from '@playwright/test';
import { describe, expectTypeOf, it } from 'vitest';
import '../../src/jest/setup.js';
import { expect as playwrightExpect } from '../../src/playwright/index.js';

describe('matcher types for jest and Playwright', () => {
  it("type jest's expect with both matchers, each returning a promise", () => {
    expectTypeOf(jestExpect({}).toSatisfyContract({ api: 'client-session' })).toEqualTypeOf<Promise<void>>();
    expectTypeOf(jestExpect({}).not.toMatchSchema({ api: 'payments', schema: 'Payment' })).toEqualTypeOf<
      Promise<void>
    >();
    // @ts-expect-error the API is not optional
    void jestExpect({}).toSatisfyContract({ operationId: 'getPet' });
    // @ts-expect-error toMatchSchema needs the schema's name
    void jestExpect({}).toMatchSchema({ api: 'client-session' });
  });

  it("type Playwright's extended expect on an APIResponse, each matcher returning a promise", () => {
    const response = {} as APIResponse;
    expectTypeOf(playwrightExpect(response).toSatisfyContract({ api: 'inventory' })).toEqualTypeOf<Promise<void>>();
    expectTypeOf(playwrightExpect({ id: 1 }).toMatchSchema({ api: 'inventory', schema: 'Item' })).toEqualTypeOf<
      Promise<void>
    >();
    // @ts-expect-error the API is not optional
    void playwrightExpect(response).toSatisfyContract({ strict: true });
  });
});
