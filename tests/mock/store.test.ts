// The stateful engine's store stays bounded: items per collection and bytes in all, the oldest dropped, said once.
import { describe, expect, it } from 'vitest';
import { ResourceStore } from '../../src/mock/engine/store.js';

describe('the resource store', () => {
  it('drops the oldest item of a collection past its item bound, and says so once', () => {
    const said: string[] = [];
    const store = new ResourceStore({ maxItems: 2, maxBytes: 1e6 }, (line) => said.push(line));
    for (const id of ['a', 'b', 'c', 'd']) store.put('Note', id, { id });
    expect(store.snapshot()).toEqual({ Note: [{ id: 'c' }, { id: 'd' }] });
    expect(said).toEqual(['sandbox: Note holds more than 2 items; the oldest are dropped (said once)']);
  });

  it('drops the oldest items of any collection past its byte bound', () => {
    const said: string[] = [];
    const store = new ResourceStore({ maxItems: 100, maxBytes: 90 }, (line) => said.push(line));
    store.put('Note', 'a', { id: 'a', text: 'x'.repeat(20) });
    store.put('Comment/a', '1', { id: 1, text: 'y'.repeat(20) });
    store.put('Note', 'b', { id: 'b', text: 'z'.repeat(20) });
    expect(Object.keys(store.snapshot())).toEqual(['Note', 'Comment/a']);
    expect(store.get('Note', 'a')).toBeUndefined();
    expect(said).toEqual(['sandbox: the state is over 90 bytes; the oldest items are dropped (said once)']);
  });

  it('keeps an updated item in its place with a new version', () => {
    const store = new ResourceStore();
    const first = store.put('Note', 'a', { id: 'a' });
    store.put('Note', 'b', { id: 'b' });
    const version = first.version;
    store.update(first, { id: 'a', title: 't' });
    expect(store.list('Note').map((item) => item.value)).toEqual([{ id: 'a', title: 't' }, { id: 'b' }]);
    expect(first.version).toBeGreaterThan(version);
  });
});
