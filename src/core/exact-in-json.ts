// Which values JSON writes and reads back unchanged (RFC 8259's values only): what the parse cache may keep, and
// what compile-key.ts may key a schema by. No file system here (the browser's contracts-kit/msw compiles schemas).

/** Whether JSON.parse(JSON.stringify(value)) gives back value exactly (a tree of JSON's own kinds of value). */
export function exactInJson(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (item === null || typeof item === 'string' || typeof item === 'boolean') continue;
    if (typeof item === 'number') {
      if (!Number.isFinite(item) || Object.is(item, -0)) return false;
      continue;
    }
    if (Array.isArray(item)) {
      for (let i = 0; i < item.length; i++) {
        if (!(i in item)) return false;
        stack.push(item[i]);
      }
      continue;
    }
    if (typeof item !== 'object' || Object.getPrototypeOf(item) !== Object.prototype) return false;
    if (Object.hasOwn(item, '__proto__')) return false;
    for (const child of Object.values(item)) stack.push(child);
  }
  return true;
}
