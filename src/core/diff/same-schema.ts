// Whether two schemas, each in its own document, are the same: equal JSON, a local `$ref` on both sides compared
// by what it names. A spec diffed against itself is "no change" before any budget is spent: Discord's description
// against itself gave an undecided warning where a composition has more than 64 combinations (schema-branches.ts).
import { resolvePointer } from '../source-locator.js';

type Trail = Map<object, Set<object>>;

/** Pairs found equal by a comparison that held: schemas shared by many operations are compared once. */
const known = new WeakMap<object, WeakSet<object>>();

/**
 * Same meaning, by structure: any difference at all (a description; key order aside) says no. A pair under
 * comparison is taken as equal when met again (a recursive schema): sound once the whole comparison holds, so only
 * then are its pairs kept.
 */
export function sameSchema(baseDoc: unknown, base: unknown, headDoc: unknown, head: unknown): boolean {
  const trail: Trail = new Map();
  if (!same(baseDoc, base, headDoc, head, trail)) return false;
  for (const [a, bs] of trail) {
    if (!known.has(a)) known.set(a, new WeakSet());
    for (const b of bs) known.get(a)!.add(b);
  }
  return true;
}

function same(baseDoc: unknown, a: unknown, headDoc: unknown, b: unknown, trail: Trail): boolean {
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return Object.is(a, b);
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (known.get(a)?.has(b) || trail.get(a)?.has(b)) return true;
  if (!trail.has(a)) trail.set(a, new Set());
  trail.get(a)!.add(b);
  const aKeys = Object.keys(a);
  const bKeys = Object.keys(b);
  if (aKeys.length !== bKeys.length) return false;
  for (const key of aKeys) {
    if (!Object.hasOwn(b, key)) return false;
    const x = (a as Record<string, unknown>)[key];
    const y = (b as Record<string, unknown>)[key];
    if (key === '$ref' && typeof x === 'string' && typeof y === 'string' && x.startsWith('#') && y.startsWith('#')) {
      if (!same(baseDoc, target(baseDoc, x), headDoc, target(headDoc, y), trail)) return false;
    } else if (!same(baseDoc, x, headDoc, y, trail)) return false;
  }
  return true;
}

function target(document: unknown, ref: string): unknown {
  try {
    return resolvePointer(document, ref);
  } catch {
    return undefined;
  }
}
