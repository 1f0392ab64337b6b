// PATCH bodies applied to a stored representation: RFC 7396 JSON Merge Patch (application/merge-patch+json, and a
// plain JSON object read the same way) and RFC 6902 JSON Patch (application/json-patch+json). A patch that cannot
// be applied gives a reason (RFC 5789 section 2.2: "unprocessable request"), never a half-applied value.

export type PatchResult = { value: unknown } | { error: string };

/** RFC 7396 section 2: null removes a member, an object merges, anything else replaces. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) return structuredClone(patch);
  const result: Record<string, unknown> =
    target !== null && typeof target === 'object' && !Array.isArray(target)
      ? { ...(target as Record<string, unknown>) }
      : {};
  for (const [name, value] of Object.entries(patch as Record<string, unknown>)) {
    if (value === null) delete result[name];
    else result[name] = mergePatch(result[name], value);
  }
  return result;
}

/** Operations applied at most (each bounded by the document's size). */
const maxOperations = 1000;

/** RFC 6902 section 4: the operations in order on a copy; the first that fails stops them all. */
export function jsonPatch(target: unknown, operations: unknown): PatchResult {
  if (!Array.isArray(operations)) return { error: 'a JSON Patch is an array of operations (RFC 6902 section 3)' };
  if (operations.length > maxOperations) return { error: `more than ${maxOperations} patch operations` };
  let document = structuredClone(target);
  for (const [index, raw] of operations.entries()) {
    const operation = raw as { op?: unknown; path?: unknown; from?: unknown; value?: unknown };
    if (operation === null || typeof operation !== 'object' || typeof operation.path !== 'string')
      return { error: `operation ${index} has no path` };
    const step = applyOne(document, operation as { op: unknown; path: string; from?: unknown; value?: unknown });
    if ('error' in step) return { error: `operation ${index} (${String(operation.op)}): ${step.error}` };
    document = step.value;
  }
  return { value: document };
}

function applyOne(document: unknown, operation: { op: unknown; path: string; from?: unknown; value?: unknown }) {
  const { op, path } = operation;
  switch (op) {
    case 'add':
      return put(document, path, structuredClone(operation.value), 'add');
    case 'replace':
      return get(document, path) === missing
        ? { error: `${path} is not there` }
        : put(document, path, structuredClone(operation.value), 'replace');
    case 'remove':
      return removeAt(document, path);
    case 'test':
      return JSON.stringify(get(document, path)) === JSON.stringify(operation.value)
        ? { value: document }
        : { error: `${path} is not the value tested` };
    case 'move':
    case 'copy': {
      if (typeof operation.from !== 'string') return { error: 'no from' };
      const found = get(document, operation.from);
      if (found === missing) return { error: `${operation.from} is not there` };
      const removed = op === 'move' ? removeAt(document, operation.from) : { value: document };
      if ('error' in removed) return removed;
      return put(removed.value, path, structuredClone(found), 'add');
    }
    default:
      return { error: 'unknown op' };
  }
}

const missing = Symbol('missing');

function tokens(path: string): string[] | undefined {
  if (path === '') return [];
  if (!path.startsWith('/')) return undefined;
  return path
    .slice(1)
    .split('/')
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function get(document: unknown, path: string): unknown {
  const parts = tokens(path);
  if (!parts) return missing;
  let node = document;
  for (const part of parts) {
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, part)) return missing;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

function parentOf(document: unknown, path: string): { parent: unknown; key: string } | undefined {
  const parts = tokens(path);
  if (!parts || parts.length === 0) return undefined;
  const key = parts.pop()!;
  const parent = get(
    document,
    parts.length === 0 ? '' : `/${parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`,
  );
  return parent === missing || parent === null || typeof parent !== 'object' ? undefined : { parent, key };
}

function put(document: unknown, path: string, value: unknown, how: 'add' | 'replace'): PatchResult {
  if (path === '') return { value };
  const found = parentOf(document, path);
  if (!found) return { error: `the parent of ${path} is not there` };
  const { parent, key } = found;
  if (Array.isArray(parent)) {
    const index = key === '-' ? parent.length : Number(key);
    if (!/^(0|[1-9]\d*|-)$/.test(key) || index > parent.length) return { error: `${path} is past the array's end` };
    if (how === 'add') parent.splice(index, 0, value);
    else parent[index] = value;
  } else (parent as Record<string, unknown>)[key] = value;
  return { value: document };
}

function removeAt(document: unknown, path: string): PatchResult {
  const found = parentOf(document, path);
  if (!found || get(document, path) === missing) return { error: `${path} is not there` };
  const { parent, key } = found;
  if (Array.isArray(parent)) parent.splice(Number(key), 1);
  else delete (parent as Record<string, unknown>)[key];
  return { value: document };
}
