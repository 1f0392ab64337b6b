// An operation no valid request reached is told as such, with the first way a request meant to be valid broke the
// spec; one that got a valid request, or whose only broken requests were meant to be negative, says nothing else.
import { describe, expect, it } from 'vitest';
import type { FuzzCase } from '../../src/fuzz/fuzz-case.js';
import { ValidRequests } from '../../src/fuzz/valid-requests.js';

const fuzzCase = (intent: FuzzCase['intent'], note: string, anonymous = false): FuzzCase => ({
  api: 'tasks',
  operationId: 'createTask',
  phase: 'examples',
  request: { path: {}, query: {}, headers: {} },
  note,
  intent,
  ...(anonymous ? { anonymous } : {}),
});
const dueDate = { where: 'body', message: '/dueDate must match format "date"' };
const limit = { where: 'query limit', message: 'limit must be integer' };

describe('ValidRequests', () => {
  it.each([
    [
      'names the first broken request meant to be valid (a body pointer)',
      [['derive', 'the smallest valid request', [dueDate]] as const, ['positive', 'a request drawn', [limit]] as const],
      'no valid request to createTask could be generated (body/dueDate must match format "date", in the smallest valid request): not tested',
    ],
    [
      'names a parameter by where it is',
      [['positive', 'a request drawn from the schemas', [limit]] as const],
      'no valid request to createTask could be generated (query limit: limit must be integer, in a request drawn from the schemas): not tested',
    ],
    [
      'does not take a negative case for the reason',
      [['negative', 'body/title: too long', [dueDate]] as const],
      'no valid request to createTask could be generated: not tested',
    ],
    [
      'says only that none was generated when nothing was judged',
      [],
      'no valid request to createTask could be generated: not tested',
    ],
  ])('%s', (_name, cases, want) => {
    const valid = new ValidRequests();
    for (const [intent, note, broken] of cases)
      valid.judged('tasks', 'createTask', fuzzCase(intent, note), false, broken);
    expect(valid.missing('tasks', 'createTask')).toBe(want);
  });

  it('leaves out the keyless case, which is meant to miss its credentials', () => {
    const valid = new ValidRequests();
    valid.judged('tasks', 'createTask', fuzzCase('derive', 'no credentials', true), false, [dueDate]);
    expect(valid.missing('tasks', 'createTask')).toBe('no valid request to createTask could be generated: not tested');
  });

  it('says nothing for an operation a valid request reached, whatever broke before', () => {
    const valid = new ValidRequests();
    valid.judged('tasks', 'createTask', fuzzCase('derive', 'the smallest valid request'), false, [dueDate]);
    valid.sent('tasks', 'createTask');
    expect([valid.missing('tasks', 'createTask'), valid.missing('other', 'createTask')]).toEqual([
      undefined,
      'no valid request to createTask could be generated: not tested',
    ]);
  });
});
