// Finds an object key that appears twice in JSON text (RFC 8259 section 4: names SHOULD be unique; JSON.parse
// silently keeps the last, so a duplicate hides data). One pass; strings are skipped with indexOf.

export interface DuplicateKey {
  /** JSON pointer of the object that holds the key twice. */
  path: string;
  key: string;
}

const QUOTE = 34;
const BACKSLASH = 92;

/** The first duplicate key in `text` (valid JSON), or undefined. */
export function findDuplicateKey(text: string): DuplicateKey | undefined {
  // Per open container: the keys seen (objects) or the next index (arrays), and the key or index it sits under.
  const seen: (Set<string> | null)[] = [];
  const position: string[] = [];
  const nextIndex: number[] = [];
  let pendingKey: string | undefined;
  let i = 0;
  const length = text.length;
  while (i < length) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = stringEnd(text, i);
      const top = seen.length - 1;
      const keys = seen[top];
      if (keys && isKey(text, end + 1)) {
        const key = text.slice(i + 1, end);
        if (keys.has(key)) return { path: pointer(position), key };
        keys.add(key);
        pendingKey = key;
      }
      i = end + 1;
      continue;
    }
    if (c === 123 || c === 91) {
      // { or [: remember where this container sits in its parent.
      const top = seen.length - 1;
      if (top >= 0) position.push(seen[top] ? (pendingKey ?? '') : String(nextIndex[top]!));
      seen.push(c === 123 ? new Set() : null);
      nextIndex.push(0);
      pendingKey = undefined;
    } else if (c === 125 || c === 93) {
      seen.pop();
      nextIndex.pop();
      position.pop();
    } else if (c === 44) {
      // ,: the next element of an array.
      const top = nextIndex.length - 1;
      if (top >= 0 && !seen[top]) nextIndex[top]!++;
    }
    i++;
  }
  return undefined;
}

function stringEnd(text: string, start: number): number {
  let end = text.indexOf('"', start + 1);
  while (end > 0) {
    let backslashes = 0;
    for (let j = end - 1; text.charCodeAt(j) === BACKSLASH; j--) backslashes++;
    if (backslashes % 2 === 0) return end;
    end = text.indexOf('"', end + 1);
  }
  return text.length;
}

function isKey(text: string, from: number): boolean {
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 58) return true;
    if (c !== 32 && c !== 10 && c !== 13 && c !== 9) return false;
  }
  return false;
}

function pointer(path: readonly string[]): string {
  return path.map((segment) => '/' + segment.replace(/~/g, '~0').replace(/\//g, '~1')).join('');
}
