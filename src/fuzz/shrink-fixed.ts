// Shrinks a failing case from a fixed list (examples, boundaries, the negative phase's breaks): each long string in
// it is cut to the shortest prefix that still fails the same way, by bisection. Every candidate is re-judged and
// re-sent like any case, so a shrunk negative that became valid is never the one reported. (Random cases are
// shrunk by fast-check itself.)
import type { ApiTarget, CaseResult, Executor, FuzzFailure } from './executor.js';
import { isPlainObject, type FuzzCase } from './fuzz-case.js';

/** Strings shorter than this are left as they are: the gain is not worth the requests. */
const worthShrinking = 16;
const maxRequests = 40;

export async function shrinkFixed(
  executor: Executor,
  target: ApiTarget,
  original: CaseResult,
  failure: FuzzFailure,
): Promise<FuzzFailure> {
  let current = original.case;
  let best = failure;
  let requests = 0;
  for (const where of stringsIn(current)) {
    const full = read(current, where);
    let lo = 0;
    let hi = full.length;
    if (hi < worthShrinking) continue;
    while (hi - lo > 1 && requests < maxRequests && !executor.expired) {
      const mid = Math.floor((lo + hi) / 2);
      const candidate = write(current, where, full.slice(0, mid));
      requests++;
      const result = await executor.runCase(target, candidate);
      const same = result?.findings
        .map((finding) => executor.book.failureOf(target, candidate, result.sent, finding))
        .find((found) => found.key === failure.key);
      if (same) {
        hi = mid;
        best = { ...same, note: `${failure.note} (shrunk: ${where.join('/')} cut to ${mid} characters)` };
      } else {
        lo = mid;
      }
    }
    current = write(current, where, full.slice(0, hi));
  }
  return best;
}

type Where = (string | number)[];

function stringsIn(fuzzCase: FuzzCase): Where[] {
  const found: Where[] = [];
  const walk = (value: unknown, at: Where, depth: number) => {
    if (typeof value === 'string' && value.length >= worthShrinking) found.push(at);
    else if (depth < 6 && Array.isArray(value)) value.forEach((item, index) => walk(item, [...at, index], depth + 1));
    else if (depth < 6 && isPlainObject(value))
      for (const [key, item] of Object.entries(value)) walk(item, [...at, key], depth + 1);
  };
  walk(fuzzCase.request, [], 0);
  return found;
}

function read(fuzzCase: FuzzCase, where: Where): string {
  let node: unknown = fuzzCase.request;
  for (const key of where) node = (node as Record<string | number, unknown>)[key];
  return node as string;
}

function write(fuzzCase: FuzzCase, where: Where, value: string): FuzzCase {
  const copy = structuredClone(fuzzCase);
  let node: unknown = copy.request;
  for (const key of where.slice(0, -1)) node = (node as Record<string | number, unknown>)[key];
  (node as Record<string | number, unknown>)[where.at(-1)!] = value;
  return copy;
}
