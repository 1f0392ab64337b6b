// Keeps terminal control out of console output: a body snippet, a HAR method or a URL comes from a target or
// a file, and an ESC in it could recolour, retitle or rewrite the user's terminal (ECMA-48 C0 and C1 controls).

// C0 controls but tab and newline, DEL, and C1 controls (0x80-0x9f; 0x9b alone starts a sequence on some terminals).
const controls = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** Each control character as a visible `\u001b`; tab and newline are kept. Linear in the text. */
export function escapeControls(text: string): string {
  return text.replace(controls, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
