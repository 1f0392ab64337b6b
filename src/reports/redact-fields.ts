// Redacts credentials by where they sit rather than by value: headers, query parameters, and fields of JSON and
// form-encoded bodies (RFC 8259, https://url.spec.whatwg.org/#urlencoded-parsing). One rule for every place: a name
// is a credential's when it looks like one (isCredentialName, the README's list) or when the spec says so: an apiKey
// security scheme's name (https://spec.openapis.org/oas/v3.1.0#security-scheme-object), or a property or parameter
// whose schema is `writeOnly` or `format: password`. Spec names are matched wherever they appear (a superset: a field
// the spec marks in one schema is redacted in every body), so no schema walk is needed per exchange.

export const redacted = '[REDACTED]';

const credentialName = /token|secret|signature|password|passw|credential|key|auth|session|^(?:sig|pwd|pass|code)$/i;

/** Whether a name says it carries a credential (the README's list): for query parameters, headers and body fields. */
export function isCredentialName(name: string): boolean {
  return credentialName.test(name);
}

/** Headers that always carry a credential, whatever the spec says. */
const credentialHeaders = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie']);
/**
 * Authentication schemes (the IANA registry, https://www.iana.org/assignments/http-authschemes, and GitHub's
 * `token`): the word before the credential in an Authorization header, kept when the credential is redacted. Any
 * other first word may be part of the secret itself, and goes with it.
 */
const authSchemes = new Set([
  'aws4-hmac-sha256',
  'basic',
  'bearer',
  'concealed',
  'digest',
  'dpop',
  'gnap',
  'hoba',
  'mutual',
  'negotiate',
  'ntlm',
  'oauth',
  'privatetoken',
  'scram-sha-1',
  'scram-sha-256',
  'token',
  'vapid',
]);
const literalKeys = new Set(['example', 'examples', 'default', 'enum', 'const']);
const numberChars = new Set('0123456789eE+-.');

export class CredentialFields {
  private readonly named: Set<string>;

  /** `names`: more names (any case) whose values are credentials. */
  constructor(names: Iterable<string> = []) {
    this.named = new Set([...names].map((name) => name.toLowerCase()));
  }

  /** The rule for a spec: its apiKey schemes' names, and every property or parameter marked writeOnly or password. */
  static fromSpec(document: unknown): CredentialFields {
    return new CredentialFields(specCredentialNames(document));
  }

  /** This rule and another's names together. */
  with(other: CredentialFields): CredentialFields {
    return new CredentialFields([...this.named, ...other.named]);
  }

  isCredential(name: string): boolean {
    return isCredentialName(name) || this.named.has(name.toLowerCase());
  }

  isCredentialHeader(name: string): boolean {
    return credentialHeaders.has(name.toLowerCase()) || this.isCredential(name);
  }

  /**
   * A header's value with its credential replaced and its shape kept, so that a capture read back still shows which
   * credential was sent: `Bearer [REDACTED]`, `a=[REDACTED]; b=[REDACTED]`, a Set-Cookie's attributes. Any other
   * header that carries a credential is replaced whole; a header that carries none is kept.
   */
  header(name: string, value: string): string {
    const lower = name.toLowerCase();
    if (lower === 'authorization' || lower === 'proxy-authorization') {
      const scheme = /^\s*(\S+)\s+\S/.exec(value)?.[1];
      return scheme !== undefined && authSchemes.has(scheme.toLowerCase()) ? `${scheme} ${redacted}` : redacted;
    }
    if (lower === 'cookie')
      return value
        .split(';')
        .filter((pair) => pair.trim() !== '')
        .map(cookiePair)
        .join('; ');
    if (lower === 'set-cookie') {
      const [first = '', ...attributes] = value.split(';');
      return [cookiePair(first), ...attributes.map((attribute) => attribute.trim())].join('; ');
    }
    return this.isCredential(name) ? redacted : value;
  }

  /**
   * A raw query string (no `?`) or form body, each credential's value replaced; every other byte kept. A `;` may
   * separate pairs too (some servers split on it), but never ends a credential's value: that runs to the next `&`.
   */
  query(query: string): string {
    return query
      .split('&')
      .map((pair) => this.pair(pair))
      .join('&');
  }

  private pair(pair: string): string {
    const parts = pair.split(';');
    for (let index = 0; index < parts.length; index++) {
      const part = parts[index]!;
      const equals = part.indexOf('=');
      if (equals > 0 && this.isCredential(formDecode(part.slice(0, equals))))
        return [...parts.slice(0, index), `${part.slice(0, equals)}=${redacted}`].join(';');
    }
    return pair;
  }

  /** A URL (absolute, or a path and query) with its query redacted. */
  url(url: string): string {
    const start = url.indexOf('?');
    if (start < 0) return url;
    const end = url.indexOf('#', start);
    const query = url.slice(start + 1, end < 0 ? undefined : end);
    return url.slice(0, start + 1) + this.query(query) + (end < 0 ? '' : url.slice(end));
  }

  /** A body: a form's credential fields, a JSON body's credential members (nested too); other text as it is. */
  body(text: string, contentType: string | undefined): string {
    const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
    if (type === 'application/x-www-form-urlencoded') return this.query(text);
    const json = /^[\w.+-]+\/(?:[\w.-]+\+)?json$/.test(type) || (type === '' && /^\s*[{[]/.test(text));
    if (!json) return text;
    // A body repeats its member names: each is judged once.
    const judged = new Map<string, boolean>();
    return redactJsonText(text, (name) => {
      let credential = judged.get(name);
      if (credential === undefined) judged.set(name, (credential = this.isCredential(name)));
      return credential;
    });
  }
}

/** `name=value` as `name=[REDACTED]` (a cookie's name is no secret; its value may be); anything else whole. */
function cookiePair(pair: string): string {
  const trimmed = pair.trim();
  const equals = trimmed.indexOf('=');
  return equals > 0 ? `${trimmed.slice(0, equals).trim()}=${redacted}` : redacted;
}

/**
 * A JSON text with every string or number inside a credential-named member replaced, in one linear scan that keeps
 * every other byte (a duplicate key or odd spacing stays for `validate --har` to see). Text that is not JSON is
 * scanned the same way, best effort.
 */
export function redactJsonText(text: string, isCredential: (name: string) => boolean): string {
  // Per open object or array: whether everything in it is a credential's.
  const stack: { object: boolean; secret: boolean }[] = [];
  let key: string | undefined;
  let expectKey = false;
  let out = '';
  let copied = 0;
  const inSecret = () => {
    const top = stack.at(-1);
    return top !== undefined && (top.secret || (top.object && key !== undefined && isCredential(key)));
  };
  const replace = (start: number, end: number) => {
    out += `${text.slice(copied, start)}"${redacted}"`;
    copied = end;
  };
  // A value that is already a mask ("********", as a masked webhook secret is shown) or empty hides nothing: it stays,
  // so a capture read back by `validate --har` is judged on what was sent.
  const masked = (start: number, end: number) => /^"\**"$/.test(text.slice(start, end));
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    if (char === '"') {
      const end = stringEnd(text, index);
      if (expectKey && stack.at(-1)?.object) {
        key = decodeKey(text.slice(index, end));
        expectKey = false;
      } else if (inSecret() && !masked(index, end)) replace(index, end);
      index = end - 1;
    } else if (char === '{' || char === '[') {
      stack.push({ object: char === '{', secret: inSecret() });
      expectKey = char === '{';
      key = undefined;
    } else if (char === '}' || char === ']') {
      stack.pop();
      expectKey = false;
      key = undefined;
    } else if (char === ',') {
      expectKey = stack.at(-1)?.object ?? false;
      key = undefined;
    } else if (char === '-' || (char >= '0' && char <= '9')) {
      let end = index + 1;
      while (end < text.length && numberChars.has(text[end]!)) end++;
      // A number named `code` is a status or an error code (GitHub's last_response.code): an OAuth code is text.
      if (inSecret() && !(key === 'code' && stack.at(-1)?.object && !stack.at(-1)?.secret)) replace(index, end);
      index = end - 1;
    }
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/** The index after the string that opens at `start` (its closing quote), or the text's end. */
function stringEnd(text: string, start: number): number {
  for (let index = start + 1; index < text.length; index++) {
    if (text[index] === '\\') index++;
    else if (text[index] === '"') return index + 1;
  }
  return text.length;
}

function decodeKey(token: string): string {
  if (!token.includes('\\')) return token.slice(1, -1);
  try {
    return JSON.parse(token) as string;
  } catch {
    return token.slice(1, -1);
  }
}

function formDecode(text: string): string {
  return /[%+]/.test(text) ? percentDecode(text.replace(/\+/g, ' ')) : text;
}

function percentDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Names the spec marks as credentials: apiKey schemes, and writeOnly or password properties and parameters. */
function specCredentialNames(document: unknown): Set<string> {
  const names = new Set<string>();
  const marked = (schema: unknown) => marksCredential(document, schema, 0);
  const pending: unknown[] = [document];
  const seen = new Set<object>();
  while (pending.length > 0) {
    const node = pending.pop();
    if (Array.isArray(node)) pending.push(...node);
    if (!isObject(node) || seen.has(node)) continue;
    seen.add(node);
    if (node.type === 'apiKey' && typeof node.name === 'string') names.add(node.name);
    if (typeof node.name === 'string' && typeof node.in === 'string' && marked(node.schema)) names.add(node.name);
    if (isObject(node.properties))
      for (const [name, schema] of Object.entries(node.properties)) if (marked(schema)) names.add(name);
    for (const [key, child] of Object.entries(node)) if (!literalKeys.has(key)) pending.push(child);
  }
  return names;
}

/** writeOnly or format: password, directly, through a local $ref, or in an allOf/anyOf/oneOf branch. */
function marksCredential(document: unknown, schema: unknown, depth: number): boolean {
  if (!isObject(schema) || depth > 8) return false;
  if (schema.writeOnly === true || schema.format === 'password') return true;
  if (typeof schema.$ref === 'string' && marksCredential(document, resolveLocal(document, schema.$ref), depth + 1))
    return true;
  return ['allOf', 'anyOf', 'oneOf'].some(
    (keyword) =>
      Array.isArray(schema[keyword]) &&
      (schema[keyword] as unknown[]).some((branch) => marksCredential(document, branch, depth + 1)),
  );
}

function resolveLocal(document: unknown, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  let node = document;
  for (const part of ref.slice(2).split('/')) {
    const key = percentDecode(part).replace(/~1/g, '/').replace(/~0/g, '~');
    node = isObject(node) ? node[key] : undefined;
  }
  return node;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
