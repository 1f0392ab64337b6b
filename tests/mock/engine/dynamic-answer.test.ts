// Prism's `Prefer: dynamic=true` in the stateful engine, on the planted notes service's spec: an answer that does not
// come from the store is generated from its schema instead of the example, valid by the spec's own checks; dynamic=false
// (and no preference) keeps the example; a stored item is answered as stored whatever the preference.
import { describe, expect, it } from 'vitest';
import { checkExchange } from '../../../src/core/check-exchange.js';
import { loadSpec } from '../../../src/core/load-spec.js';
import { engineAnswer } from '../../../src/mock/engine/dynamic-answer.js';
import { statefulEngine, type Stateful } from '../../../src/mock/engine/stateful-engine.js';
import { root } from '../../helpers/paths.js';

const spec = `${root}/tests/fixtures/planted/notes/openapi.yaml`;
const example = { type: 'about:blank', title: 'Bad Request', status: 400, detail: 'title must be a string' };

function send(stateful: Stateful, method: string, path: string, prefer?: string, body?: unknown) {
  const headers: Record<string, string> = { 'x-api-key': 'any', ...(prefer ? { prefer } : {}) };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const request = { method, path, query: '', headers, body: body === undefined ? '' : JSON.stringify(body) };
  const answer = engineAnswer(stateful, request);
  const findings = checkExchange(stateful.engine.contract, { method, path, ...answer }).findings;
  return {
    status: answer.status,
    json: JSON.parse(answer.body) as unknown,
    errors: findings.filter((f) => f.severity === 'error'),
  };
}

describe('Prefer: dynamic=', () => {
  it.each([
    ['no preference', 'code=400'],
    ['dynamic=false', 'code=400, dynamic=false'],
  ])('serves the example with %s', async (_name, prefer) => {
    const stateful = statefulEngine(await loadSpec(spec));
    expect(send(stateful, 'GET', '/notes/note_abcdefghijkl', prefer)).toEqual({
      status: 400,
      json: example,
      errors: [],
    });
  });

  it('generates a body the schema accepts with dynamic=true, new each request', async () => {
    const stateful = statefulEngine(await loadSpec(spec));
    const answers = [1, 2, 3].map(() => send(stateful, 'GET', '/notes/note_abcdefghijkl', 'code=400, dynamic=true'));
    for (const answer of answers) expect([answer.status, answer.errors]).toEqual([400, []]);
    expect(answers.map((answer) => answer.json)).not.toContainEqual(example);
    expect(new Set(answers.map((answer) => JSON.stringify(answer.json))).size).toBeGreaterThan(1);
  });

  it('answers a stored item as stored with dynamic=true', async () => {
    const stateful = statefulEngine(await loadSpec(spec));
    const created = send(stateful, 'POST', '/notes', undefined, { title: 'Kept' });
    const id = (created.json as { id: string }).id;
    expect(send(stateful, 'GET', `/notes/${id}`, 'dynamic=true')).toEqual({
      status: 200,
      json: created.json,
      errors: [],
    });
  });
});
