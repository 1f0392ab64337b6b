// Issue #47 (speed): the stateful engine matches a request to its operation once. Routing, the request checks and
// the answer's exchange checks each used to match the path again (three times the regular-expression work per
// request); now the route is handed on. Counted on the operations' own matchers, so any extra match shows.
import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../../src/core/load-spec.js';
import type { OperationSpec } from '../../../src/core/operation-index.js';
import { engineAnswer } from '../../../src/mock/engine/dynamic-answer.js';
import { statefulEngine, type Stateful } from '../../../src/mock/engine/stateful-engine.js';
import { root } from '../../helpers/paths.js';

const spec = `${root}/tests/fixtures/planted/notes/openapi.yaml`;
const auth = { authorization: 'Bearer any' };
const note = { title: 'Groceries', body: 'Milk, eggs', tags: ['home'], pinned: false };

/** Counts every `exec`/`test` of every operation's path matcher. */
function countMatches(stateful: Stateful): { count: number } {
  const counter = { count: 0 };
  for (const operation of stateful.engine.contract.operations as OperationSpec[]) {
    const original = operation.matcher;
    operation.matcher = {
      exec: (path: string) => (counter.count++, original.exec(path)),
      test: (path: string) => (counter.count++, original.test(path)),
    } as RegExp;
  }
  return counter;
}

/** The matcher calls one routing of `method` makes: one per operation of that method. */
function oneRouting(stateful: Stateful, method: string): number {
  return stateful.engine.contract.operations.filter((operation) => operation.method === method).length;
}

function create(stateful: Stateful) {
  return engineAnswer(stateful, {
    method: 'POST',
    path: '/notes',
    query: '',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify(note),
  });
}

describe('the stateful engine', () => {
  it('matches a create and a read of the stored item to their operation once each', async () => {
    const stateful = statefulEngine(await loadSpec(spec));
    // The first answer of each operation and status is made once and judged then (documented-answer.ts).
    const first = JSON.parse(create(stateful).body) as { id: string };
    engineAnswer(stateful, { method: 'GET', path: `/notes/${first.id}`, query: '', headers: {}, body: '' });
    const counter = countMatches(stateful);
    const created = create(stateful);
    expect({ status: created.status, matches: counter.count }).toEqual({
      status: 201,
      matches: oneRouting(stateful, 'post'),
    });
    const { id } = JSON.parse(created.body) as { id: string };
    counter.count = 0;
    const read = engineAnswer(stateful, { method: 'GET', path: `/notes/${id}`, query: '', headers: {}, body: '' });
    expect({ status: read.status, body: JSON.parse(read.body), matches: counter.count }).toEqual({
      status: 200,
      body: JSON.parse(created.body),
      matches: oneRouting(stateful, 'get'),
    });
  });
});
