// Which values can go into a request path as one percent-encoded segment, and which no encoding makes one.
import { describe, expect, it } from 'vitest';
import { pathSegmentProblem, refusedSegment } from '../../src/core/path-segment.js';

describe('pathSegmentProblem', () => {
  it.each([
    ['an empty value', '', 'empty'],
    ['.', '.', 'a dot segment'],
    ['..', '..', 'a dot segment'],
    ['%2e%2e', '%2e%2e', 'a dot segment'],
    ['%2E%2e (either case)', '%2E%2e', 'a dot segment'],
    ['.%2e', '.%2e', 'a dot segment'],
    ['..;x (Tomcat reads it as ..)', '..;x', 'a dot segment'],
    ['a dot segment encoded twice', '%252e%252e', 'a dot segment'],
    ['a/../b (two segments to a server that decodes %2F)', 'a/../b', 'a dot segment'],
    ['..%2Fx', '..%2Fx', 'a dot segment'],
    ['..\\x', '..\\x', 'a dot segment'],
    ['a lone high surrogate (no UTF-8 for it)', 'a\uD800', 'a lone surrogate, which no URL can carry'],
    ['a lone low surrogate', '\uDC00b', 'a lone surrogate, which no URL can carry'],
  ])('refuses %s', (_name, value, problem) => {
    expect(pathSegmentProblem(value)).toBe(problem);
  });

  it.each([
    ['a number', 42],
    ['a word', 'item-7'],
    ['a character outside the BMP (a whole surrogate pair)', 'pet-😀'],
    ['dots inside a word', 'v1.2'],
    ['three dots', '...'],
    ['?x (encoded, it stays in the segment)', '?x'],
    ['# (encoded, it stays in the segment)', '#'],
    ['a slash between words', 'a/b'],
    ['a malformed escape', '%zz'],
  ])('takes %s', (_name, value) => {
    expect(pathSegmentProblem(value)).toBeUndefined();
  });

  it('says where a refused value came from, quoted with its control characters escaped', () => {
    expect(refusedSegment('the id from the createItem answer', 'x\n/..')).toBe(
      'the id from the createItem answer is "x\\n/..": not sent as a path segment (a dot segment)',
    );
  });
});
