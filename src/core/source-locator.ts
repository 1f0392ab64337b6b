// Maps a JSON path inside a YAML (or JSON) document to its line and column, for messages a person can jump to.
import { isMap, isPair, isScalar, isSeq, type Document, type LineCounter, type Node } from 'yaml';

export type JsonPath = ReadonlyArray<string | number>;

export interface LineColumn {
  line: number;
  column: number;
}

export type Locate = (path: JsonPath) => LineColumn;

/**
 * The location of the deepest node of `path` that exists: the key when the last step names a map entry
 * (where a person looks for it), else the node itself.
 */
export function createLocator(doc: Document, lineCounter: LineCounter): Locate {
  return (path) => {
    let node: unknown = doc.contents;
    let offset = (doc.contents as Node | null)?.range?.[0] ?? 0;
    for (const step of path) {
      if (isMap(node)) {
        const pair = node.items.find(
          (item) => isPair(item) && isScalar(item.key) && String(item.key.value) === String(step),
        );
        if (!pair) break;
        offset = (pair.key as Node).range?.[0] ?? offset;
        node = pair.value;
      } else if (isSeq(node)) {
        const item = node.items[Number(step)];
        if (item === undefined) break;
        offset = (item as Node).range?.[0] ?? offset;
        node = item;
      } else {
        break;
      }
    }
    const pos = lineCounter.linePos(offset);
    return { line: pos.line, column: pos.col };
  };
}

/** RFC 6901 JSON pointer (`/paths/~1a/get`) → path segments. */
export function pointerToPath(pointer: string): string[] {
  const body = pointer.startsWith('#') ? pointer.slice(1) : pointer;
  if (body === '' || body === '/') return body === '/' ? [''] : [];
  return body
    .slice(1)
    .split('/')
    .map((segment) => decodeURIComponent(segment).replace(/~1/g, '/').replace(/~0/g, '~'));
}

export function pathToPointer(path: JsonPath): string {
  return path.map((segment) => '/' + String(segment).replace(/~/g, '~0').replace(/\//g, '~1')).join('');
}

/** The value at a local JSON pointer (`#/components/schemas/X`), or undefined. Own properties only: `#/constructor`
 * names nothing. */
export function resolvePointer(root: unknown, pointer: string): unknown {
  let node: unknown = root;
  for (const segment of pointerToPath(pointer)) {
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, segment)) return undefined;
    node = (node as Record<string, unknown>)[segment];
  }
  return node;
}
