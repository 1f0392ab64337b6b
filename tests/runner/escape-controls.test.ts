import { describe, expect, it } from 'vitest';
import { escapeControls } from '../../src/reports/escape-controls.js';

describe('escapeControls', () => {
  it.each([
    ['keeps plain text, tabs, newlines and non-ASCII', 'a\tb\nc é ☃ 𝄞', 'a\tb\nc é ☃ 𝄞'],
    [
      'escapes ESC, so no sequence reaches the terminal',
      '\u001b[2J\u001b]0;title\u0007',
      '\\u001b[2J\\u001b]0;title\\u0007',
    ],
    ['escapes a carriage return, which would let a line overwrite another', 'ok\rFAIL', 'ok\\u000dFAIL'],
    ['escapes NUL, backspace, DEL', '\u0000\u0008\u007f', '\\u0000\\u0008\\u007f'],
    ['escapes C1 controls such as CSI (0x9b) and NEL (0x85)', '\u009b31m\u0085', '\\u009b31m\\u0085'],
    ['leaves the first characters past C1 alone', '\u00a0\u00ff', '\u00a0\u00ff'],
  ])('%s', (_name, given, want) => {
    expect(escapeControls(given)).toBe(want);
  });
});
