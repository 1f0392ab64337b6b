// A checks module's default export read against its spec: what is accepted, and the one line said for what is not.
import { describe, expect, it } from 'vitest';
import { userCheckSet } from '../../../src/core/user-checks/user-check-set.js';
import { ordersContract } from './orders-contract.js';

const operations = ordersContract().operations;
const check = () => undefined;

describe('reading a checks module', () => {
  it('takes functions for every operation and { operation, check } for some, by METHOD /path in any case', () => {
    const read = userCheckSet(
      {
        everywhere: check,
        made: { operation: 'post /orders', check },
        both: { operation: ['POST /orders', 'GET /orders/{orderId}'], check },
      },
      operations,
    );
    expect(read).toEqual({
      set: {
        checks: [
          { name: 'everywhere', run: check },
          { name: 'made', operations: new Set(['createOrder']), run: check },
          { name: 'both', operations: new Set(['createOrder', 'getOrder']), run: check },
        ],
        ran: new Set(),
      },
    });
  });

  it.each([
    ['no object', [check], 'its default export is no object of checks by name'],
    ['no check at all', {}, 'its default export holds no check'],
    [
      'a name of ours',
      { status_code_conformance: check },
      'status_code_conformance is the name of a contracts-kit check: name yours otherwise',
    ],
    [
      'a name with a space',
      { 'total ok': check },
      '"total ok" is no check name (a letter, then letters, digits, _ . -)',
    ],
    [
      'an entry that is no function',
      { total: 3 },
      'total must be a function, or { operation, check } with check a function',
    ],
    [
      'an operation that is no string',
      { total: { operation: 7, check } },
      'total.operation must be "METHOD /path" as the spec has it, or a list of them',
    ],
    [
      'an operation the spec lacks',
      { total: { operation: 'GET /order/{orderId}', check } },
      'total.operation: GET /order/{orderId} is no operation of the spec (did you mean GET /orders/{orderId}?)',
    ],
  ])('refuses %s in one line', (_, exported, problem) => {
    expect(userCheckSet(exported, operations)).toEqual({ problem });
  });
});
