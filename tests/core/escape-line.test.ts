import { describe, expect, it } from 'vitest';
import { escapeLine } from '../../src/core/escape-line.js';

describe('escapeLine', () => {
  it.each([
    ['a newline', 'a\n::error::x', 'a\\u000a::error::x'],
    ['a carriage return', '\r::add-mask::x', '\\u000d::add-mask::x'],
    ['CRLF, VT, FF', 'a\r\nb\vc\fd', 'a\\u000d\\u000ab\\u000bc\\u000cd'],
    ['NEL and the Unicode separators', 'a\u0085b\u2028c\u2029d', 'a\\u0085b\\u2028c\\u2029d'],
    ['tab and other controls, left to the output', 'a\tb\u001b[31m', 'a\tb\u001b[31m'],
  ])('escapes %s', (_what, text, want) => {
    expect(escapeLine(text)).toBe(want);
  });
});
