// The matchers are typed once the setup file is imported: options are checked and the assertion is awaited.
import { describe, expect, expectTypeOf, it } from 'vitest';
import '../../src/vitest/setup.js';

describe('matcher types', () => {
  it('takes an API name of the config (any string until the project declares its names) and returns a promise', () => {
    expectTypeOf(expect({}).toSatisfyContract({ api: 'client-session' })).toEqualTypeOf<Promise<void>>();
    expectTypeOf(expect({}).toMatchSchema({ api: 'repository-webhooks', schema: 'Webhook' })).toEqualTypeOf<
      Promise<void>
    >();
    // An API the user's contracts.config.yaml adds: checked at run time against the config.
    expectTypeOf(expect({}).toSatisfyContract({ api: 'payments' })).toEqualTypeOf<Promise<void>>();
    // @ts-expect-error the API is not optional
    void expect({}).toSatisfyContract({ operationId: 'getPet' });
    // @ts-expect-error toMatchSchema needs the schema's name
    void expect({}).toMatchSchema({ api: 'client-session' });
  });
});
