// The lifecycle rules judged on recorded exchanges: no process, only the statuses and bodies a walk saw.
import { describe, expect, it } from 'vitest';
import { judgeConflict, repeatOf } from '../../../src/fuzz/stateful/rules/conflict-documented.js';
import { judgeAvailability } from '../../../src/fuzz/stateful/rules/ensure-resource-availability.js';
import { judgeListed } from '../../../src/fuzz/stateful/rules/listed-after-create.js';
import { judgePaging } from '../../../src/fuzz/stateful/rules/paging-consistent.js';
import { judgeReadAfterWrite } from '../../../src/fuzz/stateful/rules/read-after-write.js';
import { judgeUseAfterFree } from '../../../src/fuzz/stateful/rules/use-after-free.js';

const path = { itemId: 'itm_1' };

describe('ensure_resource_availability', () => {
  it('holds when the read of what the create made answers 2xx', () => {
    expect(judgeAvailability('createItem', 'getItem', path, 'itemId', 200)).toEqual([]);
  });
  it('fails with the read status when it does not', () => {
    expect(judgeAvailability('createItem', 'getItem', path, 'itemId', 404)).toEqual([
      {
        check: 'ensure_resource_availability',
        severity: 'error',
        operation: 'createItem',
        instancePath: '',
        message: 'createItem answered 2xx, and getItem on itemId "itm_1" it made answered 404, expected 2xx',
        expected: '2xx',
        actual: 404,
      },
    ]);
  });
});

describe('use_after_free', () => {
  it.each([404, 410])('holds when the read after the delete answers %i', (status) => {
    expect(judgeUseAfterFree('deleteItem', 'getItem', path, 'itemId', status)).toEqual([]);
  });
  it.each([
    [400, false, 0],
    [422, false, 0],
    [400, true, 1],
    [200, false, 1],
    [500, false, 1],
  ])(
    'takes a %s after the delete as gone only where the read documents no 404, 410 or 4XX (documented: %s)',
    (status, goneDocumented, findings) => {
      const judged = judgeUseAfterFree('deleteItem', 'getItem', path, 'itemId', status, goneDocumented);
      expect(judged.length).toBe(findings);
    },
  );
  it('fails when the deleted resource is still read', () => {
    expect(judgeUseAfterFree('deleteItem', 'getItem', path, 'itemId', 200)).toEqual([
      {
        check: 'use_after_free',
        severity: 'error',
        operation: 'deleteItem',
        instancePath: '',
        message: 'deleteItem on itemId "itm_1" answered 2xx, then getItem on it answered 200, expected 404 or 410',
        expected: [404, 410],
        actual: 200,
      },
    ]);
  });
});

describe('read_after_write', () => {
  const base = { write: 'updateItem', read: 'getItem', path, idParameter: 'itemId', excepted: new Set(['id']) };
  it.each([
    ['the read shows what was set', { name: 'b' }, { name: 'b' }, { id: 'itm_1', name: 'b' }],
    ['the write answer changed the value (the server normalised it)', { name: ' b' }, { name: 'b' }, { name: 'b' }],
    ['the write answer leaves the field out (hidden)', { name: 'b' }, { id: 'itm_1' }, { name: 'a' }],
    ['the field is readOnly in the schema', { id: 'x' }, undefined, { id: 'itm_1' }],
    ['a merge patch removes the field with null', { name: null }, undefined, { name: 'a' }],
    ['the body is a JSON Patch (no field set)', [{ op: 'replace', path: '/name', value: 'b' }], undefined, {}],
  ])('holds when %s', (_name, sent, answered, read_) => {
    expect(judgeReadAfterWrite({ ...base, sent, answered, read_ })).toEqual([]);
  });
  it('fails when the write answered the new value and the next read shows the old one', () => {
    expect(
      judgeReadAfterWrite({
        ...base,
        sent: { name: 'b', price: 3 },
        answered: { name: 'b', price: 3 },
        read_: { name: 'a', price: 3 },
      }),
    ).toEqual([
      {
        check: 'read_after_write',
        severity: 'error',
        operation: 'updateItem',
        instancePath: '/name',
        message: 'updateItem on itemId "itm_1" set name to "b" and answered 2xx, but the next getItem shows "a"',
        expected: 'b',
        actual: 'a',
      },
    ]);
  });
  it('judges a 204 write (no answer body) on what it sent', () => {
    expect(judgeReadAfterWrite({ ...base, sent: { price: 3 }, answered: undefined, read_: {} })).toEqual([
      {
        check: 'read_after_write',
        severity: 'error',
        operation: 'updateItem',
        instancePath: '/price',
        message:
          'updateItem on itemId "itm_1" set price to 3 and answered 2xx, but the next getItem shows no such field',
        expected: 3,
        actual: null,
      },
    ]);
  });
});

describe('listed_after_create', () => {
  it('holds when a page lists the id', () => {
    expect(
      judgeListed(
        'createItem',
        { list: 'listItems', pages: [['a'], ['itm_1']], complete: true },
        path,
        'itemId',
        'itm_1',
      ),
    ).toEqual([]);
  });
  it('says nothing when the page bound stopped the walk before the end', () => {
    expect(
      judgeListed('createItem', { list: 'listItems', pages: [['a']], complete: false }, path, 'itemId', 'itm_1'),
    ).toEqual([]);
  });
  it('fails when every page was walked and none lists it', () => {
    expect(
      judgeListed('createItem', { list: 'listItems', pages: [['a'], ['b']], complete: true }, path, 'itemId', 'itm_1'),
    ).toEqual([
      {
        check: 'listed_after_create',
        severity: 'error',
        operation: 'createItem',
        instancePath: '',
        message: 'createItem made itemId "itm_1", but listItems does not list it in any of its 2 pages',
        expected: 'itm_1',
        actual: ['a', 'b'],
      },
    ]);
  });
});

describe('paging_consistent', () => {
  it('holds when each item is on one page', () => {
    expect(judgePaging('listItems', [['a', 'b'], ['c']], ['c'], true)).toEqual([]);
  });
  it('fails when an item is on two pages', () => {
    expect(
      judgePaging(
        'listItems',
        [
          ['a', 'b'],
          ['b', 'c'],
        ],
        [],
        false,
      ),
    ).toEqual([
      {
        check: 'paging_consistent',
        severity: 'error',
        operation: 'listItems',
        instancePath: '',
        message: 'listItems lists "b" on page 1 and again on page 2',
        expected: 'each item on one page',
        actual: 'b',
      },
    ]);
  });
  it('fails when a complete walk of several pages skips an item the run made', () => {
    expect(judgePaging('listItems', [['a'], ['c']], ['b'], true)).toEqual([
      {
        check: 'paging_consistent',
        severity: 'error',
        operation: 'listItems',
        instancePath: '',
        message: 'listItems skips "b" (made by the run) across its 2 pages',
        expected: ['b'],
        actual: ['a', 'c'],
      },
    ]);
  });
});

describe('conflict_documented', () => {
  it.each([
    ['an action documenting 409', 'archive', ['archive'], ['409'], 'post', 'again'],
    ['a delete documenting 410', 'remove', [], ['410'], 'delete', 'again'],
    ['a write documenting 412', 'put', [], ['412'], 'put', 'stale'],
    ['a create documenting 409 (no unique key known)', 'create', [], ['409'], 'post', undefined],
    ['an action documenting no conflict', 'archive', ['archive'], [], 'post', undefined],
  ])('repeats %s as %s', (_name, operation, actions, conflicts, method, want) => {
    expect(repeatOf(operation, actions, conflicts, method)).toBe(want);
  });
  it.each([409, 404, 412])('holds when the repeat answers %i', (status) => {
    expect(judgeConflict('archiveItem', ['409'], 'again', path, 'itemId', status)).toEqual([]);
  });
  it('fails when the repeat of a documented conflict answers 2xx', () => {
    expect(judgeConflict('archiveItem', ['409'], 'again', path, 'itemId', 200)).toEqual([
      {
        check: 'conflict_documented',
        severity: 'error',
        operation: 'archiveItem',
        instancePath: '',
        message: 'archiveItem repeated on itemId "itm_1" answered 200; the spec documents 409 for it',
        expected: ['409'],
        actual: 200,
      },
    ]);
  });
});
