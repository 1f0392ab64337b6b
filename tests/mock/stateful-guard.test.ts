// The stateful engine never serves what its spec refuses: a stored representation the answer's schema would not
// accept becomes the mock's own 500 naming why (mock-refusal.ts), and nothing is stored.
import { expect, it } from 'vitest';
import { loadSpec } from '../../src/core/load-spec.js';
import { mockRefusal } from '../../src/core/mock-refusal.js';
import { answerStateful } from '../../src/mock/engine/stateful-answer.js';
import { statefulEngine } from '../../src/mock/engine/stateful-engine.js';
import { root } from '../helpers/paths.js';

it("answers its own 500 naming why when the stored resource would fail the spec's answer schema", async () => {
  const stateful = statefulEngine(await loadSpec(`${root}/tests/mock/fixtures/mismatch.yaml`));
  const headers = { 'content-type': 'application/json' };
  const post = (body: unknown) =>
    answerStateful(stateful, { method: 'POST', path: '/things', query: '', headers, body: JSON.stringify(body) });
  const refused = post({ name: 'a', colour: 'red' });
  expect([refused.status, mockRefusal(refused)]).toEqual([
    500,
    'the mock could not make a valid answer: the stored Thing would not pass: body has a property the schema does not allow: "colour"',
  ]);
  expect(stateful.store.snapshot()).toEqual({});
  const created = post({ name: 'a' });
  expect([created.status, JSON.parse(created.body)]).toEqual([
    201,
    { id: expect.stringMatching(/^[0-9a-f-]{36}$/), name: 'a' },
  ]);
});
