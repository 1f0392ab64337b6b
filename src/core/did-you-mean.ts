// "Did you mean …?" for a misspelt command, option, API or lint rule name: the closest known name by edit distance.

/**
 * Optimal string alignment distance (Levenshtein plus the swap of two adjacent characters, each costing 1):
 * `chek` → `check` is 1, `fromat` → `format` is 1. O(a × b) time, two rows of memory.
 */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  let before = new Array<number>(b.length + 1).fill(0);
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, before[j - 2]! + 1);
      current.push(best);
    }
    before = previous;
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * The known name closest to `input`, when it is close enough to be a slip: at most a third of the longer name's
 * length (at least 1), so `chek` finds `check` while `x` does not find `mock`. Ties go to the first candidate.
 */
export function closestName(input: string, candidates: readonly string[]): string | undefined {
  // Long inputs (a pasted value) are not slips, and the distance is quadratic: compare only plausible lengths.
  let best: { name: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const limit = Math.max(1, Math.floor(Math.max(candidate.length, input.length) / 3));
    if (Math.abs(candidate.length - input.length) > limit) continue;
    const distance = editDistance(input.toLowerCase(), candidate.toLowerCase());
    if (distance <= limit && (best === undefined || distance < best.distance)) best = { name: candidate, distance };
  }
  return best?.name;
}

/** ` Did you mean "check"?`, or '' when nothing is close. */
export function didYouMean(
  input: string,
  candidates: readonly string[],
  show: (name: string) => string = (name) => `"${name}"`,
): string {
  const name = closestName(input, candidates);
  return name === undefined ? '' : ` Did you mean ${show(name)}?`;
}
