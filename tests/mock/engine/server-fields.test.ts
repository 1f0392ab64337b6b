// What the sandbox adds to a created resource: a readOnly state enum starts at its first value, whatever the
// documented answer (the template) shows; a default wins over it; a client cannot set it.
import { describe, expect, it } from 'vitest';
import { fillServerFields, newId, representationOf } from '../../../src/mock/engine/server-fields.js';

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

describe('newId', () => {
  it('makes a UUID for a string id the schema says nothing more of, and draws one where it does', () => {
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    expect(String(newId({}, { type: 'string' }, 0, () => false))).toMatch(uuid);
    expect(String(newId({}, { type: 'string', maxLength: 40 }, 0, () => false))).toMatch(uuid);
    expect(String(newId({}, { type: 'string', maxLength: 8 }, 0, () => false))).not.toMatch(uuid);
    expect(String(newId({}, { type: 'string', enum: ['a', 'b'] }, 0, () => false))).toMatch(/^[ab]$/);
  });

  const schema = { type: 'string', pattern: '^note_[a-z0-9]{12}$' };

  it('draws the same id for the same seed, each in the pattern, none twice across 300 creates', () => {
    const taken = new Set<string>();
    const ids = Array.from({ length: 300 }, (_, seed) => {
      const id = String(newId({}, schema, seed, (candidate) => taken.has(candidate)));
      taken.add(id);
      return id;
    });
    const again = [0, 63, 64, 65, 299].map((seed) => newId({}, schema, seed, () => false));
    expect({
      distinct: taken.size,
      inPattern: ids.every((id) => /^note_[a-z0-9]{12}$/.test(id)),
      again,
    }).toEqual({ distinct: 300, inPattern: true, again: [0, 63, 64, 65, 299].map((seed) => ids[seed]) });
  });
});
