// How text from outside (a spec's operationId and paths, a target's ids, the bodies and headers the run sent) enters
// a bash script or a curl line: only as one single-quoted word, or in a comment made one line. Nothing a spec or a
// target supplies is ever inside double quotes, unquoted, or able to end a comment (issue 42, item 1).
// https://www.gnu.org/software/bash/manual/bash.html#Quoting
import { escapeLine } from '../core/escape-line.js';
import { escapeControls } from '../reports/escape-controls.js';

/** A piece of a word: text as it is, or a reference to a shell variable the script itself sets. */
export type ShellPiece = string | { variable: string };

const identifier = /^[A-Za-z_][A-Za-z0-9_]*$/;
// Bytes bash's $'…' cannot leave literal on one line: C0 controls, DEL and C1 controls.
const control = /[\u0000-\u001f\u007f-\u009f]/;
const controlOrQuote = /[\u0000-\u001f\u007f-\u009f\\']/g;

/**
 * One bash word that means exactly `text`: `'…'` (a quote closed, escaped, reopened), or `$'…'` when the text holds
 * control characters, so that a newline is `\x0a` and the word stays on its line. Neither form expands anything.
 */
export function shellQuote(text: string): string {
  if (!control.test(text)) return `'${text.replace(/'/g, `'\\''`)}'`;
  return `$'${text.replace(controlOrQuote, (char) => (char === '\\' || char === "'" ? `\\${char}` : bytes(char)))}'`;
}

/** One word of quoted text and `"$NAME"` references, joined (the shell joins adjacent quoted strings). */
export function shellWord(pieces: readonly ShellPiece[]): string {
  const word = pieces
    .filter((piece) => piece !== '')
    .map((piece) => (typeof piece === 'string' ? shellQuote(piece) : variableReference(piece.variable)))
    .join('');
  return word === '' ? "''" : word;
}

/** `"$NAME"`: only a shell identifier, which a config's schema already requires of an env name; anything else throws. */
export function variableReference(name: string): string {
  if (!identifier.test(name)) throw new Error(`not a shell variable name: ${JSON.stringify(name)}`);
  return `"$${name}"`;
}

/** Text for a `# …` comment or a message: one line whatever it holds (newlines, controls escaped), 300 characters. */
export function oneLine(text: string): string {
  const line = escapeControls(escapeLine(text));
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}

function bytes(char: string): string {
  return [...Buffer.from(char, 'utf8')].map((byte) => `\\x${byte.toString(16).padStart(2, '0')}`).join('');
}
