// Whether every string one pattern accepts is accepted by another: decided on finite automata with refa (the library
// eslint-plugin-regexp uses), so `^[a-z]+$` → `.+` is a widening, `^[a-z]+$` → `^[a-c]+$` a narrowing, and `.*` or
// `''` accept everything. A JSON Schema pattern is unanchored (it matches anywhere in the string), so each is read as
// `[\s\S]*(?:p)[\s\S]*` with its edge assertions applied. What refa cannot build (lookbehind, `\b`, backreferences,
// or an automaton past a size bound) is undecided, never a guess.
import { DFA, isDisjointWith, JS, NFA, Transformers, transform } from 'refa';

/** Most automaton states one pattern may take (each comparison is then bounded in time and memory). */
const maxStates = 10_000;

function language(pattern: string): NFA {
  let parsed: ReturnType<JS.Parser['parse']> | undefined;
  // JSON Schema patterns are ECMA-262 with the u flag; one that only parses without it is read without it.
  for (const flags of ['u', '']) {
    try {
      const parser = JS.Parser.fromLiteral({ source: `[\\s\\S]*(?:${pattern})[\\s\\S]*`, flags });
      parsed = parser.parse({ assertions: 'parse', simplify: true });
      break;
    } catch {}
  }
  if (!parsed) throw new Error(`cannot read the pattern ${pattern}`);
  const edges = Transformers.patternEdgeAssertions({ remove: true });
  const expression = transform(edges, transform(Transformers.applyAssertions(), transform(edges, parsed.expression)));
  return NFA.fromRegex(
    expression,
    { maxCharacter: parsed.maxCharacter },
    { assertions: 'throw', unknowns: 'throw' },
    new NFA.LimitedNodeFactory(maxStates),
  );
}

/**
 * Whether every string that matches all of `narrower` (none: any string) matches `wider`: true, false, or undefined
 * when that cannot be decided. True when one pattern of `narrower` alone is included (enough, though not needed).
 */
export function patternIncluded(narrower: readonly string[], wider: string): boolean | undefined {
  // The same two patterns meet at every place a shared schema is used: the automata are built once per pair.
  const key = JSON.stringify([narrower, wider]);
  if (verdicts.has(key)) return verdicts.get(key);
  if (verdicts.size > 10_000) verdicts.clear();
  const verdict = decide(narrower, wider);
  verdicts.set(key, verdict);
  return verdict;
}

const verdicts = new Map<string, boolean | undefined>();

function decide(narrower: readonly string[], wider: string): boolean | undefined {
  try {
    const outside = DFA.fromFA(language(wider), new DFA.LimitedNodeFactory(maxStates));
    outside.complement();
    const candidates = narrower.length > 0 ? narrower : [''];
    let undecided = false;
    for (const pattern of candidates) {
      try {
        if (isDisjointWith(language(pattern), outside, maxStates * 10)) return true;
      } catch {
        undecided = true;
      }
    }
    return undecided ? undefined : false;
  } catch {
    return undefined;
  }
}
