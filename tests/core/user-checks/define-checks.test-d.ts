// Type-level tests: defineChecks<paths>() types a scoped check from openapi-typescript's generated `paths` (here
// written by hand in its shape): its operation keys (`POST /orders`), and the response JSON of that operation.
import { describe, expectTypeOf, it } from 'vitest';
import { defineChecks } from '../../../src/index.js';

interface Order {
  id: string;
  total: number;
}
interface Problem {
  title: string;
}
interface paths {
  '/orders': {
    parameters: { query?: never };
    get?: never;
    post: {
      requestBody: { content: { 'application/json': { lines: number[] } } };
      responses: {
        201: { headers: { [name: string]: unknown }; content: { 'application/json': Order } };
        400: { headers: { [name: string]: unknown }; content: { 'application/problem+json': Problem } };
      };
    };
  };
}

describe('defineChecks', () => {
  it("types a scoped check's response and request from its operation, and a bare one as unknown", () => {
    defineChecks<paths>()({
      total_positive: {
        operation: 'POST /orders',
        check({ request, response }) {
          expectTypeOf(response.json).toEqualTypeOf<Order | Problem | undefined>();
          expectTypeOf(request.json).toEqualTypeOf<{ lines: number[] } | undefined>();
          return undefined;
        },
      },
      anything: ({ response }) => {
        expectTypeOf(response.json).toEqualTypeOf<unknown>();
      },
    });
  });

  it('refuses an operation the paths do not have', () => {
    defineChecks<paths>()({
      // @ts-expect-error: GET /orders is not an operation of the paths (get?: never)
      wrong: { operation: 'GET /orders', check: () => undefined },
    });
  });
});
