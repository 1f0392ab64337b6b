// What a value kept in memory costs, estimated from above: the receiver bounds what it keeps by this, not by the
// bytes that arrived, since a parsed payload can take twenty times its text (1 MB of `[{},{},…]` holds 250,000
// objects). The figures are V8's on 64-bit (an object's header and slots, an array's backing store, a heap number,
// a string's header and two bytes a character), rounded up.

const objectBytes = 64;
const propertyBytes = 48;
const arrayBytes = 64;
const elementBytes = 8;
const numberBytes = 16;
const stringBytes = 24;

/** The bytes `value` holds, estimated from above; the walk stops once past `limit` (the value is too big anyway). */
export function retainedSize(value: unknown, limit = Number.POSITIVE_INFINITY): number {
  let total = 0;
  // Iterative: a payload may nest a hundred thousand levels deep. Shared objects count once.
  const pending: unknown[] = [value];
  const seen = new Set<object>();
  while (pending.length > 0 && total <= limit) {
    const node = pending.pop();
    if (typeof node === 'string') total += stringBytes + 2 * node.length;
    else if (typeof node === 'number' || typeof node === 'bigint') total += numberBytes;
    else if (node === null || typeof node !== 'object' || seen.has(node)) total += elementBytes;
    else {
      seen.add(node);
      if (Array.isArray(node)) {
        total += arrayBytes + elementBytes * node.length;
        for (const item of node) pending.push(item);
      } else if (ArrayBuffer.isView(node)) total += objectBytes + node.byteLength;
      else {
        total += objectBytes;
        for (const key of Object.keys(node)) {
          total += propertyBytes + stringBytes + 2 * key.length;
          pending.push((node as Record<string, unknown>)[key]);
        }
      }
    }
  }
  return total;
}
