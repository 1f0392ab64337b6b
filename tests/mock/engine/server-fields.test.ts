// What the sandbox adds to a created resource: a readOnly state enum starts at its first value, whatever the
// documented answer (the template) shows; a default wins over it; a client cannot set it.
import { describe, expect, it } from 'vitest';
import { fillServerFields, representationOf } from '../../../src/mock/engine/server-fields.js';

const book = {
  type: 'object',
  required: ['id', 'title', 'status'],
  properties: {
    id: { type: 'string', readOnly: true },
    title: { type: 'string' },
    status: { type: 'string', enum: ['available', 'borrowed'], readOnly: true },
    shelf: { type: 'string', enum: ['new', 'old'], readOnly: true, default: 'old' },
  },
};

describe('fillServerFields', () => {
  it('starts a readOnly enum at its first value, a default first, whatever the template or the client say', () => {
    const filled = fillServerFields({
      representation: representationOf({}, book),
      sent: { title: 'Dune', status: 'borrowed' },
      id: { field: 'id', value: 'b1' },
      template: { id: 'x', title: 'x', status: 'borrowed', shelf: 'new' },
      now: '2026-11-28T00:00:00.000Z',
    });
    expect(filled).toEqual({ id: 'b1', title: 'Dune', status: 'available', shelf: 'old' });
  });
});
