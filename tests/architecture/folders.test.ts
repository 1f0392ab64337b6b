// The tree ARCHITECTURE.md describes: no folder of src/ imports a folder that imports it back, through any chain
// (type-only imports count: a cycle of types is a cycle of meaning), and every folder of src/ is described there.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { root } from '../helpers/paths.js';

const src = path.join(root, 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return sourceFiles(file);
    return /\.(ts|mts|cts)$/.test(name) ? [file] : [];
  });
}

/** The folder of src/ a file is in ('.' for src/ itself). */
const folderOf = (file: string) => {
  const parts = path.relative(src, file).split(path.sep);
  return parts.length === 1 ? '.' : parts[0]!;
};

/**
 * Generic files that still import a plug-in of src/plugins/ directly, each until it asks the plug-in registry instead
 * (#45). Plug-ins import the engines; the engines must not import them back, so these edges are left out of the graph
 * only while they are listed here.
 */
const pluginImportsPending: Record<string, string> = {};

/** folder → the folders it imports, each with one import that makes the edge. */
function folderGraph(): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>();
  for (const file of sourceFiles(src)) {
    const from = folderOf(file);
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/(?:\bfrom|\bimport\s*\(|^\s*import)\s*['"](\.{1,2}\/[^'"]+)['"]/gm)) {
      const to = folderOf(path.resolve(path.dirname(file), match[1]!));
      if (to === from) continue;
      if (to === 'plugins' && path.relative(src, file) in pluginImportsPending) continue;
      if (!graph.has(from)) graph.set(from, new Map());
      if (!graph.get(from)!.has(to)) graph.get(from)!.set(to, `${path.relative(src, file)} imports ${match[1]}`);
    }
  }
  return graph;
}

/** A cycle of folders, as the imports that make it, or undefined. */
function findCycle(graph: Map<string, Map<string, string>>): string[] | undefined {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string): string[] | undefined => {
    state.set(node, 'open');
    stack.push(node);
    for (const next of graph.get(node)?.keys() ?? []) {
      if (state.get(next) === 'open') {
        const loop = [...stack.slice(stack.indexOf(next)), next];
        return loop.slice(1).map((to, index) => graph.get(loop[index]!)!.get(to)!);
      }
      if (!state.has(next)) {
        const found = visit(next);
        if (found) return found;
      }
    }
    stack.pop();
    state.set(node, 'done');
    return undefined;
  };
  for (const node of graph.keys()) {
    if (state.has(node)) continue;
    const found = visit(node);
    if (found) return found;
  }
  return undefined;
}

describe('the folders of src/', () => {
  it('import each other without a cycle', () => {
    expect(findCycle(folderGraph())).toBeUndefined();
  });

  it('finds a cycle where there is one (the check above can fail)', () => {
    const graph = new Map([
      ['a', new Map([['b', 'a/x.ts imports ../b/y.js']])],
      ['b', new Map([['c', 'b/y.ts imports ../c/z.js']])],
      ['c', new Map([['a', 'c/z.ts imports ../a/x.js']])],
    ]);
    expect(findCycle(graph)).toEqual([
      'a/x.ts imports ../b/y.js',
      'b/y.ts imports ../c/z.js',
      'c/z.ts imports ../a/x.js',
    ]);
    expect(findCycle(new Map([['a', new Map([['b', 'a imports b']])]]))).toBeUndefined();
  });

  it('are each described in ARCHITECTURE.md', () => {
    const architecture = readFileSync(path.join(root, 'ARCHITECTURE.md'), 'utf8');
    const folders = readdirSync(src).filter((name) => statSync(path.join(src, name)).isDirectory());
    for (const folder of folders) expect(architecture, folder).toMatch(new RegExp(`^src/${folder}/ `, 'm'));
  });
});

describe('the list of the core exchange checks', () => {
  it('is the registry of src/core/checks/, in one place that plan, fuzz and the reproduction scripts share', async () => {
    const { exchangeChecks } = await import('../../src/core/checks/index.js');
    const { exchangeCheckNames } = await import('../../src/core/finding.js');
    expect([...exchangeCheckNames].sort()).toEqual(exchangeChecks.map((check) => check.name).sort());
  });
});
