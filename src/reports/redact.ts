// Replaces every secret the run was given or made (API keys, tokens, webhook secrets) wherever text leaves
// the process: console, reports, error messages. Text is redacted after it is rendered, so a secret is looked
// for in every form a renderer or a target may have put it in (JSON- and XML-escaped, percent-encoded, and those
// nested twice, as when a message quoting a JSON value is written into a JSON or JUnit report).

import { CredentialFields, isCredentialName, redacted } from './redact-fields.js';

export { isCredentialName, redacted };

/** The environment variables that carry credentials: their values are redacted from everything written. */
export const credentialVariables = ['CLIENT_SESSION_API_KEY', 'CLIENT_SESSION_CLIENT_TOKEN', 'WEBHOOKS_TOKEN'] as const;

// A query parameter (`?name=value`, also after `&amp;` in XML) that carries a credential by the rule of
// redact-fields.ts (its name, or the spec's word): its value is redacted wherever a URL appears (a HAR capture, a
// Location header, an error message). The name is matched apart, so the scan stays linear. The value stops before a
// backslash escape other than `\\` and `\/`, so a JSON report stays valid JSON.
const queryParameter = /([?&;])([^=&#\s"'<>;?]+)=((?:[^&#\s"'<>\\]|\\[\\/])+)/g;
// `scheme://user:password@host`: the userinfo is a credential. (The scheme is bounded so a run of `a.a.a…`
// cannot make the scan quadratic.)
const userinfo = /\b([a-z][a-z0-9+.-]{0,30}:\/\/)[^\s/?#"'<>\\]+@/gi;
// Signatures computed from a secret are as good as the secret to an attacker replaying a payload.
const signature = /\b(sha(?:1|256)=)[0-9a-f]{16,}/gi;

export class Redactor {
  private readonly secrets = new Set<string>();
  /** Which query parameters carry credentials: by name, and by what the specs in use say. */
  private fields = new CredentialFields();
  /** Every form of every secret, as one alternation; rebuilt when a secret is added. */
  private pattern: RegExp | null | undefined;

  static fromEnvironment(env: NodeJS.ProcessEnv): Redactor {
    const redactor = new Redactor();
    for (const name of credentialVariables) redactor.add(env[name]);
    return redactor;
  }

  add(secret: string | undefined): void {
    // Very short values would redact ordinary words; none of the credentials we handle is that short.
    if (!secret || secret.length < 4 || this.secrets.has(secret)) return;
    this.secrets.add(secret);
    this.pattern = undefined;
  }

  /** Also redacts the query values a spec marks as credentials (apiKey schemes, password and writeOnly parameters). */
  addSpecCredentials(document: unknown): void {
    this.fields = this.fields.with(CredentialFields.fromSpec(document));
  }

  redact(text: string): string {
    const pattern = this.secretPattern();
    const result = pattern ? text.replace(pattern, redacted) : text;
    return result
      .replace(signature, `$1${redacted}`)
      .replace(userinfo, `$1${redacted}@`)
      .replace(queryParameter, (whole, separator: string, name: string) =>
        this.fields.isCredential(name) ? `${separator}${name}=${redacted}` : whole,
      );
  }

  private secretPattern(): RegExp | null {
    if (this.pattern !== undefined) return this.pattern;
    const forms = new Set<string>();
    for (const secret of this.secrets) for (const form of encodedForms(secret)) forms.add(form);
    // One pass over the text, whatever its size: longest first, so a secret that contains another (or a form that
    // extends another) is replaced whole. Case-insensitive, so `%2f` and `\u003C` match as well as `%2F`, `\u003c`.
    const alternatives = [...forms].sort((a, b) => b.length - a.length).map(escapeRegExp);
    this.pattern = alternatives.length > 0 ? new RegExp(alternatives.join('|'), 'gi') : null;
    return this.pattern;
  }
}

type Encoder = (text: string) => string;

const encoders: Encoder[] = [
  // JSON.stringify, as our JSON reports write strings.
  (text) => JSON.stringify(text).slice(1, -1),
  // JSON as Go writes it (`<`, `>`, `&` as \u escapes) and as Python's ensure_ascii does (non-ASCII as \u escapes).
  (text) =>
    JSON.stringify(text)
      .slice(1, -1)
      .replace(/[<>&\u2028\u2029]/g, unicodeEscape),
  (text) =>
    JSON.stringify(text)
      .slice(1, -1)
      .replace(/[^\u0000-\u007f]/g, unicodeEscape),
  // XML as the JUnit report writes it (characters XML cannot hold dropped, the five specials escaped), and text
  // nodes as other writers escape them (`&`, `<`, `>` only).
  // eslint-disable-next-line no-control-regex
  (text) =>
    xmlText(text.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, ''))
      .replace(/"/g, '&quot;')
      .replace(/'/g, '&apos;'),
  (text) => xmlText(text),
  // Percent-encoding: encodeURIComponent (our clients' query strings), form encoding (`+` for a space,
  // URLSearchParams), and the WHATWG URL serializer's query and path sets (what `new URL(…).href` leaves).
  (text) => percentEncode(text, (char) => /^[A-Za-z0-9\-_.!~*'()]$/.test(char)),
  (text) => percentEncode(text, (char) => /^[A-Za-z0-9\-_.*]$/.test(char), { ' ': '+' }),
  (text) => percentEncode(text, (char) => /^[\u0021\u0024-\u0026\u0028-\u003b\u003d\u003f-\u007e]$/.test(char)),
  (text) => percentEncode(text, (char) => /^[\u0021\u0024-\u003b\u003d\u0040-\u005f\u0061-\u007a|~]$/.test(char)),
];

/** The secret and each form an encoder, or two in a row, makes of it (distinct forms only). */
export function encodedForms(secret: string): string[] {
  const forms = new Set([secret]);
  let layer = [secret];
  for (let depth = 0; depth < 2; depth++) {
    const next: string[] = [];
    for (const text of layer) {
      for (const encode of encoders) {
        const form = encode(text);
        if (!forms.has(form)) {
          forms.add(form);
          next.push(form);
        }
      }
    }
    layer = next;
  }
  return [...forms];
}

function xmlText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function unicodeEscape(char: string): string {
  return `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

function percentEncode(text: string, keep: (char: string) => boolean, special: Record<string, string> = {}): string {
  // By code point, so a character outside the BMP becomes its four UTF-8 bytes; a lone surrogate (which
  // encodeURIComponent refuses) becomes what a UTF-8 encoder writes for it, U+FFFD.
  let result = '';
  for (const char of text) {
    if (keep(char)) result += char;
    else
      result +=
        special[char] ??
        [...Buffer.from(char, 'utf8')].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join('');
  }
  return result;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
