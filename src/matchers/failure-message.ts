// The matchers' failure messages: each finding on its own lines with where (JSON pointer), what was there and what
// the spec expects, bounded however large the body or the list of findings.
import { resolvePointer } from '../core/load-spec.js';

export interface MessageItem {
  /** The check, for contract findings; absent for schema errors. */
  check?: string;
  instancePath: string;
  message: string;
  /** What was there; undefined entries are read from the body at instancePath. */
  actual?: unknown;
  expected?: unknown;
  schemaPath?: string;
  severity?: 'error' | 'warning';
}

/** Findings listed in a message; the rest are counted. */
export const maxListed = 20;
const maxValueChars = 200;

export function findingLines(items: readonly MessageItem[], body: unknown): string[] {
  const lines: string[] = [];
  for (const item of items.slice(0, maxListed)) {
    const where = item.instancePath === '' ? '' : ` at ${item.instancePath}`;
    const label = `${item.severity === 'warning' ? 'warning: ' : ''}${item.check ?? 'schema'}${where}`;
    lines.push(`  - ${label}: ${item.message}`);
    const actual = item.actual !== undefined ? show(item.actual) : actualAt(body, item.instancePath);
    if (actual !== undefined) lines.push(`      actual:   ${actual}`);
    const expected =
      item.expected !== undefined
        ? show(item.expected)
        : item.schemaPath !== undefined
          ? constraintOf(item)
          : undefined;
    if (expected !== undefined) lines.push(`      expected: ${expected}`);
  }
  if (items.length > maxListed) lines.push(`  … and ${items.length - maxListed} more`);
  return lines;
}

/** What a schema error asks for: the "must …" part of its message, else the schema keyword it broke. */
function constraintOf(item: MessageItem): string {
  const must = /\bmust .*$/.exec(item.message);
  if (must) return must[0];
  return `what the schema's ${item.schemaPath?.split('/').pop() ?? 'keyword'} allows`;
}

function actualAt(body: unknown, pointer: string): string | undefined {
  if (body === undefined) return undefined;
  let value: unknown;
  try {
    value = resolvePointer(body, pointer);
  } catch {
    // A key with a stray % is not URI-decodable: say nothing rather than something wrong.
    return undefined;
  }
  return value === undefined ? '(absent)' : show(value);
}

/** A value as one short line of JSON. */
export function show(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  text = text.replace(/[\r\n]+/g, ' ');
  return text.length > maxValueChars ? `${text.slice(0, maxValueChars)}… (${text.length} characters)` : text;
}
