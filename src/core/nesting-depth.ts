// How deeply a document nests: objects and arrays, and local `$ref`s followed (a chain of schemas each referring to
// the next nests as deeply as one written inline). Lint, validate, diff, fuzz and generate walk schemas recursively
// (ajv's compiler, Spectral, our normalizers): `allOf` nested 400 levels in a 5 KB file ended lint in "Maximum call
// stack size exceeded". One check at load time, by an iterative walk, refuses such a document in one line first.
import { ContractsError } from './errors.js';
import { pathToPointer, pointerToPath, resolvePointer, type JsonPath, type LineColumn } from './source-locator.js';

/**
 * The deepest nesting any command accepts. GitHub's description, one of the deepest real ones, nests 41 levels with
 * its `$ref`s followed; 256 leaves room for any real spec and stays within every recursive walk's stack.
 */
export const maxNestingDepth = 256;

type Node = object;
type Pointed = { target?: Node; at?: JsonPath };

interface Frame {
  node: Node;
  /** The segment that led here, or the path a `$ref` named. */
  step: string | number | JsonPath;
  keys: string[];
  index: number;
  /** Whether the node's own `$ref` (when it has one) was followed already. */
  refDone: boolean;
  height: number;
  /** Set when the node is a `$ref`'s target: its height is kept, and a `$ref` back to it while here is not followed. */
  target: boolean;
}

/**
 * Where a walk from the root first goes deeper than `limit` levels, or undefined when the document stays within. An
 * iterative depth-first walk; the height of each `$ref`'s target is kept, so each is walked once (unless a walk
 * through it goes too deep, which ends the walk). A `$ref` back to a target still on the walk (a recursive schema)
 * is not followed: recursion is the schema's meaning, and every walk that follows `$ref`s stops at it. Heights are
 * kept for targets only, not for every node: GitHub's 13 MB description takes some 40 ms.
 */
export function tooDeepAt(root: unknown, limit = maxNestingDepth): JsonPath | undefined {
  if (root === null || typeof root !== 'object') return undefined;
  const heights = new Map<Node, number>();
  const targetsOnPath = new Set<Node>();
  const pointers = new Map<string, Pointed>();
  const stack: Frame[] = [];
  const enter = (node: Node, step: Frame['step'], target: boolean): JsonPath | undefined => {
    stack.push({ node, step, keys: Object.keys(node), index: 0, refDone: false, height: 0, target });
    if (target) targetsOnPath.add(node);
    return stack.length > limit ? pathOf(stack) : undefined;
  };
  let tooDeep = enter(root, [], false);
  while (tooDeep === undefined && stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    if (frame.index < frame.keys.length) {
      const key = frame.keys[frame.index++]!;
      const child = (frame.node as Record<string, unknown>)[key];
      if (child !== null && typeof child === 'object')
        tooDeep = enter(child, Array.isArray(frame.node) ? Number(key) : key, false);
      continue;
    }
    if (!frame.refDone) {
      frame.refDone = true;
      const pointed = refTarget(root, frame.node, pointers);
      if (pointed === undefined || targetsOnPath.has(pointed.target!)) continue;
      const known = heights.get(pointed.target!);
      if (known !== undefined && stack.length + known <= limit) frame.height = Math.max(frame.height, known);
      else tooDeep = enter(pointed.target!, pointed.at!, true);
      continue;
    }
    stack.pop();
    const height = frame.height + 1;
    if (frame.target) {
      heights.set(frame.node, height);
      targetsOnPath.delete(frame.node);
    }
    const parent = stack[stack.length - 1];
    if (parent !== undefined) parent.height = Math.max(parent.height, height);
  }
  return tooDeep;
}

/** What a node's local `$ref` names (an object or an array), with its path; undefined when there is none. */
function refTarget(root: unknown, node: Node, pointers: Map<string, Pointed>): Pointed | undefined {
  const ref = (node as { $ref?: unknown }).$ref;
  if (Array.isArray(node) || typeof ref !== 'string' || !ref.startsWith('#')) return undefined;
  let known = pointers.get(ref);
  if (known === undefined) pointers.set(ref, (known = targetOf(root, ref)));
  return known.target === undefined ? undefined : known;
}

function pathOf(stack: Frame[]): JsonPath {
  let at: JsonPath = [];
  for (const frame of stack) at = Array.isArray(frame.step) ? (frame.step as JsonPath) : [...at, frame.step as string];
  return at;
}

/** What a local `$ref` names, when it names an object or an array, and its path. */
function targetOf(root: unknown, ref: string): Pointed {
  try {
    const target = resolvePointer(root, ref);
    return target !== null && typeof target === 'object' ? { target, at: pointerToPath(ref) } : {};
  } catch {
    return {}; // a malformed escape (`#/%zz`): checkRefs says so after this check
  }
}

/** A pointer shown in a message: its first segments and its last, never thousands of them. */
export function shortPointer(at: JsonPath): string {
  const shown = at.length <= 8 ? at : [...at.slice(0, 5), '…', ...at.slice(-2)];
  return `#${pathToPointer(shown)}`;
}

/** Refuses a document nested deeper than maxNestingDepth, in one line at the place it goes too deep. */
export function refuseTooDeep(file: string, document: unknown, locate: (at: JsonPath) => LineColumn): void {
  const at = tooDeepAt(document);
  if (at === undefined) return;
  throw new ContractsError(
    'SPEC_SCHEMA_INVALID',
    `nesting deeper than ${maxNestingDepth} levels (objects and arrays, $refs followed) at ${shortPointer(at)}: ` +
      'no command reads a spec this deep',
    { file, ...locate(at) },
  );
}
