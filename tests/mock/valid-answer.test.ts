// validAnswer: Prism's answer is served as it is when the spec accepts it, mended when it does not, and replaced by
// the mock's own refusal when no valid answer can be made; Prism's refusals of invalid requests pass untouched.
import { describe, expect, it } from 'vitest';
import { checkExchange } from '../../src/core/check-exchange.js';
import { compileContract, type Contract } from '../../src/core/compile-contract.js';
import { parseSpec } from '../../src/core/load-spec.js';
import { answerFails, validAnswer } from '../../src/mock/valid-answer.js';

const order = {
  type: 'object',
  required: ['code', 'due'],
  properties: {
    code: { type: 'string', pattern: '^[A-Z]{2}-[0-9]{4}$' },
    due: { type: 'string', format: 'date' },
  },
};

function contractOf(schema: unknown, headers: Record<string, unknown> = {}): Contract {
  const document = {
    openapi: '3.0.3',
    info: { title: 't', version: '1' },
    paths: {
      '/orders/{id}': {
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
        get: {
          operationId: 'getOrder',
          responses: {
            '200': { description: 'ok', headers, content: { 'application/json': { schema } } },
          },
        },
      },
    },
  };
  return compileContract(parseSpec('spec.json', JSON.stringify(document)));
}

const json = { 'content-type': 'application/json' };
const prismStatic = { code: 'string', due: '2019-08-24' };
const answer = (body: unknown, status = 200, headers: Record<string, string> = json) => ({
  method: 'GET',
  path: '/orders/1',
  status,
  headers,
  body: JSON.stringify(body),
});

describe('validAnswer', () => {
  it('serves an answer the spec accepts as it is', () => {
    const contract = contractOf(order);
    expect(validAnswer(contract, answer({ code: 'AB-1234', due: '2026-01-31' }))).toEqual({ kind: 'as-is' });
  });

  it('mends the "string" Prism serves for a patterned field, keeping its valid date', () => {
    const contract = contractOf(order);
    const served = validAnswer(contract, answer(prismStatic));
    expect(served).toEqual({
      kind: 'replaced',
      headers: json,
      body: expect.any(String),
      why: '/code must match pattern "^[A-Z]{2}-[0-9]{4}$", not "string"',
    });
    const mended = answer(JSON.parse((served as { body: string }).body));
    expect(checkExchange(contract, mended).findings).toEqual([]);
    expect(JSON.parse(mended.body).due).toBe('2019-08-24');
  });

  it('mends a response header whose value breaks its pattern', () => {
    const contract = contractOf(
      { type: 'string' },
      { 'X-Rate': { required: true, schema: { type: 'string', pattern: '^[0-9]{2}$' } } },
    );
    const served = validAnswer(contract, answer('ok', 200, { ...json, 'x-rate': 'string' }));
    expect(served).toEqual({
      kind: 'replaced',
      headers: { ...json, 'x-rate': expect.stringMatching(/^[0-9]{2}$/) },
      body: '"ok"',
      why: expect.stringContaining('X-Rate'),
    });
  });

  it('answers with its own 500, saying why, when no valid answer can be made', () => {
    const contract = contractOf({ type: 'string', minLength: 3, maxLength: 2 });
    expect(validAnswer(contract, answer('x'))).toEqual({
      kind: 'unable',
      status: 500,
      headers: { 'content-type': 'application/problem+json', 'contracts-mock': 'no-valid-answer' },
      body: JSON.stringify({
        title: 'contracts mock: no valid answer',
        status: 500,
        detail:
          'the mock could not make a valid 200 answer for getOrder: no application/json body its schema accepts was found (Prism\'s answer: body must NOT have fewer than 3 characters, not "x")',
      }),
    });
  });

  it.each([
    ["Prism's 422 to an invalid request (a status the spec does not document)", answer({ title: 'x' }, 422)],
    ['an answer to HEAD', { ...answer(''), method: 'HEAD', body: '' }],
    ['an answer to a path the spec does not have', { ...answer(prismStatic), path: '/nowhere' }],
  ])('passes %s as it is', (_name, given) => {
    const contract = contractOf(order);
    expect(validAnswer(contract, given)).toEqual({ kind: 'as-is' });
    expect(answerFails(contract, given)).toBe(false);
  });
});
