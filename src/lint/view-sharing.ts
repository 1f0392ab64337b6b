// Which schemas a direction view (core/read-write-views.ts) leaves as they are, so lint judges their examples with the
// spec's own validators instead of compiling the view's. A view is the document with some `required` lists changed
// (the objects on the way to them copied, everything else shared); a schema whose every part, and every schema it
// reaches through `$ref`, is outside those changes compiles in the view exactly as in the spec, and accepts and
// refuses the same values with the same errors. On GitHub's description that is all but a few of its 2,802 example
// schemas: lint compiled both views for them (5 s of its 30 s CPU) to get the answers it already had.
import { resolvePointer } from '../core/load-spec.js';
import type { JsonPath } from '../core/source-locator.js';

type Node = Record<string, unknown> | unknown[];

const isNode = (value: unknown): value is Node => value !== null && typeof value === 'object';

/**
 * A test of a schema path: true when the schema at that path in `base` reaches no part `view` changed, through its
 * own content or any `$ref` (followed to any depth). Anything the walk cannot follow exactly (a `$ref` that is not a
 * local JSON pointer, or names nothing; `$id`, which moves the base `$ref`s resolve against (JSON Schema 2020-12
 * section 8.2.1); `$dynamicRef`, resolved at run time) counts as changed, so the answer errs towards compiling.
 */
export function sharedWithView(base: object, view: object): (schemaPath: JsonPath) => boolean {
  if (base === view) return () => true;
  const changed = new Set<Node>();
  collectChanged(base as Node, view as Node, changed);
  // What each node is reached from: the node holding it, and every node whose `$ref` names it.
  const reachedFrom = new Map<Node, Node[]>();
  const link = (target: Node, from: Node) => {
    const list = reachedFrom.get(target);
    if (list) list.push(from);
    else reachedFrom.set(target, [from]);
  };
  const stack: Node[] = [base as Node];
  const walked = new Set<Node>(stack);
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (!Array.isArray(node)) {
      if (Object.hasOwn(node, '$id') || Object.hasOwn(node, '$dynamicRef') || Object.hasOwn(node, '$recursiveRef'))
        return () => false;
      const ref = node.$ref;
      if (typeof ref === 'string') {
        const target = ref.startsWith('#') ? resolvePointer(base, ref) : undefined;
        if (isNode(target)) link(target, node);
        else changed.add(node);
      }
    }
    for (const child of Object.values(node)) {
      if (!isNode(child)) continue;
      // A node met again (a value the loader shares) is walked once.
      if (!walked.has(child)) {
        walked.add(child);
        stack.push(child);
      }
      link(child, node);
    }
  }
  // Everything that reaches a changed node, by containment or `$ref`.
  const touched = new Set<Node>(changed);
  const queue = [...changed];
  while (queue.length > 0) {
    for (const from of reachedFrom.get(queue.pop()!) ?? [])
      if (!touched.has(from)) {
        touched.add(from);
        queue.push(from);
      }
  }
  return (schemaPath) => {
    let node: unknown = base;
    for (const step of schemaPath) {
      if (!isNode(node) || !Object.hasOwn(node, step)) return false;
      node = (node as Record<string, unknown>)[step];
    }
    return isNode(node) && !touched.has(node);
  };
}

/** The nodes of `base` whose own entries differ in `view` (a view copies the nodes on the way to each change). */
function collectChanged(base: Node, view: Node, changed: Set<Node>): void {
  const keys = new Set([...Object.keys(base), ...Object.keys(view)]);
  for (const key of keys) {
    const before = (base as Record<string, unknown>)[key];
    const after = (view as Record<string, unknown>)[key];
    if (before === after && Object.hasOwn(base, key) === Object.hasOwn(view, key)) continue;
    if (isNode(before) && isNode(after) && Array.isArray(before) === Array.isArray(after))
      collectChanged(before, after, changed);
    else changed.add(base);
  }
}
