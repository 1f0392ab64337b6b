// Checks for the formats where ajv-formats' regexes disagree with the grammar that defines the format (JSON Schema
// 2020-12 Validation §7.3; OpenAPI 3.1 §4.8.5.1 for `byte`): createAjv puts these in their place. Each is one
// left-to-right scan of the value, no regex, so its time is linear in the value whatever a hostile peer sends.
import { isEmailAddress } from './email-format.js';

const isDigit = (code: number) => code >= 0x30 && code <= 0x39;
const isAlpha = (code: number) => (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
const isHex = (code: number) => isDigit(code) || (code >= 0x41 && code <= 0x46) || (code >= 0x61 && code <= 0x66);

/** The index past the run of DIGITs starting at `at` (`at` itself when there is none). */
function digitsEnd(value: string, at: number): number {
  let end = at;
  while (end < value.length && isDigit(value.charCodeAt(end))) end++;
  return end;
}

/** Whether `value` holds `"%" HEXDIG HEXDIG` (RFC 3986 §2.1 pct-encoded) at `at`. */
function pctEncodedAt(value: string, at: number): boolean {
  return value[at] === '%' && isHex(value.charCodeAt(at + 1)) && isHex(value.charCodeAt(at + 2));
}

const isBase64Char = (code: number) => isAlpha(code) || isDigit(code) || code === 0x2b || code === 0x2f;

/**
 * byte: RFC 4648 §4 base64, the whole value: groups of four alphabet characters, `=` padding (one or two) only at
 * its end. No line breaks: §3.1 forbids them unless the referring specification asks for them, and OpenAPI does not.
 * Pad bits are not checked: §3.5 lets a decoder refuse non-zero ones, it does not make them invalid. ajv-formats'
 * regex has the `m` flag, so it accepted any value with one base64 line (`"!!!\nYWJj"`).
 */
export function isBase64(value: string): boolean {
  if (value.length % 4 !== 0) return false;
  const end = value.length - (value.endsWith('==') ? 2 : value.endsWith('=') ? 1 : 0);
  for (let at = 0; at < end; at++) if (!isBase64Char(value.charCodeAt(at))) return false;
  return true;
}

/**
 * Reads `1*DIGIT unit` pairs from `at` whose units follow each other in `units` (RFC 3339 Appendix A: dur-year =
 * 1*DIGIT "Y" [dur-month], dur-month = 1*DIGIT "M" [dur-day]; likewise hour, minute, second): none skipped or
 * repeated. Returns the index past the last pair read and how many were read.
 */
function unitRun(value: string, at: number, units: string): { end: number; count: number } {
  let end = at;
  let count = 0;
  let last = -1;
  for (;;) {
    const number = digitsEnd(value, end);
    if (number === end || number === value.length) break;
    const unit = units.indexOf(value[number]!);
    if (unit < 0 || (count > 0 && unit !== last + 1)) break;
    end = number + 1;
    last = unit;
    count++;
  }
  return { end, count };
}

/**
 * duration: RFC 3339 Appendix A, `"P" (dur-date / dur-time / dur-week)`, dur-date = (dur-day / dur-month / dur-year)
 * [dur-time], dur-time = "T" (dur-hour / dur-minute / dur-second). A unit may not be skipped: `P1Y1D` and `PT1H1S`
 * are not durations (ajv-formats accepted both). ABNF strings are case-insensitive (RFC 5234 §2.3): `p1d` is one.
 */
export function isDuration(input: string): boolean {
  const value = input.toUpperCase();
  if (value[0] !== 'P') return false;
  const weeks = digitsEnd(value, 1);
  if (weeks > 1 && value[weeks] === 'W') return weeks + 1 === value.length;
  const date = unitRun(value, 1, 'YMD');
  if (date.end === value.length) return date.count > 0;
  if (value[date.end] !== 'T') return false;
  const time = unitRun(value, date.end + 1, 'HMS');
  return time.count > 0 && time.end === value.length;
}

/** RFC 6570 §2.1 literals outside ASCII: RFC 3987's ucschar and iprivate (no lone surrogate, no noncharacter). */
function isUcsOrPrivate(code: number): boolean {
  if (code >= 0x10000) {
    const low = code & 0xffff;
    return low <= 0xfffd && !(code >> 16 === 0xe && low < 0x1000);
  }
  return (code >= 0xa0 && code <= 0xd7ff) || (code >= 0xe000 && code <= 0xfdcf) || (code >= 0xfdf0 && code <= 0xffef);
}

/** RFC 6570 §2.1: any character but CTL, SP, DQUOTE, `'`, `%`, `<`, `>`, `\`, `^`, `` ` ``, `{`, `|`, `}`. */
function isLiteral(code: number): boolean {
  if (code > 0x7e) return isUcsOrPrivate(code);
  return code > 0x20 && !'"\'%<>\\^`{|}'.includes(String.fromCharCode(code));
}

/** RFC 6570 §2.3 varchar = ALPHA / DIGIT / "_" / pct-encoded: the index past one at `at`, or -1. */
function varcharEnd(value: string, at: number): number {
  const code = value.charCodeAt(at);
  if (isAlpha(code) || isDigit(code) || code === 0x5f) return at + 1;
  return pctEncodedAt(value, at) ? at + 3 : -1;
}

/** RFC 6570 §2.3 varname = varchar *( ["."] varchar ): dots between varchars, never first, last or doubled. */
function varnameEnd(value: string, at: number): number {
  let end = varcharEnd(value, at);
  while (end >= 0) {
    const next = varcharEnd(value, value[end] === '.' ? end + 1 : end);
    if (next < 0) return value[end] === '.' ? -1 : end;
    end = next;
  }
  return end;
}

/**
 * RFC 6570 §2.2-2.4: expression = "{" [ operator ] variable-list "}", varspec = varname [ ":" max-length / "*" ],
 * max-length = %x31-39 0*3DIGIT. The index past the expression opening at `at`, or -1.
 */
function expressionEnd(value: string, at: number): number {
  const operator = value[at + 1];
  let end = operator !== undefined && '+#./;?&=,!@|'.includes(operator) ? at + 2 : at + 1;
  for (;;) {
    end = varnameEnd(value, end);
    if (end < 0) return -1;
    if (value[end] === '*') end++;
    else if (value[end] === ':') {
      const code = value.charCodeAt(end + 1);
      if (!(isDigit(code) && code !== 0x30)) return -1;
      const digits = digitsEnd(value, end + 1);
      if (digits - end - 1 > 4) return -1;
      end = digits;
    }
    if (value[end] !== ',') break;
    end++;
  }
  return value[end] === '}' ? end + 1 : -1;
}

/**
 * uri-template: RFC 6570 §2, `*( literals / expression )`. ajv-formats refused a `.` inside a variable name (`{a.b}`,
 * §2.3 allows it) and accepted DEL and any character beyond ASCII as a literal (§2.1 allows ucschar and iprivate).
 */
export function isUriTemplate(value: string): boolean {
  let at = 0;
  while (at < value.length) {
    const code = value.codePointAt(at)!;
    if (code === 0x7b) at = expressionEnd(value, at);
    else if (code === 0x25) at = pctEncodedAt(value, at) ? at + 3 : -1;
    else at = isLiteral(code) ? at + (code > 0xffff ? 2 : 1) : -1;
    if (at < 0) return false;
  }
  return true;
}

/** RFC 6901 §3: `*( "/" reference-token )`, a `~` always followed by `0` or `1`; from `at` to the end. */
function isJsonPointerFrom(value: string, at: number): boolean {
  if (at < value.length && value[at] !== '/') return false;
  for (let index = at; index < value.length; index++)
    if (value[index] === '~' && value[index + 1] !== '0' && value[index + 1] !== '1') return false;
  return true;
}

/** non-negative-integer = "0" / %x31-39 *DIGIT: the index past one at `at`, or -1. */
function integerEnd(value: string, at: number, positive: boolean): number {
  if (value[at] === '0') return positive ? -1 : at + 1;
  const end = digitsEnd(value, at);
  return end > at ? end : -1;
}

/**
 * relative-json-pointer: draft-bhutton-relative-json-pointer-00 §3 (the draft JSON Schema 2020-12 §7.3.7 cites):
 * origin-specification (json-pointer / "#"), origin-specification = non-negative-integer [ ("+" / "-")
 * positive-integer ]. ajv-formats follows the older draft, without the index manipulation (`0+1/a`).
 */
export function isRelativeJsonPointer(value: string): boolean {
  let at = integerEnd(value, 0, false);
  if (at < 0) return false;
  if (value[at] === '+' || value[at] === '-') at = integerEnd(value, at + 1, true);
  if (at < 0) return false;
  return value[at] === '#' ? at + 1 === value.length : isJsonPointerFrom(value, at);
}

/** The checks createAjv registers over ajv-formats' own, by format name. */
export const formatChecks: Readonly<Record<string, (value: string) => boolean>> = {
  byte: isBase64,
  duration: isDuration,
  email: isEmailAddress,
  'relative-json-pointer': isRelativeJsonPointer,
  'uri-template': isUriTemplate,
};
