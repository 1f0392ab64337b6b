// Text from outside (a key a target chose, a spec's operationId, a HAR's method or header) as one line: it can never
// start a line of its own in what we print, so it cannot write a CI runner's `::error::` or `::add-mask::` (GitHub
// Actions reads any output line that starts with `::`), nor a command after a script's `#` comment. Other control
// characters are left to the output (reports/escape-controls.ts), so a JSON report keeps them as they were.
// https://docs.github.com/actions/reference/workflow-commands-for-github-actions

// What ends or breaks a line somewhere: LF, VT, FF, CR, NEL, and the Unicode line and paragraph separators.
const lineBreaks = /[\n\v\f\r\u0085\u2028\u2029]/g;

/** Each line break as a visible `\u000a`. Linear in the text. */
export function escapeLine(text: string): string {
  return text.replace(lineBreaks, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
