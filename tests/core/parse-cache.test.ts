// The parse cache (core/parse-cache.ts): a spec loaded again from an unchanged text gives what the parser gives,
// located on the same lines; what JSON cannot hold exactly, or what YAML aliases share, is never kept; a damaged or
// missing cache is no cache; the entries stay bounded; a folder or an entry someone else could have written, or
// that leads elsewhere, is never believed, read through, written through or waited on.
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ContractsError } from '../../src/core/errors.js';
import { loadSpec, type LoadedSpec } from '../../src/core/load-spec.js';
import {
  cachedParse,
  entryKey,
  exactInJson,
  parseCacheDir,
  rememberParse,
  useParseCache,
} from '../../src/core/parse-cache.js';
import { fixture, specFile } from '../helpers/paths.js';
import { runCli } from '../helpers/run-cli.js';

const scratch = mkdtempSync(path.join(os.tmpdir(), 'contracts-parse-cache-'));
let dir: string;
let count = 0;
const entries = () => (existsSync(dir) ? readdirSync(dir).filter((name) => name.endsWith('.json')) : []);

beforeEach(() => {
  dir = path.join(scratch, `cache-${count++}`);
  useParseCache(dir, 'test');
});
afterEach(() => useParseCache(undefined));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The spec as the parser gives it, with no cache in play. */
async function parsed(file: string): Promise<LoadedSpec> {
  useParseCache(undefined);
  try {
    return await loadSpec(file);
  } finally {
    useParseCache(dir, 'test');
  }
}

function writeSpec(name: string, text: string): string {
  const file = path.join(scratch, name);
  writeFileSync(file, text);
  return file;
}

const titleOf = async (file: string) => ((await loadSpec(file)).document.info as { title: string }).title;

const specText = (extra: string) =>
  `openapi: 3.1.0\ninfo:\n  title: t\n  version: '1'\npaths:\n  /a:\n    get:\n      responses:\n        '200':\n          description: ok\n${extra}`;

describe('a spec loaded again', () => {
  const files = [
    specFile('repository-webhooks'),
    specFile('client-session'),
    fixture('specs/openapi-30/pets.yaml'),
    fixture('specs/recursive.yaml'),
    fixture('specs/alternatives.yaml'),
  ];

  it.each(files)('gives the document the parser gives, located on the same lines: %s', async (file) => {
    const first = await loadSpec(file);
    expect(entries()).toHaveLength(1);
    const again = await loadSpec(file);
    const fresh = await parsed(file);
    expect(again.document).toEqual(fresh.document);
    expect(again.sourceDocument).toEqual(fresh.sourceDocument);
    expect(first.document).toEqual(fresh.document);
    // Paths to a map key, a list item, a scalar, and one that stops part way, located on the cache's hit as without it.
    const paths = [
      [],
      ['info', 'title'],
      ['paths'],
      ['paths', Object.keys(fresh.document.paths ?? {})[0]!],
      ['nope', 'x'],
    ];
    for (const p of paths) expect(again.locateSource(p), p.join('/')).toEqual(fresh.locateSource(p));
  });

  it('is read from the entry, not parsed again: an entry changed by hand is what the next load gives', async () => {
    const file = writeSpec('edited-entry.yaml', specText(''));
    await loadSpec(file);
    const [entry] = entries();
    const kept = JSON.parse(readFileSync(path.join(dir, entry!), 'utf8')) as { data: { info: { title: string } } };
    kept.data.info.title = 'from the cache';
    writeFileSync(path.join(dir, entry!), JSON.stringify(kept));
    expect((await loadSpec(file)).document.info).toEqual({ title: 'from the cache', version: '1' });
    // A text that differs by one character is another entry.
    writeFileSync(file, specText('').replace('title: t', 'title: u'));
    expect((await loadSpec(file)).document.info).toEqual({ title: 'u', version: '1' });
    expect(entries()).toHaveLength(2);
  });

  it('reports a broken $ref at the same line whether its text was parsed or read from the cache', async () => {
    const file = writeSpec('broken-ref.yaml', specText("components:\n  schemas:\n    A:\n      $ref: '#/nowhere'\n"));
    const errors: ContractsError[] = [];
    for (let run = 0; run < 2; run++)
      errors.push(
        await loadSpec(file).then(
          () => Promise.reject(new Error('loaded')),
          (e) => e,
        ),
      );
    expect(entries()).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(ContractsError);
    expect(errors[1]!.toLine()).toBe(errors[0]!.toLine());
    expect(errors[0]!.toLine()).toMatch(/broken-ref\.yaml:14:\d+: .*#\/nowhere/);
  });

  it('keeps no entry for a text that fails to parse, and says where, every time', async () => {
    const file = writeSpec('bad.yaml', specText('  bad: [\n'));
    for (let run = 0; run < 2; run++) await expect(loadSpec(file)).rejects.toThrow(/not valid YAML/);
    const duplicate = writeSpec('duplicate.yaml', specText('info:\n  title: again\n'));
    for (let run = 0; run < 2; run++) await expect(loadSpec(duplicate)).rejects.toThrow(/not valid YAML/);
    expect(entries()).toEqual([]);
  });

  it('keeps no entry when JSON would not give back the same data: .nan, -0, aliases', async () => {
    for (const [name, extra] of [
      ['nan.yaml', 'x-nan: .nan\n'],
      ['inf.yaml', 'x-inf: -.inf\n'],
      ['minus-zero.yaml', 'x-zero: -0.0\n'],
      ['alias.yaml', 'x-shared: &shared {a: 1}\nx-again: *shared\n'],
    ] as const) {
      const file = writeSpec(name, specText(extra));
      const loaded = await loadSpec(file);
      expect((await loadSpec(file)).document, name).toEqual(loaded.document);
    }
    expect(entries()).toEqual([]);
    // A `*` that is no alias (in a string) does not stop an entry.
    await loadSpec(writeSpec('star.yaml', specText("x-glob: '*.json'\n")));
    expect(entries()).toHaveLength(1);
  });

  it('takes a damaged entry for none, and writes it anew', async () => {
    const file = writeSpec('damaged.yaml', specText(''));
    const loaded = await loadSpec(file);
    const entry = path.join(dir, entries()[0]!);
    const written = JSON.parse(readFileSync(entry, 'utf8')) as { key: string; length: number; data: unknown };
    expect(written.data).toEqual(loaded.document);
    const planted = { info: { title: 'planted', version: '1' } };
    for (const damage of [
      '{"openapi": "3.1',
      'x'.repeat(200_000),
      'null',
      JSON.stringify(planted),
      JSON.stringify({ ...written, key: 'f'.repeat(64), data: planted }),
      JSON.stringify({ ...written, length: written.length + 1, data: planted }),
      JSON.stringify({ key: written.key, length: written.length }),
    ]) {
      writeFileSync(entry, damage);
      expect((await loadSpec(file)).document, damage.slice(0, 40)).toEqual(loaded.document);
      expect(JSON.parse(readFileSync(entry, 'utf8'))).toEqual(written);
    }
  });

  it('still loads the spec when the cache cannot be written (a file where its folder should be)', async () => {
    writeFileSync(path.join(scratch, 'not-a-folder'), '');
    useParseCache(path.join(scratch, 'not-a-folder', 'cache'), 'test');
    const file = writeSpec('unwritable.yaml', specText(''));
    expect((await loadSpec(file)).document.info).toEqual({ title: 't', version: '1' });
  });

  it('keeps at most 64 entries, the most recently written', async () => {
    for (let index = 0; index < 70; index++)
      await loadSpec(writeSpec(`many-${index}.yaml`, specText(`x-n: ${index}\n`)));
    expect(entries()).toHaveLength(64);
  });

  it("evicts only its own entries: a folder's reports, older than them all, stay", async () => {
    const reports = path.join(scratch, 'reports');
    mkdirSync(reports);
    const names = Array.from({ length: 100 }, (_, index) => `report-${index}.json`);
    names.push(`${'a'.repeat(64)}.json`, `parsed-${'b'.repeat(64)}.json.bak`, 'parsed-x.json');
    for (const name of names) {
      writeFileSync(path.join(reports, name), '{}');
      utimesSync(path.join(reports, name), 1, 1);
    }
    mkdirSync(path.join(reports, `parsed-${'c'.repeat(64)}.json`));
    for (const [name, folder] of [
      ['direct', reports],
      ['through a link', path.join(scratch, 'linked-reports')],
    ] as const) {
      if (folder !== reports) symlinkSync(reports, folder);
      useParseCache(folder, 'test');
      for (let index = 0; index < 70; index++)
        await loadSpec(writeSpec(`report-${index}.yaml`, specText(`x-m: ${index}\nx-f: ${name}\n`)));
      for (const kept of names) expect(existsSync(path.join(reports, kept)), `${name}: ${kept}`).toBe(true);
      expect(existsSync(path.join(reports, `parsed-${'c'.repeat(64)}.json`))).toBe(true);
    }
  });
});

describe('a cache folder or entry someone else could have written', () => {
  const text = specText('');
  const planted = { openapi: '3.1.0', info: { title: 'planted', version: '1' }, paths: {} };
  /** An entry as this module writes it for `text`, holding data that is not what `text` parses to. */
  const plantedEntry = JSON.stringify({ key: entryKey('test', text, false), length: text.length, data: planted });
  const entryPath = (folder: string) => path.join(folder, `parsed-${entryKey('test', text, false)}.json`);
  const outside = () => {
    const file = path.join(scratch, `outside-${count++}.json`);
    writeFileSync(file, plantedEntry);
    return file;
  };

  // Each: a folder made as the row says, used as the cache; the spec must load as the parser reads it.
  const folders: [string, (folder: string) => void][] = [
    ['writable by everyone', (folder) => chmodSync(folder, 0o777)],
    ['writable by its group', (folder) => chmodSync(folder, 0o770)],
    [
      'a symbolic link to a private folder',
      (folder) => {
        rmSync(folder, { recursive: true });
        const real = mkdtempSync(path.join(scratch, 'real-'));
        writeFileSync(entryPath(real), plantedEntry, { mode: 0o600 });
        symlinkSync(real, folder);
      },
    ],
    ...(process.getuid?.() === 0
      ? [["another user's", (folder: string) => chownSync(folder, 65534, 65534)] as [string, (f: string) => void]]
      : []),
  ];

  it.each(folders)('is not used when %s, and that is said once', async (_name, make) => {
    const folder = path.join(scratch, `folder-${count++}`);
    mkdirSync(folder, { mode: 0o700 });
    writeFileSync(entryPath(folder), plantedEntry, { mode: 0o600 });
    make(folder);
    const warnings: string[] = [];
    useParseCache(folder, 'test', (line) => warnings.push(line));
    const file = writeSpec(`folder-${count}.yaml`, text);
    for (let run = 0; run < 2; run++) expect(await titleOf(file)).toBe('t');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^contracts: not using the parse cache ".*": it .* only you can write/);
    expect(readdirSync(folder)).toEqual([path.basename(entryPath(folder))]);
  });

  // Each: what is at the entry's name in a private folder; the spec must load as the parser reads it, and nothing
  // outside the folder change.
  const entries: [string, (file: string) => string | undefined][] = [
    ['a link to a file outside holding an entry', (file) => symlinkSync(outside(), file) ?? undefined],
    ['a hard link to a file outside holding an entry', (file) => linkSync(outside(), file) ?? undefined],
    [
      'an entry writable by others',
      (file) => {
        writeFileSync(file, plantedEntry);
        chmodSync(file, 0o666);
        return undefined;
      },
    ],
    [
      'an entry others can read, as a checkout or a copy makes one (0644)',
      (file) => {
        writeFileSync(file, plantedEntry);
        chmodSync(file, 0o644);
        return undefined;
      },
    ],
    ['a link to /dev/zero', (file) => symlinkSync('/dev/zero', file) ?? undefined],
    ['a FIFO', (file) => execFileSync('mkfifo', [file]) && undefined],
    [
      'a folder, which the new entry cannot replace',
      (file) => {
        mkdirSync(file);
        writeFileSync(path.join(file, 'inside'), 'x');
        return 'folder';
      },
    ],
  ];

  it.each(entries)('is not taken: %s; and no write leaves a partial file', async (_name, make) => {
    const file = writeSpec(`entry-${count}.yaml`, text);
    mkdirSync(dir, { mode: 0o700 });
    const before = readdirSync(scratch).filter((name) => name.startsWith('outside-'));
    const kept = make(entryPath(dir));
    const started = performance.now();
    for (let run = 0; run < 2; run++) expect(await titleOf(file)).toBe('t');
    expect(performance.now() - started).toBeLessThan(5000);
    for (const name of before) expect(readFileSync(path.join(scratch, name), 'utf8')).toBe(plantedEntry);
    expect(readdirSync(dir).filter((name) => name.endsWith('.partial'))).toEqual([]);
    if (kept === 'folder') expect(readdirSync(entryPath(dir))).toEqual(['inside']);
  });

  it('is taken when it is our own, in a private folder (the rows above plant what would be taken)', async () => {
    mkdirSync(dir, { mode: 0o700 });
    writeFileSync(entryPath(dir), plantedEntry, { mode: 0o600 });
    expect(await titleOf(writeSpec(`own-${count}.yaml`, text))).toBe('planted');
  });
});

describe('the key of an entry', () => {
  // Each row: an entry kept for one (version, text, mode), and another whose parts, joined end to end with the
  // separators the key once used, read the same.
  const rows: [string, { kept: [string, string, boolean]; asked: [string, string, boolean] }][] = [
    [
      'a text beginning strict\\0 is not a strict entry',
      { kept: ['v', 'strict\0a: 1', false], asked: ['v', 'a: 1', true] },
    ],
    ['a version ending in \\0 is not a shorter one', { kept: ['v\0', 'a: 1', false], asked: ['v', '\0a: 1', false] }],
    ["a version cannot take the text's place", { kept: ['v\0strict', 'a: 1', false], asked: ['v', 'a: 1', true] }],
  ];

  it.each(rows)('%s', (_name, { kept, asked }) => {
    useParseCache(dir, kept[0]);
    rememberParse(kept[1], { poisoned: true }, () => false, kept[2]);
    expect(cachedParse(kept[1], kept[2])).toEqual({ poisoned: true });
    useParseCache(dir, asked[0]);
    expect(cachedParse(asked[1], asked[2])).toBeUndefined();
  });
});

describe('JSON holds exactly', () => {
  it.each([
    ['a plain tree', { a: [1, 'x', true, null, { b: 2.5 }] }, true],
    ['NaN', { a: Number.NaN }, false],
    ['Infinity', [Number.POSITIVE_INFINITY], false],
    ['-0', { a: -0 }, false],
    ['a Date', { a: new Date(0) }, false],
    ['a Map', new Map(), false],
    ['an object with no prototype', Object.create(null) as object, false],
    ['an own __proto__ key', JSON.parse('{"__proto__": 1}') as object, false],
    ['a hole', new Array(3), false],
    ['undefined', { a: undefined }, false],
    ['a bigint', { a: 1n }, false],
  ])('%s: %s', (_name, value, exact) => {
    expect(exactInJson(value)).toBe(exact);
  });
});

describe('where the CLI keeps it', () => {
  it('is CONTRACTS_CACHE_DIR, else the user cache folder; CONTRACTS_CACHE=off keeps none', () => {
    expect(parseCacheDir({ CONTRACTS_CACHE_DIR: '/tmp/c', XDG_CACHE_HOME: '/x' })).toBe('/tmp/c');
    expect(parseCacheDir({ XDG_CACHE_HOME: '/x' })).toBe('/x/contracts-kit/parsed');
    expect(parseCacheDir({})).toBe(path.join(os.homedir(), '.cache', 'contracts-kit', 'parsed'));
    expect(parseCacheDir({ CONTRACTS_CACHE: 'off', CONTRACTS_CACHE_DIR: '/tmp/c' })).toBeUndefined();
  });

  it('is where a real validate writes its entry, and off means nothing written', async () => {
    const home = path.join(scratch, 'xdg');
    const args = [
      ...['validate', '--spec', specFile('client-session'), '--operation', 'retrieveClientSession'],
      ...['--status', '401', '--header', 'Content-Type: application/json', '--body', '-'],
    ];
    const env = { CONTRACTS_CACHE_DIR: '', XDG_CACHE_HOME: home, CONTRACTS_CONFIG: '' };
    const off = await runCli(args, { env: { ...env, CONTRACTS_CACHE: 'off' }, input: '{}', cwd: scratch });
    expect(readdirSync(scratch)).not.toContain('xdg');
    const on = await runCli(args, { env, input: '{}', cwd: scratch });
    expect(on.stdout).toBe(off.stdout);
    expect(on.code).toBe(off.code);
    expect(readdirSync(path.join(home, 'contracts-kit', 'parsed'))).toHaveLength(1);
    const again = await runCli(args, { env, input: '{}', cwd: scratch });
    expect(again.stdout).toBe(off.stdout);
  });
});
