// The edges of a `pattern`'s quantifiers, as string edge values for the boundaries phase: `^[a-z]{3,8}$` gives
// lengths 3 and 8 (valid) and 2 and 9 (invalid), the way minLength/maxLength give theirs. A server that stores the
// field in a column one shorter than the pattern allows breaks on the longest valid value, which a random draw rarely
// makes. Only simple patterns are read: a sequence of atoms (a literal, an escape, `.`, a class `[...]`) each with an
// optional quantifier (`{n}`, `{n,}`, `{n,m}`, `?`, `*`, `+`); a group or an alternation gives no edges. Every value
// is checked by ajv (create-ajv.ts, the validators' own engine) against the pattern before it is used: an intended
// valid one must match, an intended invalid one must not (JSON Schema 2020-12 validation §6.3.3: patterns are
// unanchored ECMA-262 regular expressions, so without `^…$` a longer string still matches, and is dropped).
import type { ValidateFunction } from 'ajv';
import { createAjv } from '../core/create-ajv.js';
import { maxGeneratedLength } from './schema-arbitrary.js';

interface Atom {
  sample: string;
  min: number;
  max: number;
  /** Whether it had a quantifier: only those have edges. */
  quantified: boolean;
}

/** Atoms per pattern at most: a long literal pattern has no quantifier edges worth its parsing. */
const maxAtoms = 64;
/** Patterns whose checks are kept; past it the cache starts again (a spec with thousands of patterns). */
const maxCached = 512;

/** The samples of the escapes a class or an atom may hold (ECMA-262 §22.2.2.9 CharacterClassEscape). */
const escapeSamples: Record<string, string> = { d: '0', D: 'a', w: 'a', W: '-', s: ' ', S: 'a' };

/** A character an atom of the class matches (its first range's start), or undefined for a negated class. */
function classSample(body: string): string | undefined {
  if (body.startsWith('^') || body === '') return undefined;
  if (body[0] === '\\') return escapeSamples[body[1] ?? ''] ?? body[1];
  return body[0];
}

/** The pattern's atoms, or undefined for one this reader does not take (groups, alternation, anchors inside). */
export function patternAtoms(pattern: string): Atom[] | undefined {
  const text = pattern.replace(/^\^/, '').replace(/(?<!\\)\$$/, '');
  const atoms: Atom[] = [];
  let at = 0;
  while (at < text.length) {
    if (atoms.length >= maxAtoms) return undefined;
    const char = text[at]!;
    let sample: string | undefined;
    if (char === '[') {
      const end = classEnd(text, at);
      if (end === undefined) return undefined;
      sample = classSample(text.slice(at + 1, end));
      at = end + 1;
    } else if (char === '\\') {
      const next = text[at + 1];
      if (next === undefined || /[bBkpPux0-9cfnrtv]/.test(next)) return undefined;
      sample = escapeSamples[next] ?? next;
      at += 2;
    } else if ('()|^$*+?{}'.includes(char)) {
      return undefined;
    } else {
      sample = char === '.' ? 'a' : char;
      at += 1;
    }
    if (sample === undefined) return undefined;
    const quantifier = /^(?:\{(\d{1,6})(,(\d{0,6}))?\}|([?*+]))\??/.exec(text.slice(at));
    if (!quantifier) {
      atoms.push({ sample, min: 1, max: 1, quantified: false });
      continue;
    }
    at += quantifier[0].length;
    const [min, max] =
      quantifier[4] === '?'
        ? [0, 1]
        : quantifier[4] === '*'
          ? [0, Number.POSITIVE_INFINITY]
          : quantifier[4] === '+'
            ? [1, Number.POSITIVE_INFINITY]
            : [
                Number(quantifier[1]),
                quantifier[2] === undefined
                  ? Number(quantifier[1])
                  : quantifier[3] === ''
                    ? Number.POSITIVE_INFINITY
                    : Number(quantifier[3]),
              ];
    if (!(min <= max)) return undefined;
    atoms.push({ sample, min, max, quantified: true });
  }
  return atoms;
}

/** The index of the `]` that closes the class opened at `start`, escapes skipped. */
function classEnd(text: string, start: number): number | undefined {
  for (let at = start + 1; at < text.length; at++) {
    if (text[at] === '\\') at++;
    else if (text[at] === ']' && at > start + 1) return at;
  }
  return undefined;
}

let ajv: ReturnType<typeof createAjv> | undefined;
const checks = new Map<string, ValidateFunction | undefined>();

/** The pattern's check by ajv, compiled on first use (never at import: a command that needs none pays nothing). */
function checkOf(pattern: string): ValidateFunction | undefined {
  if (!checks.has(pattern)) {
    if (checks.size >= maxCached) checks.clear();
    ajv ??= createAjv({ allErrors: false });
    try {
      checks.set(pattern, ajv.compile({ type: 'string', pattern }));
    } catch {
      checks.set(pattern, undefined);
    }
  }
  return checks.get(pattern);
}

/**
 * Per quantified atom, the string at its fewest and most repetitions (valid) and one past each (invalid), the other
 * atoms at their fewest; each kept only when ajv agrees with what it is meant to be. Valid ones first.
 */
export function patternEdges(pattern: unknown): string[] {
  if (typeof pattern !== 'string') return [];
  const atoms = patternAtoms(pattern);
  if (atoms === undefined || !atoms.some((atom) => atom.quantified)) return [];
  const valid: string[] = [];
  const invalid: string[] = [];
  const build = (index: number, count: number) =>
    atoms.map((atom, at) => atom.sample.repeat(at === index ? count : atom.min)).join('');
  const fits = (count: number) => Number.isFinite(count) && count >= 0 && count <= maxGeneratedLength;
  atoms.forEach((atom, index) => {
    if (!atom.quantified) return;
    for (const count of [atom.min, atom.max]) if (fits(count)) valid.push(build(index, count));
    for (const count of [atom.min - 1, atom.max + 1]) if (fits(count)) invalid.push(build(index, count));
  });
  const check = checkOf(pattern);
  if (check === undefined) return [];
  const kept = [
    ...valid.filter((value) => value.length <= maxGeneratedLength && check(value) === true),
    ...invalid.filter((value) => value.length <= maxGeneratedLength && check(value) === false),
  ];
  return [...new Set(kept)];
}
