// What the behavioural rules read out of any JSON a target sends: ids, the objects of a list, new items, the cursor of
// a Link header. A hostile target chooses these values; each row is one shape it might send.
import { describe, expect, it } from 'vitest';
import {
  idOf,
  idsOf,
  newItems,
  nextCursor,
  objectsOf,
} from '../../../../src/plugins/repository-webhooks/behaviour/index.js';

describe('idOf and idsOf', () => {
  it.each([
    [{ id: 7 }, 7],
    [{ id: 0 }, 0],
    [{ id: -3 }, -3],
    [{ id: 1.5 }, undefined],
    [{ id: 2 ** 53 }, undefined],
    [{ id: '7' }, undefined],
    [{ id: null }, undefined],
    [{}, undefined],
    [null, undefined],
    [7, undefined],
    ['{"id":7}', undefined],
    [[{ id: 7 }], undefined],
  ])('reads %j as %s', (body, id) => {
    expect(idOf(body)).toBe(id);
  });

  it('reads the ids of a list, undefined for an item without one, nothing of what is no list', () => {
    expect(idsOf([{ id: 1 }, { id: 'x' }, null, 3, { id: 2 }])).toEqual([1, undefined, undefined, undefined, 2]);
    expect(idsOf({ 0: { id: 1 } })).toEqual([]);
    expect(idsOf(null)).toEqual([]);
  });
});

describe('objectsOf and newItems', () => {
  it('keeps the items of a list that are objects', () => {
    expect(objectsOf([{ a: 1 }, null, [1], 'x', 2, { b: 2 }])).toEqual([{ a: 1 }, { b: 2 }]);
    expect(objectsOf({ a: 1 })).toEqual([]);
    expect(objectsOf(undefined)).toEqual([]);
  });

  it('finds the items a later reading has and an earlier did not, by id; an item without id is always new', () => {
    expect(newItems([{ id: 1 }, { id: 2 }], [{ id: 3 }, { id: 2 }, { name: 'no id' }, { id: 1 }])).toEqual([
      { id: 3 },
      { name: 'no id' },
    ]);
    expect(newItems(null, [{ id: 1 }])).toEqual([{ id: 1 }]);
    expect(newItems([{ id: 1 }], 'not a list')).toEqual([]);
  });
});

describe('nextCursor', () => {
  it.each([
    ['<https://api.example/x?cursor=c2>; rel="next"', 'c2'],
    ['<https://api.example/x?cursor=c2>;rel=next', 'c2'],
    ['  <https://api.example/x?cursor=c2> ; rel = "next"', 'c2'],
    ['<https://api.example/x?cursor=c1>; rel="prev", <https://api.example/x?cursor=c3>; rel="next"', 'c3'],
    ['<https://api.example/x?cursor=c3>; rel="next", <https://api.example/x?cursor=c1>; rel="prev"', 'c3'],
    ['</relative?cursor=r>; rel="next"', 'r'],
    ['<https://api.example/x?cursor=c2>; REL="NEXT"', 'c2'],
    ['<https://api.example/x?page=2>; rel="next"', undefined],
    ['<https://api.example/x?cursor=c1>; rel="prev"', undefined],
    ['<https://api.example/x?cursor=c2>; rel="nextpage"', undefined],
    ['<https://api.example/x?cursor=c2>; foo=bar; xrel="next"', undefined],
    ['https://api.example/x?cursor=c2; rel="next"', undefined],
    ['x<https://api.example/x?cursor=c2>; rel="next"', undefined],
    ['<https://api.example/x?cursor=c2> rel="next"', undefined],
    ['<http://[bad>; rel="next"', undefined],
    ['', undefined],
    [undefined, undefined],
    ['<https://api.example/x?cursor=c2>; rel="last next"', 'c2'],
    ['<https://api.example/x?cursor=c2>; title="rel=next"', undefined],
  ])('reads %j as %s', (link, cursor) => {
    expect(nextCursor(link)).toBe(cursor);
  });

  it('reads a header of 8192 characters, and none longer', () => {
    // 43 characters around the cursor.
    const link = (length: number) => `<https://api.example/x?cursor=${'c'.repeat(length - 43)}>; rel="next"`;
    expect(nextCursor(link(8192))).toBe('c'.repeat(8192 - 43));
    expect(nextCursor(link(8193))).toBeUndefined();
  });
});
