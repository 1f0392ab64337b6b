// The seam every command calls (withUserChecks): the user's checks judged beside the core's, each failure a finding
// of the check's name from source "user check", a check's own fault its error, and what never ran said at the end.
import { describe, expect, it } from 'vitest';
import { checkExchange } from '../../../src/core/check-exchange.js';
import type { Exchange } from '../../../src/core/exchange.js';
import { userChecksNotRun, withUserChecks } from '../../../src/core/user-checks/run-user-checks.js';
import { userCheckSet, type UserCheckSet } from '../../../src/core/user-checks/user-check-set.js';
import { ordersContract } from './orders-contract.js';

const contract = ordersContract();
const made = (body: unknown): Exchange => ({
  method: 'POST',
  path: '/orders',
  status: 201,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});
const request = {
  method: 'POST',
  path: '/orders',
  query: '',
  headers: { 'content-type': 'application/json' },
  body: '{"lines":[2,3]}',
};

function checksOf(exported: Record<string, unknown>): UserCheckSet {
  const read = userCheckSet(exported, contract.operations);
  if ('problem' in read) throw new Error(read.problem);
  return read.set;
}

function judged(exported: Record<string, unknown>, exchange = made({ id: 'o1', total: 5 })) {
  const checks = checksOf(exported);
  return withUserChecks(checkExchange(contract, exchange), checks, contract, request, exchange);
}

const finding = (check: string, message: string) => ({
  check,
  severity: 'error',
  operation: 'createOrder',
  instancePath: '',
  message,
  source: 'user check',
});

describe("the user's checks beside the core's", () => {
  it.each([
    ['returns nothing', () => undefined, []],
    [
      'returns a message',
      () => 'total is not the sum of the lines',
      [finding('total_is_sum', 'total is not the sum of the lines')],
    ],
    [
      'throws an assertion',
      () => {
        const error = new Error('expected 5 to be 6');
        error.name = 'AssertionError';
        throw error;
      },
      [finding('total_is_sum', 'expected 5 to be 6')],
    ],
    [
      'throws anything else (its own fault, reported as its error)',
      ({ response }: { response: { json: { missing: { x: number } } } }) => String(response.json.missing.x),
      [
        finding(
          'total_is_sum',
          "the check itself failed: TypeError: Cannot read properties of undefined (reading 'x')",
        ),
      ],
    ],
    [
      'returns a Promise',
      async () => undefined,
      [finding('total_is_sum', 'the check itself failed: it returned a Promise, and checks are synchronous')],
    ],
    [
      'returns a number',
      () => 3,
      [finding('total_is_sum', 'the check itself failed: it returned number; a check returns a message or nothing')],
    ],
  ])('a check that %s is applied, with these findings', (_, run, findings) => {
    expect(judged({ total_is_sum: run })).toEqual({
      operationId: 'createOrder',
      applied: [
        'status_code_conformance',
        'content_type_conformance',
        'response_body_wellformed',
        'response_schema_conformance',
        'total_is_sum',
      ],
      findings,
    });
  });

  it('gives the check the operation, the request as seen (its JSON parsed) and the response', () => {
    const seen: unknown[] = [];
    judged({ look: (input: unknown) => void seen.push(input) });
    expect(seen).toEqual([
      {
        operation: { method: 'POST', path: '/orders', operationId: 'createOrder' },
        request: { ...request, json: { lines: [2, 3] } },
        response: {
          status: 201,
          headers: { 'content-type': 'application/json' },
          body: '{"id":"o1","total":5}',
          json: { id: 'o1', total: 5 },
        },
      },
    ]);
  });

  it('runs a scoped check only on its operations, and says which checks ran on nothing', () => {
    const checks = checksOf({
      onRead: { operation: 'GET /orders/{orderId}', check: () => 'never' },
      anywhere: () => undefined,
    });
    const result = withUserChecks(
      checkExchange(contract, made({ id: 'o1', total: 5 })),
      checks,
      contract,
      request,
      made({}),
    );
    expect(result.applied.slice(-1)).toEqual(['anywhere']);
    expect(result.findings).toEqual([]);
    expect(userChecksNotRun(checks)).toEqual([{ check: 'onRead', operations: ['getOrder'] }]);
  });

  it('leaves the result as it is without user checks, and for an exchange that matched no operation', () => {
    const exchange = made({ id: 'o1', total: 5 });
    const result = checkExchange(contract, exchange);
    expect(withUserChecks(result, undefined, contract, request, exchange)).toBe(result);
    const stray = { ...exchange, path: '/nowhere' };
    const unmatched = checkExchange(contract, stray);
    expect(withUserChecks(unmatched, checksOf({ any: () => 'x' }), contract, request, stray)).toBe(unmatched);
  });
});
