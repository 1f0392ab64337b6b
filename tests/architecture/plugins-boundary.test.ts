// The plug-in seam (#45): the generic engine knows no API by name. No file of src/ outside src/plugins/ names one of
// our example APIs (client-session, repository-webhooks) or one of their operations, in code: string literals and
// identifiers (comments may cite them as examples). What the examples need, their plug-ins add through
// src/plugins/registry.ts. The shipped specs and config name them, as data.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { root } from '../helpers/paths.js';

const exampleApis = ['client-session', 'repository-webhooks'];

/**
 * Generic files that still name an example API, each with the reason. Every entry is work left for the seam: the
 * list only shrinks (the last test fails on an entry that no longer names one).
 */
const exceptions: Record<string, string> = {};

/** The operationIds (and webhook operationIds) of the example APIs' shipped specs. */
function exampleOperations(): string[] {
  const ids = exampleApis.flatMap((api) =>
    [...readFileSync(path.join(root, 'specs', `${api}.yaml`), 'utf8').matchAll(/^\s*operationId:\s*(\w+)\s*$/gm)].map(
      (match) => match[1]!,
    ),
  );
  return [...new Set(ids)].sort();
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return sourceFiles(file);
    return /\.(ts|mts|cts)$/.test(name) ? [file] : [];
  });
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The example names a source text uses in code (not in comments), each once, in order of first use. */
function namesUsed(text: string, operations: readonly string[]): string[] {
  const inString = [
    ...exampleApis.map((api) => ({ name: api, pattern: new RegExp(`(?<![\\w-])${escape(api)}(?![\\w-])`) })),
    ...operations.map((id) => ({ name: id, pattern: new RegExp(`\\b${escape(id)}\\b`) })),
  ];
  const found = new Set<string>();
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) {
      for (const { name, pattern } of inString) if (pattern.test(node.text)) found.add(name);
    } else if (ts.isIdentifier(node) || ts.isPrivateIdentifier(node)) {
      const text = node.text.replace(/^#/, '');
      if (operations.includes(text)) found.add(text);
    }
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile('file.ts', text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS));
  return [...found];
}

function offenders(): Record<string, string[]> {
  const operations = exampleOperations();
  const src = path.join(root, 'src');
  const result: Record<string, string[]> = {};
  for (const file of sourceFiles(src)) {
    const relative = path.relative(src, file).split(path.sep).join('/');
    if (relative.startsWith('plugins/')) continue;
    const names = namesUsed(readFileSync(file, 'utf8'), operations);
    if (names.length > 0) result[relative] = names;
  }
  return result;
}

describe('the plug-in boundary', () => {
  it('reads the example operations from the shipped specs', () => {
    expect(exampleOperations()).toEqual(expect.arrayContaining(['createWebhook', 'retrieveClientSession']));
  });

  it('sees names in strings, templates and identifiers, not in comments', () => {
    const text = [
      "// createWebhook in a comment, and client-session's token",
      '/** repository-webhooks in a doc comment */',
      "const a = 'specs/client-session.yaml';",
      'const b = `${a} listWebhooks`;',
      'function retrieveClientSession() {}',
      "const c = 'createWebhooks client-sessions';",
    ].join('\n');
    expect(namesUsed(text, ['createWebhook', 'listWebhooks', 'retrieveClientSession'])).toEqual([
      'client-session',
      'listWebhooks',
      'retrieveClientSession',
    ]);
  });

  it('keeps every generic file of src/ free of the example APIs and their operations', () => {
    const unlisted = Object.fromEntries(Object.entries(offenders()).filter(([file]) => !(file in exceptions)));
    expect(unlisted).toEqual({});
  });

  it('lists as exceptions only files that still name one', () => {
    const names = offenders();
    expect(Object.keys(exceptions).filter((file) => !(file in names))).toEqual([]);
  });
});
