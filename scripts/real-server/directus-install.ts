// Where the real server of the real-server lane lives: Directus (an open-source headless CMS: REST API on
// PostgreSQL, serving its own OpenAPI 3.0 description), installed with npm into a cache outside the repository on
// first use, at one pinned version, never a dependency of contracts-kit (as corpus-files.ts does for its corpus).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { RealServerUnavailable } from './postgres.js';

/**
 * 12.4.0, not 12.4.1: 12.4.1's @directus/api asks for an @directus/app the registry does not have. Directus asks for
 * Node 22; it runs on this machine's Node 20 (npm warns, EBADENGINE). pg: its PostgreSQL driver, pure JavaScript.
 */
export const directusPackages = ['directus@12.4.0', 'pg@8.16.3'];
export const defaultRealCache = path.join(os.homedir(), '.cache', 'contracts-real-server');
const installTimeoutMs = 20 * 60_000;

const installedVersion = (manifest: string) =>
  existsSync(manifest) ? (JSON.parse(readFileSync(manifest, 'utf8')) as { version?: string }).version : undefined;

/** The Directus CLI entry (run.js of @directus/api), installing the packages into `cache` first when missing. */
export function ensureDirectus(cache: string): string {
  const modules = path.join(cache, 'node_modules');
  const wanted = directusPackages.map((spec) => {
    const at = spec.lastIndexOf('@');
    return { name: spec.slice(0, at), version: spec.slice(at + 1) };
  });
  const missing = wanted.filter(
    ({ name, version }) => installedVersion(path.join(modules, name, 'package.json')) !== version,
  );
  if (missing.length > 0) {
    console.log(`Installing ${directusPackages.join(' ')} into ${cache} (about 750 MB and a native build, once)…`);
    const args = ['i', '--no-save', '--no-audit', '--no-fund', '--prefix', cache, ...directusPackages];
    const npm = spawnSync('npm', args, { stdio: 'inherit', timeout: installTimeoutMs });
    if (npm.status !== 0) throw new RealServerUnavailable(`could not install Directus: npm ${args.join(' ')} failed`);
  }
  const cli = path.join(modules, '@directus', 'api', 'dist', 'cli', 'run.js');
  if (!existsSync(cli)) throw new RealServerUnavailable(`Directus is installed in ${cache} but ${cli} is missing`);
  return cli;
}
