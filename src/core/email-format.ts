// The `email` format: RFC 5321 §4.1.2's Mailbox, as JSON Schema 2020-12 Validation §7.3.2 defines it (the draft
// OpenAPI 3.0 cites, RFC 5322 §3.4.1's addr-spec, allows the same local parts). One left-to-right scan, linear time.

const isDigit = (code: number) => code >= 0x30 && code <= 0x39;
const isLetDig = (code: number) => isDigit(code) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
/** RFC 5322 §3.2.3 atext: ALPHA, DIGIT and these. */
const atextSymbols = "!#$%&'*+-/=?^_`{|}~";
const isAtext = (code: number) => isLetDig(code) || (code < 0x80 && atextSymbols.includes(String.fromCharCode(code)));

/**
 * Local-part = Dot-string / Quoted-string. Dot-string = Atom *("." Atom), Atom = 1*atext; Quoted-string = DQUOTE
 * *(qtextSMTP / quoted-pairSMTP) DQUOTE, qtextSMTP = %d32-33 / %d35-91 / %d93-126, quoted-pairSMTP = "\" %d32-126.
 * The index past the local part, or -1.
 */
function localPartEnd(value: string): number {
  if (value[0] !== '"') {
    let at = 0;
    for (;;) {
      const start = at;
      while (at < value.length && isAtext(value.charCodeAt(at))) at++;
      if (at === start) return -1;
      if (value[at] !== '.') return at;
      at++;
    }
  }
  for (let at = 1; at < value.length; at++) {
    const code = value.charCodeAt(at);
    if (code === 0x22) return at + 1;
    // After a backslash any of %d32-126; otherwise the same less `"` (handled above) and `\`.
    const quoted = code === 0x5c ? value.charCodeAt(++at) : code;
    if (!(quoted >= 0x20 && quoted <= 0x7e)) return -1;
  }
  return -1;
}

/**
 * Domain = sub-domain *("." sub-domain), sub-domain = Let-dig [Ldh-str]: letters, digits and inner hyphens; a label
 * holds at most 63 octets (RFC 1035 §2.3.4). A name of one label (`a@localhost`) is a Domain.
 */
function isDomain(value: string, at: number): boolean {
  for (let start = at; ; ) {
    let end = start;
    while (end < value.length && (isLetDig(value.charCodeAt(end)) || value[end] === '-')) end++;
    if (end === start || end - start > 63 || value[start] === '-' || value[end - 1] === '-') return false;
    if (end === value.length) return true;
    if (value[end] !== '.') return false;
    start = end + 1;
  }
}

/** IPv4-address-literal = Snum 3("." Snum), Snum = 1*3DIGIT for 0 through 255. */
function isIpv4Literal(text: string): boolean {
  const parts = text.split('.');
  return (
    parts.length === 4 &&
    parts.every(
      (part) =>
        part.length >= 1 && part.length <= 3 && [...part].every((c) => isDigit(c.charCodeAt(0))) && Number(part) <= 255,
    )
  );
}

/**
 * address-literal = "[" ( IPv4-address-literal / IPv6-address-literal / General-address-literal ) "]", §4.1.3.
 * IPv6-address-literal = "IPv6:" IPv6-addr (no zone index: `%` is no IPv6-addr character). A general literal's
 * Standardized-tag MUST be registered with IANA, and the registry holds only `IPv6`: no other tag is valid.
 */
function isAddressLiteral(value: string, at: number): boolean {
  if (value[at] !== '[' || !value.endsWith(']') || value.length - at > 64) return false;
  const inner = value.slice(at + 1, -1);
  if (inner.slice(0, 5).toLowerCase() === 'ipv6:') return !inner.includes('%') && isIPv6(inner.slice(5));
  return isIpv4Literal(inner);
}

/**
 * email: Mailbox = Local-part "@" ( Domain / address-literal ). ajv-formats refused the quoted local part
 * (`"a b"@example.com`), address literals and single-label domains, all of which the grammar allows.
 */
export function isEmailAddress(value: string): boolean {
  const at = localPartEnd(value);
  if (at < 0 || value[at] !== '@') return false;
  return value[at + 1] === '[' ? isAddressLiteral(value, at + 1) : isDomain(value, at + 1);
}

/**
 * node:net's isIPv6 where there is Node (reached through process.getBuiltinModule, not imported, so that the core
 * bundles for a browser: contracts-kit/msw); elsewhere the WHATWG URL parser's IPv6 host grammar, which admits the
 * same RFC 4291 section 2.2 text forms (a zone index is refused before either is asked).
 */
function isIPv6(text: string): boolean {
  const net = globalThis.process?.getBuiltinModule?.('node:net');
  if (net) return net.isIPv6(text);
  if (!/^[0-9A-Fa-f:.]+$/.test(text)) return false;
  try {
    new URL(`http://[${text}]/`);
    return true;
  } catch {
    return false;
  }
}
