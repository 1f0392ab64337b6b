// The documents whose shell blocks run as written and whose relative links must resolve: the README and every page
// of docs/, in a stable order (the README first; then docs/ by path).
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

/** Documents whose blocks run: README.md, then docs/**.md. */
export const runnableDocuments = ['README.md', ...pagesUnder('docs')];

/** Documents whose links are checked: the runnable ones and the repository's other top-level guides. */
export const linkedDocuments = [
  ...runnableDocuments,
  ...['ARCHITECTURE.md', 'CONTRIBUTING.md'].filter((file) => existsSync(path.join(root, file))),
];
