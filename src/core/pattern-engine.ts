// The engine that runs a spec's `pattern` (and patternProperties) for ajv: ECMA-262 regular expressions with the
// `u` flag, unanchored (JSON Schema 2020-12 validation, section 6.3.3), run in time linear in the value. A backtracking
// RegExp took 12 s over 28 characters with `^(a+)+$`. Each pattern runs on one of three engines:
//   regexp        V8's RegExp, for a pattern proven to backtrack at most a bounded number of times per character
//                 (`^[a-z0-9-]+$`): RE2 in JavaScript costs ~25× more on such a pattern, and fuzz and the proxy
//                 run them on every request
//   re2           re2js (RE2: automata, no backtracking), on the pattern translated to RE2 syntax with the meaning
//                 ECMA-262 gives it (`.`, `\s`, `\p{…}`, `\u…`, classes), for every other pattern
//   backtracking  V8's RegExp, for syntax RE2 lacks (lookaround, backreferences); lint warns about these
// (contracts-pattern-backtracking).
import type { RE2JS as RE2JSClass } from 're2js';

// re2js (260 kB) is loaded on the first pattern that needs it, not by every command's start (a fifth of the code a
// cold `contracts validate` parsed); require, since ajv asks for a compiled pattern synchronously. node:module is
// reached through process.getBuiltinModule (Node 20.16), not imported, so that the core bundles for a browser, where
// contracts-kit/msw hands re2js in (provideRe2js) as it has no require.
let re2js: typeof RE2JSClass | undefined;
const RE2JS = (): typeof RE2JSClass =>
  (re2js ??= (
    process.getBuiltinModule('node:module').createRequire(import.meta.url)('re2js') as { RE2JS: typeof RE2JSClass }
  ).RE2JS);

/** re2js as loaded by a caller that has no require (a browser bundle imports it). */
export function provideRe2js(loaded: typeof RE2JSClass): void {
  re2js ??= loaded;
}

export type PatternEngineName = 'regexp' | 're2' | 'backtracking';

/** What ajv calls: `test`, and `toString` as the key under which it shares one compiled pattern in a schema. */
export interface CompiledPattern {
  test(value: string): boolean;
  engine: PatternEngineName;
  /** For `backtracking`: what RE2 lacks, in words (`a lookahead`). */
  reason?: string;
  toString(): string;
}

/** The pattern uses syntax with no RE2 equivalent. */
export class Unsupported extends Error {}

// ---- the pattern as a tree (it has already been accepted by `new RegExp(pattern, 'u')`)

type Node =
  | { kind: 'char'; re2: string } // exactly one code point, from a set
  | { kind: 'assert'; re2: string }
  | { kind: 'group'; body: Node[][] }
  | { kind: 'repeat'; body: Node; min: number; max: number; lazy: boolean }
  | { kind: 'unsupported'; what: string };

const maxCodePoint = 0x10ffff;
const hex = (codePoint: number) => `\\x{${codePoint.toString(16).toUpperCase()}}`;
const literal = (codePoint: number) =>
  /[A-Za-z0-9_]/.test(String.fromCodePoint(codePoint)) ? String.fromCodePoint(codePoint) : hex(codePoint);
type Range = readonly [number, number];
const rangesText = (ranges: readonly Range[]) =>
  ranges.map(([from, to]) => (from === to ? hex(from) : `${hex(from)}-${hex(to)}`)).join('');

// ECMA-262 WhiteSpace and LineTerminator (`\s`); RE2's `\s` is [\t\n\f\r ] only. tests/core compares it with V8's.
export const whiteSpace: readonly Range[] = [
  [0x09, 0x0d],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
];
const lineTerminators: readonly Range[] = [
  [0x0a, 0x0a],
  [0x0d, 0x0d],
  [0x2028, 0x2029],
];

function complement(ranges: readonly Range[]): Range[] {
  const out: Range[] = [];
  let next = 0;
  for (const [from, to] of ranges) {
    if (from > next) out.push([next, from - 1]);
    next = to + 1;
  }
  if (next <= maxCodePoint) out.push([next, maxCodePoint]);
  return out;
}

const propertyCache = new Map<string, Range[]>();

/**
 * The code points a `\p{…}`/`\P{…}` escape matches, asked of V8 itself: RE2's Unicode tables name fewer properties
 * (no Script_Extensions, no binary properties) and may be of another Unicode version.
 */
export function propertyRanges(escape: string): Range[] {
  let ranges = propertyCache.get(escape);
  if (ranges) return ranges;
  ranges = [];
  const run = new RegExp(`${escape}+`, 'gu');
  // All code points in order, surrogates apart (adjacent, a lead and a trail would make one code point).
  const pieces: [number, number][] = [
    [0, 0xd7ff],
    [0xe000, maxCodePoint],
  ];
  for (const [from, to] of pieces) {
    const text = codePointsText(from, to);
    for (const match of text.matchAll(run)) {
      const end = match.index + match[0].length;
      const lastStart = end - (end >= 2 && isTrail(text.charCodeAt(end - 1)) ? 2 : 1);
      ranges.push([text.codePointAt(match.index)!, text.codePointAt(lastStart)!]);
    }
  }
  const one = new RegExp(`^${escape}$`, 'u');
  for (let unit = 0xd800; unit <= 0xdfff; unit++) if (one.test(String.fromCharCode(unit))) ranges.push([unit, unit]);
  ranges = mergeRanges(ranges);
  propertyCache.set(escape, ranges);
  return ranges;
}

const isTrail = (unit: number) => unit >= 0xdc00 && unit <= 0xdfff;

function codePointsText(from: number, to: number): string {
  const units = new Uint16Array((to - from + 1) * 2);
  let length = 0;
  for (let codePoint = from; codePoint <= to; codePoint++) {
    if (codePoint <= 0xffff) units[length++] = codePoint;
    else {
      units[length++] = 0xd800 + ((codePoint - 0x10000) >> 10);
      units[length++] = 0xdc00 + ((codePoint - 0x10000) & 0x3ff);
    }
  }
  let text = '';
  for (let start = 0; start < length; start += 8192)
    text += String.fromCharCode(...units.subarray(start, Math.min(start + 8192, length)));
  return text;
}

function mergeRanges(ranges: Range[]): Range[] {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const out: [number, number][] = [];
  for (const [from, to] of sorted) {
    const last = out.at(-1);
    if (last && from <= last[1] + 1) last[1] = Math.max(last[1], to);
    else out.push([from, to]);
  }
  return out;
}

/** An RE2 class of these items; RE2 has no empty class, so `[]` becomes "no code point" and `[^]` "any". */
function classOf(negated: boolean, items: string[]): string {
  const inside = items.join('');
  if (inside === '') return `[${negated ? '' : '^'}${rangesText([[0, maxCodePoint]])}]`;
  return `[${negated ? '^' : ''}${inside}]`;
}

/** Parses an ECMA-262 pattern (u flag) that V8 accepted into the tree both translation and analysis read. */
class PatternParser {
  private at = 0;
  constructor(private readonly source: string) {}

  parse(): Node[][] {
    const body = this.alternatives();
    if (this.at < this.source.length) throw new Unsupported(`unexpected "${this.source[this.at]}"`);
    return body;
  }

  private peek(ahead = 0): string | undefined {
    return this.source[this.at + ahead];
  }

  private eat(text: string): boolean {
    if (!this.source.startsWith(text, this.at)) return false;
    this.at += text.length;
    return true;
  }

  /** The text `syntax` (a sticky RegExp) matches here, consumed; undefined when it does not. */
  private take(syntax: RegExp): RegExpExecArray | undefined {
    syntax.lastIndex = this.at;
    const found = syntax.exec(this.source);
    if (found) this.at += found[0].length;
    return found ?? undefined;
  }

  private codePoint(): number {
    const codePoint = this.source.codePointAt(this.at)!;
    this.at += codePoint > 0xffff ? 2 : 1;
    return codePoint;
  }

  private alternatives(): Node[][] {
    const alternatives: Node[][] = [[]];
    while (this.at < this.source.length && this.peek() !== ')') {
      if (this.eat('|')) alternatives.push([]);
      else alternatives.at(-1)!.push(this.quantified(this.atom()));
    }
    return alternatives;
  }

  private atom(): Node {
    if (this.eat('^')) return { kind: 'assert', re2: '^' };
    if (this.eat('$')) return { kind: 'assert', re2: '$' };
    if (this.eat('.')) return { kind: 'char', re2: `[^${rangesText(lineTerminators)}]` };
    if (this.eat('(')) return this.group();
    if (this.eat('[')) return this.characterClass();
    if (this.eat('\\')) return this.escape();
    return { kind: 'char', re2: literal(this.codePoint()) };
  }

  private group(): Node {
    const lookaround = ['?=', '?!', '?<=', '?<!'].find((opening) => this.eat(opening));
    let what: string | undefined;
    if (lookaround) what = lookaround.includes('<') ? 'a lookbehind' : 'a lookahead';
    else if (this.eat('?<'))
      this.at = this.source.indexOf('>', this.at) + 1; // a named group: its name is not needed
    else if (!this.eat('?:') && this.peek() === '?') what = 'a group modifier';
    const body = this.alternatives();
    if (!this.eat(')')) throw new Unsupported('an unclosed group');
    return what ? { kind: 'unsupported', what } : { kind: 'group', body };
  }

  private quantified(body: Node): Node {
    let min: number;
    let max: number;
    if (this.eat('*')) [min, max] = [0, Infinity];
    else if (this.eat('+')) [min, max] = [1, Infinity];
    else if (this.eat('?')) [min, max] = [0, 1];
    else {
      const bounds = this.take(/\{(\d+)(,(\d*))?\}/y);
      if (!bounds) return body;
      min = Number(bounds[1]);
      max = bounds[2] === undefined ? min : bounds[3] === '' ? Infinity : Number(bounds[3]);
    }
    const lazy = this.eat('?');
    return { kind: 'repeat', body, min, max, lazy };
  }

  /** An escape outside a class. */
  private escape(): Node {
    const c = this.peek();
    if (c === 'b' || c === 'B') return this.at++, { kind: 'assert', re2: `\\${c}` };
    if (this.take(/[1-9]\d*|k<[^>]*>/y)) return { kind: 'unsupported', what: 'a backreference' };
    const set = this.setEscape();
    if (set !== undefined) return { kind: 'char', re2: classOf(false, [set]) };
    return { kind: 'char', re2: literal(this.characterEscape()) };
  }

  /** `\d \D \w \W` (ASCII in both), `\s \S`, `\p{…} \P{…}`: the inside of an RE2 class ('' for no code point). */
  private setEscape(): string | undefined {
    const c = this.peek();
    if (c !== undefined && 'dDwW'.includes(c)) return this.at++, `\\${c}`;
    if (c === 's' || c === 'S') return this.at++, rangesText(c === 's' ? whiteSpace : complement(whiteSpace));
    if (c === 'p' || c === 'P') return rangesText(propertyRanges(`\\${this.take(/[pP]\{[^}]*\}/y)![0]}`));
    return undefined;
  }

  /** One code point written as an escape (after the backslash). */
  private characterEscape(inClass = false): number {
    const c = this.source[this.at++]!;
    const controls: Record<string, number> = { t: 9, n: 10, v: 11, f: 12, r: 13, '0': 0 };
    if (c in controls) return controls[c]!;
    if (c === 'b' && inClass) return 8;
    if (c === 'c') return this.codePoint() % 32;
    if (c === 'x') return this.hexDigits(2);
    if (c === 'u') {
      if (this.eat('{')) {
        const end = this.source.indexOf('}', this.at);
        const codePoint = Number.parseInt(this.source.slice(this.at, end), 16);
        this.at = end + 1;
        return codePoint;
      }
      const unit = this.hexDigits(4);
      // `\uD83D\uDE00` is one code point under the u flag.
      const trail = unit >= 0xd800 && unit <= 0xdbff ? this.take(/\\u([dD][c-fC-F][0-9a-fA-F]{2})/y) : undefined;
      if (trail) {
        return 0x10000 + ((unit - 0xd800) << 10) + (Number.parseInt(trail[1]!, 16) - 0xdc00);
      }
      return unit;
    }
    return c.codePointAt(0)!; // an identity escape: a syntax character, `/` or `-`
  }

  private hexDigits(count: number): number {
    const value = Number.parseInt(this.source.slice(this.at, this.at + count), 16);
    this.at += count;
    return value;
  }

  private characterClass(): Node {
    const negated = this.eat('^');
    const items: string[] = [];
    while (!this.eat(']')) {
      if (this.at >= this.source.length) throw new Unsupported('an unclosed class');
      const set =
        this.peek() === '\\' && /[dDwWsSpP]/.test(this.peek(1) ?? '') ? (this.at++, this.setEscape()) : undefined;
      if (set !== undefined) {
        items.push(set);
        continue;
      }
      const from = this.classCodePoint();
      if (this.peek() === '-' && this.peek(1) !== ']' && this.peek(1) !== undefined) {
        this.at++;
        items.push(rangesText([[from, this.classCodePoint()]]));
      } else items.push(hex(from));
    }
    return { kind: 'char', re2: classOf(negated, items) };
  }

  private classCodePoint(): number {
    return this.eat('\\') ? this.characterEscape(true) : this.codePoint();
  }
}

// ---- translation to RE2 syntax

function translate(alternatives: Node[][]): string {
  return alternatives.map((sequence) => sequence.map(translateNode).join('')).join('|');
}

function translateNode(node: Node): string {
  switch (node.kind) {
    case 'char':
    case 'assert':
      return node.re2;
    case 'group':
      return `(?:${translate(node.body)})`;
    case 'repeat': {
      const { min, max } = node;
      const count =
        max === Infinity
          ? min === 0
            ? '*'
            : min === 1
              ? '+'
              : `{${min},}`
          : min === max
            ? `{${min}}`
            : `{${min},${max}}`;
      return `${translateNode(node.body)}${min === 0 && max === 1 ? '?' : count}${node.lazy ? '?' : ''}`;
    }
    case 'unsupported':
      throw new Unsupported(node.what);
  }
}

/** The RE2 syntax for an ECMA-262 pattern (u flag), same meaning; throws Unsupported for syntax RE2 lacks. */
export function re2Source(pattern: string): string {
  new RegExp(pattern, 'u');
  return translate(new PatternParser(pattern).parse());
}

// ---- which patterns V8 may run: a bound on backtracking

/**
 * Work per character a pattern may cost V8 before RE2 is chosen instead: the alternatives a backtracking matcher
 * can try after each character, times the characters each may read (`^[a-z0-9-]+$`: 1; `^\d{4}-\d{2}$`: 7).
 */
const maxWorkPerCharacter = 256;
/** A bounded quantifier with a wider range than this counts as unbounded (`{0,1000}` behaves like `*`). */
const maxBoundedRange = 16;

interface Cost {
  /** How many independent unbounded choices (each up to n ways) a match may combine: 0 or 1 is linear. */
  degree: number;
  /** Ways to match apart from those: alternatives and bounded repeats, multiplied. */
  ways: number;
  /** Characters read apart from unbounded repeats. */
  width: number;
}

const hopeless: Cost = { degree: Infinity, ways: Infinity, width: Infinity };

function sequenceCost(sequence: Node[]): Cost {
  return sequence
    .map(nodeCost)
    .reduce((a, b) => ({ degree: a.degree + b.degree, ways: a.ways * b.ways, width: a.width + b.width }), {
      degree: 0,
      ways: 1,
      width: 0,
    });
}

function alternativesCost(alternatives: Node[][]): Cost {
  return alternatives
    .map(sequenceCost)
    .reduce(
      (a, b) => ({ degree: Math.max(a.degree, b.degree), ways: a.ways + b.ways, width: Math.max(a.width, b.width) }),
      { degree: 0, ways: 0, width: 0 },
    );
}

function nodeCost(node: Node): Cost {
  switch (node.kind) {
    case 'char':
      return { degree: 0, ways: 1, width: 1 };
    case 'assert':
      return { degree: 0, ways: 1, width: 0 };
    case 'group':
      return alternativesCost(node.body);
    case 'unsupported':
      return hopeless;
    case 'repeat': {
      const body = nodeCost(node.body);
      // A choice inside a loop multiplies at every turn: `(a|a)*`, `(a+)+`.
      if (body.degree > 0 || body.ways > 1) return hopeless;
      if (node.max - node.min > maxBoundedRange) return { degree: 1, ways: 1, width: body.width * node.min };
      return { degree: 0, ways: node.max - node.min + 1, width: body.width * node.max };
    }
  }
}

function anchoredAtStart(alternatives: Node[][]): boolean {
  return alternatives.every((sequence) => {
    const first = sequence[0];
    return (first?.kind === 'assert' && first.re2 === '^') || (first?.kind === 'group' && anchoredAtStart(first.body));
  });
}

/**
 * Whether backtracking stays linear: a match tries at most `ways` paths of `width` characters around at most one
 * unbounded repeat, and only from the start when there is one (`^`: every later start fails at once).
 */
function backtracksLinearly(tree: Node[][]): boolean {
  const { degree, ways, width } = alternativesCost(tree);
  const work = ways * Math.max(width, 1);
  if (degree === 0) return work <= (anchoredAtStart(tree) ? 100_000 : maxWorkPerCharacter);
  return degree === 1 && anchoredAtStart(tree) && work <= maxWorkPerCharacter;
}

// ---- compiling, once per pattern

function compileUncached(pattern: string): CompiledPattern {
  const toString = () => `/${pattern}/u`;
  let regExp: RegExp;
  try {
    regExp = new RegExp(pattern, 'u');
  } catch (error) {
    // Many real specs escape what the u flag does not let be escaped (`\:`, `\/` outside a class: DigitalOcean's,
    // AWS's). Without the flag such a pattern means what its author meant; it is matched so, by backtracking, and lint
    // says why. A pattern invalid even so is refused as before, with V8's message.
    let legacy: RegExp;
    try {
      legacy = new RegExp(pattern);
    } catch {
      throw error;
    }
    const reason = `syntax the u flag refuses (${(error as Error).message.replace(/^.*: /, '')}), matched without the flag`;
    return { test: (value) => legacy.test(value), engine: 'backtracking', reason, toString };
  }
  let tree: Node[][];
  try {
    tree = new PatternParser(pattern).parse();
  } catch (error) {
    return { test: (value) => regExp.test(value), engine: 'backtracking', reason: (error as Error).message, toString };
  }
  if (backtracksLinearly(tree)) return { test: (value) => regExp.test(value), engine: 'regexp', toString };
  try {
    const re2 = RE2JS().compile(translate(tree));
    return { test: (value) => re2.test(value), engine: 're2', toString };
  } catch (error) {
    const reason =
      error instanceof Unsupported
        ? error.message
        : `syntax RE2 refuses (${(error as Error).message.replace(/^error parsing regexp: /, '')})`;
    return { test: (value) => regExp.test(value), engine: 'backtracking', reason, toString };
  }
}

// Many schemas share a pattern, and every ajv instance compiles each schema's; the cache keeps the last 10k.
const compiled = new Map<string, CompiledPattern>();
const maxCached = 10_000;

/** The compiled pattern, shared by every schema and ajv instance; throws V8's SyntaxError for an invalid one. */
export function compilePattern(pattern: string): CompiledPattern {
  let found = compiled.get(pattern);
  if (!found) {
    found = compileUncached(pattern);
    if (compiled.size >= maxCached) compiled.delete(compiled.keys().next().value!);
    compiled.set(pattern, found);
  }
  return found;
}

/** ajv's `code.regExp`: every pattern ajv compiles comes here. ajv passes the `u` flag (unicodeRegExp). */
export const patternRegExp = Object.assign(
  (pattern: string, flags: string): CompiledPattern => {
    if (flags !== 'u') throw new Error(`patternRegExp: ajv asked for flags "${flags}", the engine knows "u"`);
    return compilePattern(pattern);
  },
  // Only ajv's standalone code generation would print this; contracts does not use it.
  { code: 'patternRegExp' },
);
