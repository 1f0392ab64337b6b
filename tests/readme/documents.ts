// The documents whose shell blocks run as written and whose relative links must resolve: the README, every page of
// docs/ and CONTRIBUTING.md, in a stable order (the README first; then docs/ by path).
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { root } from '../helpers/paths.js';

function pagesUnder(dir: string): string[] {
  if (!existsSync(path.join(root, dir))) return [];
  return readdirSync(path.join(root, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.md'))
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .sort();
}

const present = (files: string[]) => files.filter((file) => existsSync(path.join(root, file)));

/** Documents whose blocks run: README.md, docs/**.md, then CONTRIBUTING.md. */
export const runnableDocuments = ['README.md', ...pagesUnder('docs'), ...present(['CONTRIBUTING.md'])];

/** Documents whose links are checked: the runnable ones and ARCHITECTURE.md. */
export const linkedDocuments = [...runnableDocuments, ...present(['ARCHITECTURE.md'])];
