// No dead relative link in the README, the pages of docs/, ARCHITECTURE.md or CONTRIBUTING.md: each points at a
// file or folder of the repository, and an anchor at a heading of its page.
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { root } from '../helpers/paths.js';
import { linkedDocuments } from './documents.js';
import { anchorsOf, isExternal, linksOf } from './markdown-links.js';

describe('reading links and anchors', () => {
  it('finds inline, image and reference links outside code, and none inside it', () => {
    const markdown = [
      'See [the guide](docs/a.md#setup) and ![logo](img/x.png "Logo").',
      '`[not](a-link.md)` and',
      '```sh',
      'echo [no](link.md)',
      '```',
      '[ref]: docs/b.md',
    ].join('\n');
    expect(linksOf(markdown)).toEqual([
      { line: 1, target: 'docs/a.md#setup' },
      { line: 1, target: 'img/x.png' },
      { line: 6, target: 'docs/b.md' },
    ]);
  });

  it('makes anchors as GitHub does, repeated headings numbered', () => {
    const markdown = [
      '# contracts-kit',
      '## `contracts fuzz`: generated requests',
      '## What happens when…',
      '## Setup',
      '## Setup',
    ];
    expect([...anchorsOf(markdown.join('\n'))]).toEqual([
      'contracts-kit',
      'contracts-fuzz-generated-requests',
      'what-happens-when',
      'setup',
      'setup-1',
    ]);
  });

  it('tells external links from relative ones', () => {
    expect(['https://x.example', 'mailto:a@b.c', 'docs/a.md', '#top', '../b.md'].map(isExternal)).toEqual([
      true,
      true,
      false,
      false,
      false,
    ]);
  });
});

describe.each(linkedDocuments)('the links of %s', (file) => {
  it('each points at a file of the repository, and an anchor at a heading of that page', () => {
    const markdown = readFileSync(path.join(root, file), 'utf8');
    const dead: string[] = [];
    for (const { line, target } of linksOf(markdown)) {
      if (isExternal(target)) continue;
      const [pathPart = '', anchor] = target.split('#', 2);
      const resolved =
        pathPart === ''
          ? path.join(root, file)
          : path.resolve(path.dirname(path.join(root, file)), decodeURI(pathPart));
      if (!resolved.startsWith(root + path.sep) || !existsSync(resolved)) {
        dead.push(`${file}:${line}: ${target} (no such file)`);
        continue;
      }
      if (anchor === undefined || !resolved.endsWith('.md') || statSync(resolved).isDirectory()) continue;
      if (!anchorsOf(readFileSync(resolved, 'utf8')).has(anchor))
        dead.push(`${file}:${line}: ${target} (no such heading)`);
    }
    expect(dead).toEqual([]);
  });
});
