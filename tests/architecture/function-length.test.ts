// Functions a maintainer can hold in their head: none in src/ over 120 lines (generated code aside), counted from the
// TypeScript syntax tree (function declarations, methods, constructors, accessors, function expressions, arrows).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { root } from '../helpers/paths.js';

const maxLines = 120;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return sourceFiles(file);
    return name.endsWith('.ts') && !name.includes('.generated.') ? [file] : [];
  });
}

/** Every function of a source text longer than `most` lines, as `name: lines`. */
function longFunctions(file: string, text: string, most: number): { name: string; lines: number }[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: { name: string; lines: number }[] = [];
  const visit = (node: ts.Node): void => {
    if (
      ts.isFunctionDeclaration(node) ||
      ts.isMethodDeclaration(node) ||
      ts.isConstructorDeclaration(node) ||
      ts.isGetAccessorDeclaration(node) ||
      ts.isSetAccessorDeclaration(node) ||
      ts.isFunctionExpression(node) ||
      ts.isArrowFunction(node)
    ) {
      const lines =
        source.getLineAndCharacterOfPosition(node.getEnd()).line -
        source.getLineAndCharacterOfPosition(node.getStart()).line +
        1;
      if (lines > most) found.push({ name: nameOf(node), lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function nameOf(node: ts.Node): string {
  const named = (node as { name?: ts.Node }).name;
  if (named) return named.getText();
  const parent = node.parent;
  if (
    parent &&
    (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent))
  )
    return parent.name.getText();
  return '(anonymous)';
}

describe('functions in src/', () => {
  it(`are at most ${maxLines} lines`, () => {
    const over: string[] = [];
    for (const file of sourceFiles(path.join(root, 'src'))) {
      const relative = path.relative(root, file);
      for (const { name, lines } of longFunctions(file, readFileSync(file, 'utf8'), maxLines)) {
        over.push(`${relative} ${name}: ${lines} lines`);
      }
    }
    expect(over).toEqual([]);
  });

  it('counts what the bound is about (the check above can fail)', () => {
    const body = Array.from({ length: 121 }, (_, index) => `  const v${index} = ${index};`).join('\n');
    const text = `function long() {\n${body}\n}\nconst short = () => 1;\nclass C {\n  m() {\n${body}\n  }\n}\n`;
    expect(longFunctions('x.ts', text, maxLines)).toEqual([
      { name: 'long', lines: 123 },
      { name: 'm', lines: 123 },
    ]);
  });
});
