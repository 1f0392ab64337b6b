// The documented statuses the generic pass saw: exact codes, ranges, and `default` only for an answer no other key
// of the operation matched.
import { describe, expect, it } from 'vitest';
import { StatusTally, statusLine } from '../../../src/runner/generic/status-tally.js';

describe('StatusTally', () => {
  it('counts exact codes, ranges and default, and lists what was not seen', () => {
    const tally = new StatusTally(
      new Map([
        ['getItem', ['200', '404']],
        ['createItem', ['201', '4XX', 'default']],
        ['search', ['200', 'default']],
      ]),
    );
    tally.record('getItem', 200);
    tally.record('createItem', 201);
    tally.record('createItem', 422);
    tally.record('search', 503);
    expect(tally.count()).toEqual({
      documented: 7,
      seen: 4,
      notSeen: ['getItem 404', 'createItem default', 'search 200'],
    });
    expect(statusLine(tally.count(), 1)).toBe('documented statuses seen: 4 of 7; not seen: getItem 404 and 2 more');
  });
});
