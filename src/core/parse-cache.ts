// The data of YAML specs parsed before, kept on disk by the hash of their text, so that a command run again on an
// unchanged spec skips the YAML parser: on a cold start that parse is most of the time a command spends on its own
// (`contracts validate` of one body against the 43 kB webhooks spec: 0.164 s → 0.111 s; bench/start-up.ts). The
// same text always parses to the same data, so a hit gives what the parser would; only what JSON holds exactly is
// kept (finite numbers, strings, booleans, null, arrays and plain objects, no YAML aliases); any other parse, and
// any parse that failed, goes to the parser every time. The CLI turns it on (CONTRACTS_CACHE_DIR, CONTRACTS_CACHE);
// the library and the tests' in-process runs parse every time unless they say otherwise.
//
// Trust: what an entry holds is believed (lint passes a spec on it), so the cache folder must be one only this user
// can write (private-files.ts): a folder that is a link, another user's, or writable by others is not used, and said
// so once. Each entry is bound to its text: it holds its key (the hash of the version, the mode and the whole text)
// and the text's length, and is taken only when both match, so an entry is only ever the one written for that very
// text by this user's own run. Anyone who can write as this user could change the spec itself, or this package.
import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, readdirSync, unlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { exactInJson } from './exact-in-json.js';
import { folderDistrust, readPrivateFile, writePrivateFile } from './private-files.js';

export { exactInJson };

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
let warn: (line: string) => void = () => {};
/** Whether the folder was found to be one only this user can write; checked once, where first used. */
let trust: 'unchecked' | 'trusted' | 'refused' = 'unchecked';

/**
 * Where parses are kept from now on in this process, or undefined to keep none. `version` (the package's version
 * and its yaml's) is part of each key. `refused` is told, in one line, once, why a folder is not used.
 */
export function useParseCache(dir: string | undefined, version = '', refused?: (line: string) => void): void {
  cacheDir = dir;
  cacheVersion = version;
  warn = refused ?? (() => {});
  trust = 'unchecked';
}

/** The cache folder when it can be trusted (made first, with `create`), else undefined. */
function trustedDir(create: boolean): string | undefined {
  if (cacheDir === undefined || trust === 'refused') return undefined;
  if (trust === 'trusted') return cacheDir;
  if (create) mkdirSync(cacheDir, { recursive: true, mode: 0o700 });
  const distrust = folderDistrust(cacheDir);
  if (distrust === null) return undefined;
  if (distrust !== undefined) {
    trust = 'refused';
    warn(
      `contracts: not using the parse cache ${JSON.stringify(cacheDir)}: it ${distrust} (a cache folder must be ` +
        'one only you can write; set CONTRACTS_CACHE_DIR, or CONTRACTS_CACHE=off)',
    );
    return undefined;
  }
  trust = 'trusted';
  return cacheDir;
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

/**
 * The most an entry of `text` can weigh: its data as JSON, with its key, is never much more than the text (at
 * most 3 bytes of UTF-8 for a UTF-16 unit, 2 for an escaped one; no aliases); anything larger is not ours.
 */
const maxEntryBytes = (text: string) => 3 * text.length + 1024;

interface Entry {
  key: string;
  length: number;
  data: unknown;
}

/** The data `text` parsed to before, or undefined (no cache, no entry, an entry that cannot be read). */
export function cachedParse(text: string, strict = false): unknown {
  try {
    const dir = trustedDir(false);
    if (dir === undefined) return undefined;
    const key = entryKey(cacheVersion, text, strict);
    const bytes = readPrivateFile(path.join(dir, `parsed-${key}.json`), maxEntryBytes(text));
    if (bytes === undefined) return undefined;
    const entry = JSON.parse(bytes.toString('utf8')) as Partial<Entry> | null;
    // Only the entry written for this very text (a file renamed, or cut short, is not).
    if (entry?.key !== key || entry.length !== text.length || !Object.hasOwn(entry, 'data')) return undefined;
    return entry.data;
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
  if (cacheDir === undefined || trust === 'refused' || !exactInJson(data) || hasAliases()) return;
  try {
    const dir = trustedDir(true);
    if (dir === undefined) return;
    const key = entryKey(cacheVersion, text, strict);
    const entry = JSON.stringify({ key, length: text.length, data } satisfies Entry);
    if (Buffer.byteLength(entry) > maxEntryBytes(text)) return;
    writePrivateFile(dir, `parsed-${key}.json`, entry);
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
  for (const { name } of written.slice(0, entries.length - maxEntries)) {
    try {
      unlinkSync(path.join(dir, name));
    } catch {}
  }
}
