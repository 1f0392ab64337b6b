// Text from outside (a key a target chose, a spec's operationId, a path from a file) as one line: it can never
// start a line of its own in what we print, so it cannot write a CI runner's `::error::` or `::add-mask::` (GitHub
// Actions reads any output line that starts with `::`), nor a command after a script's `#` comment.
// https://docs.github.com/actions/reference/workflow-commands-for-github-actions

// C0 controls (newline and carriage return among them) but tab, DEL, C1 controls (NEL, U+0085, among them), and the
// Unicode line and paragraph separators.
const lineBreaksAndControls = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029]/g;

/** Each line break or control character as a visible `\u000a`; tab is kept. Linear in the text. */
export function escapeLine(text: string): string {
  return text.replace(lineBreaksAndControls, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
