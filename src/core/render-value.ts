// A value from a response as a person reads it in a finding: JSON, cut to a budget. The walk stops when the budget
// is spent, so rendering costs at most the budget whatever the size of the value (a 10 MB body stays cheap).
import { pointerToPath } from './source-locator.js';

/** The value at a JSON pointer inside `root`, or undefined when the path leads nowhere. */
export function valueAtPointer(root: unknown, pointer: string): unknown {
  let node = root;
  for (const key of pointerToPath(pointer)) {
    if (node === null || typeof node !== 'object') return undefined;
    if (!Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/**
 * A field whose name says it holds a credential (a webhook's `secret`, a `token`, a `password`, an API `key`, a
 * `signature`): its value is never echoed in a finding, since a response that leaks one must not leak it again
 * into our reports (the run's own secrets are redacted anyway; a capture's are unknown to us).
 */
export function isSensitiveName(name: string): boolean {
  return /secret|token|passw|pwd|credential|signature|authori[sz]|api[-_]?key|^key$|private/i.test(name);
}

export const hiddenValue = '[hidden: a credential field]';

/** JSON text of `value`, at most about `budget` characters, ending in `…` when cut; credential fields hidden. */
export function renderValue(value: unknown, budget = 80): string {
  const parts: string[] = [];
  let left = budget;
  const push = (text: string) => {
    parts.push(text.length > left ? text.slice(0, Math.max(0, left)) : text);
    left -= text.length;
  };
  const walk = (node: unknown): void => {
    if (left <= 0) return;
    if (node === null || typeof node !== 'object') {
      push(
        node === undefined
          ? 'undefined'
          : JSON.stringify(typeof node === 'string' && node.length > left ? node.slice(0, left + 1) : node),
      );
      return;
    }
    if (Array.isArray(node)) {
      push('[');
      for (let index = 0; index < node.length && left > 0; index++) {
        if (index > 0) push(',');
        walk(node[index]);
      }
      push(']');
      return;
    }
    push('{');
    let first = true;
    for (const key in node) {
      if (left <= 0) break;
      if (!first) push(',');
      first = false;
      push(`${JSON.stringify(key.length > left ? key.slice(0, left + 1) : key)}:`);
      if (isSensitiveName(key)) push(JSON.stringify(hiddenValue));
      else walk((node as Record<string, unknown>)[key]);
    }
    push('}');
  };
  walk(value);
  const text = parts.join('');
  return left < 0 ? `${text}…` : text;
}
