// The data of YAML specs parsed before, kept on disk by the hash of their text, so that a command run again on an
// unchanged spec skips the YAML parser: on a cold start that parse is most of the time a command spends on its own
// (`contracts validate` of one body against the 43 kB webhooks spec: 0.164 s → 0.111 s; bench/start-up.ts). The
// same text always parses to the same data, so a hit gives what the parser would; only what JSON holds exactly is
// kept (finite numbers, strings, booleans, null, arrays and plain objects, no YAML aliases); any other parse, and
// any parse that failed, goes to the parser every time. The CLI turns it on (CONTRACTS_CACHE_DIR, CONTRACTS_CACHE);
// the library and the tests' in-process runs parse every time unless they say otherwise.
import { createHash, randomBytes } from 'node:crypto';
import { lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Part of every key: a change to how specs are parsed (options, the yaml package) names new entries. */
const format = 'contracts-parsed-yaml-2';
/** Entries kept; past it the oldest written go. */
const maxEntries = 64;
/**
 * The name of every entry this module writes, and of nothing else: eviction removes only files named so (a folder
 * named as the cache may hold a user's own files, reports among them).
 */
const entryName = /^parsed-[0-9a-f]{64}\.json$/;

let cacheDir: string | undefined;
let cacheVersion = '';

/**
 * Where parses are kept from now on in this process, or undefined to keep none. `version` (the package's version
 * and its yaml's) is part of each key.
 */
export function useParseCache(dir: string | undefined, version = ''): void {
  cacheDir = dir;
  cacheVersion = version;
}

/** The cache folder the environment names: CONTRACTS_CACHE_DIR, else the user's cache folder; none if CONTRACTS_CACHE=off. */
export function parseCacheDir(env: NodeJS.ProcessEnv): string | undefined {
  if (env.CONTRACTS_CACHE === 'off') return undefined;
  if (env.CONTRACTS_CACHE_DIR) return path.resolve(env.CONTRACTS_CACHE_DIR);
  const base = env.XDG_CACHE_HOME ? path.resolve(env.XDG_CACHE_HOME) : path.join(os.homedir(), '.cache');
  return path.join(base, 'contracts-kit', 'parsed');
}

/**
 * The key of `text`'s entry: the hash of every part, each a JSON string in a JSON array, so that no two sets of
 * parts write the same bytes (a text, a version or a mode cannot reach into its neighbour, as they could joined
 * with separators). Entries of strict reads (yaml's parses alone, for lint) and of the others (the fast path's too,
 * fast-yaml.ts) are apart: a strict reader never takes a text only the fast path read.
 */
export function entryKey(version: string, text: string, strict: boolean): string {
  const parts = [format, version, strict ? 'strict' : 'any', text];
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}

const entryFile = (dir: string, text: string, strict: boolean) =>
  path.join(dir, `parsed-${entryKey(cacheVersion, text, strict)}.json`);

/** The data `text` parsed to before, or undefined (no cache, no entry, an entry that cannot be read). */
export function cachedParse(text: string, strict = false): unknown {
  if (cacheDir === undefined) return undefined;
  const file = entryFile(cacheDir, text, strict);
  try {
    // An entry is never much larger than the text it was parsed from (no aliases): anything else is not ours.
    if (statSync(file).size > 2 * text.length + 1024) return undefined;
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/**
 * Keeps the data `text` parsed to, when JSON holds it exactly and the parse used no alias (`hasAliases`, asked only
 * then: aliases share one object between places, which a copy would not). Never fails the command: a cache that
 * cannot be written (a read-only home) is no cache.
 */
export function rememberParse(text: string, data: unknown, hasAliases: () => boolean, strict = false): void {
  if (cacheDir === undefined || !exactInJson(data) || hasAliases()) return;
  const dir = cacheDir;
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const file = entryFile(dir, text, strict);
    // Written whole beside it, then renamed: a reader sees the old entry, none, or all of the new one.
    const partial = `${file}.${randomBytes(6).toString('hex')}.partial`;
    writeFileSync(partial, JSON.stringify(data), { mode: 0o600 });
    renameSync(partial, file);
    evictOldest(dir);
  } catch {}
}

/**
 * Past `maxEntries`, removes the oldest written of this module's own entries: regular files named as it names them,
 * in the folder itself. Nothing through a link: not in a folder that is one, and no entry that is one.
 */
function evictOldest(dir: string): void {
  if (lstatSync(dir).isSymbolicLink()) return;
  const entries = readdirSync(dir, { withFileTypes: true }).filter(
    (item) => item.isFile() && entryName.test(item.name),
  );
  if (entries.length <= maxEntries) return;
  const written = entries
    .map(({ name }) => {
      try {
        return { name, at: lstatSync(path.join(dir, name)).mtimeMs };
      } catch {
        return { name, at: 0 };
      }
    })
    .sort((a, b) => a.at - b.at);
  for (const { name } of written.slice(0, entries.length - maxEntries)) rmSync(path.join(dir, name), { force: true });
}

/** Whether JSON.parse(JSON.stringify(value)) gives back value exactly (a tree of JSON's own kinds of value). */
export function exactInJson(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (item === null || typeof item === 'string' || typeof item === 'boolean') continue;
    if (typeof item === 'number') {
      if (!Number.isFinite(item) || Object.is(item, -0)) return false;
      continue;
    }
    if (Array.isArray(item)) {
      for (let i = 0; i < item.length; i++) {
        if (!(i in item)) return false;
        stack.push(item[i]);
      }
      continue;
    }
    if (typeof item !== 'object' || Object.getPrototypeOf(item) !== Object.prototype) return false;
    if (Object.hasOwn(item, '__proto__')) return false;
    for (const child of Object.values(item)) stack.push(child);
  }
  return true;
}
