// The matchers are typed once the setup file is imported: options are checked and the assertion is awaited.
import { describe, expect, expectTypeOf, it } from 'vitest';
import '../../src/vitest/setup.js';

describe('matcher types', () => {
  it('takes an API name from the manifest and returns a promise', () => {
    expectTypeOf(expect({}).toSatisfyContract({ api: 'client-session' })).toEqualTypeOf<Promise<void>>();
    expectTypeOf(expect({}).toMatchSchema({ api: 'repository-webhooks', schema: 'Webhook' })).toEqualTypeOf<
      Promise<void>
    >();
    // @ts-expect-error an API the manifest does not name
    void expect({}).toSatisfyContract({ api: 'payments' });
    // @ts-expect-error toMatchSchema needs the schema's name
    void expect({}).toMatchSchema({ api: 'client-session' });
  });
});
