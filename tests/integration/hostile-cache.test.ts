// A parse-cache folder someone else can write is hostile (core/parse-cache.ts, core/private-files.ts): planted
// entries, links to files outside it and to /dev/zero, a FIFO, a folder that is a link to a reports folder, a folder
// anyone can write, files named like reports. Through lint, validate and fuzz (the commands a CI runs on a spec; the
// cache is turned on by the real process only, so these spawn it): a failing spec still fails, nothing hangs, and
// nothing outside the cache's own entries is read, written or deleted.
import { execFileSync, spawn } from 'node:child_process';
import {
  chmodSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entryKey } from '../../src/core/parse-cache.js';
import { root } from '../helpers/paths.js';

// The version run-cli.ts gives the cache, so that planted entries carry the keys a real run asks for.
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  version: string;
  dependencies: Record<string, string>;
};
const version = `${pkg.version} yaml ${pkg.dependencies.yaml} js-yaml ${pkg.dependencies['js-yaml']}`;

/** A spec lint fails (its example is no integer), whose answer `{"id": "x"}` validate and fuzz fail. */
const failing = (schema: string, example: string) =>
  'openapi: 3.1.0\ninfo:\n  title: cached\n  version: "1"\npaths:\n  /a:\n    get:\n      operationId: getA\n' +
  '      summary: s\n      responses:\n        "200":\n          description: ok\n          content:\n' +
  `            application/json:\n              schema: ${schema}\n              example: ${example}\n`;
const specText = failing('{ type: object, required: [id], properties: { id: { type: integer } } }', '{ id: "x" }');
/** What a planted entry says the spec is: one anything passes. */
const planted = {
  openapi: '3.1.0',
  info: { title: 'cached', version: '1' },
  paths: {
    '/a': {
      get: {
        operationId: 'getA',
        summary: 's',
        responses: { 200: { description: 'ok', content: { 'application/json': { schema: {}, example: { id: 1 } } } } },
      },
    },
  },
};
const entryName = (strict: boolean) => `parsed-${entryKey(version, specText, strict)}.json`;
const entryText = (strict: boolean) =>
  JSON.stringify({ key: entryKey(version, specText, strict), length: specText.length, data: planted });

let dir: string;
let project: string;
let target: http.Server;
let targetUrl: string;
let count = 0;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'contracts-hostile-cache-'));
  project = path.join(dir, 'project');
  mkdirSync(project);
  writeFileSync(path.join(project, 'spec.yaml'), specText);
  writeFileSync(path.join(project, 'body.json'), '{"id": "x"}');
  writeFileSync(path.join(project, 'contracts.config.yaml'), 'apis:\n  - name: cached\n    spec: spec.yaml\n');
  // A target that answers every request with what the spec forbids.
  target = http.createServer((_req, res) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"id":"x"}'),
  );
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => target.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

/** Runs the CLI in the project with `cache` as its cache folder; killed after 30 s (a hang is a failure). */
function run(args: string[], cache: string) {
  return new Promise<{ code: number | null; stdout: string; stderr: string; ms: number }>((resolve, reject) => {
    const started = Date.now();
    const home = path.join(dir, 'home');
    const child = spawn(process.execPath, [path.join(root, 'bin/contracts.js'), ...args], {
      cwd: project,
      env: {
        PATH: process.env.PATH,
        HOME: home,
        XDG_CACHE_HOME: path.join(home, '.cache'),
        CONTRACTS_CACHE_DIR: cache,
        CONTRACTS_CONFIG: '',
        SCARF_ANALYTICS: 'false',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: Date.now() - started });
    });
  });
}

const commands: [string, string[], number][] = [
  ['lint', ['lint', 'spec.yaml'], 1],
  [
    'validate',
    [
      ...['validate', '--spec', 'spec.yaml', '--operation', 'getA', '--status', '200'],
      ...['--header', 'Content-Type: application/json', '--body', 'body.json'],
    ],
    1,
  ],
  ['fuzz', ['fuzz', '--config', 'contracts.config.yaml', '--api', 'cached', '--max-examples', '5'], 1],
];

/** Every file under `folder`, by kind and content (links and FIFOs described, never followed or opened). */
function snapshot(folder: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const name of readdirSync(folder, { recursive: true }) as string[]) {
    const file = path.join(folder, name);
    const stat = lstatSync(file);
    if (stat.isSymbolicLink()) files[name] = `link to ${readlinkSync(file)}`;
    else if (stat.isFIFO()) files[name] = 'fifo';
    else if (stat.isDirectory()) files[name] = 'folder';
    else files[name] = `${stat.mode.toString(8)} ${stat.mtimeMs} ${readFileSync(file, 'utf8')}`;
  }
  return files;
}

/** A folder outside the cache, holding 100 reports and entries for the spec that must never be taken. */
function outsideFolder(): string {
  const folder = path.join(dir, `outside-${count++}`);
  mkdirSync(folder);
  for (let index = 0; index < 100; index++) {
    writeFileSync(path.join(folder, `report-${index}.json`), `{"report": ${index}}`);
    utimesSync(path.join(folder, `report-${index}.json`), 1, 1);
  }
  writeFileSync(path.join(folder, 'entry.json'), entryText(false), { mode: 0o600 });
  writeFileSync(path.join(folder, 'strict-entry.json'), entryText(true), { mode: 0o600 });
  for (const strict of [false, true])
    writeFileSync(path.join(folder, entryName(strict)), entryText(strict), { mode: 0o600 });
  return folder;
}

/** A private cache folder (as the CLI makes one). */
function privateFolder(): string {
  const folder = path.join(dir, `cache-${count++}`);
  mkdirSync(folder, { mode: 0o700 });
  return folder;
}

interface Scenario {
  /** Builds the cache folder, next to `outside`; returns it. */
  make: (outside: string) => string;
  /** Whether the CLI refuses the folder whole (and says so). */
  refused: boolean;
}

const plantBoth = (folder: string) => {
  for (const strict of [false, true]) writeFileSync(path.join(folder, entryName(strict)), entryText(strict));
};

const scenarios: [string, Scenario][] = [
  [
    'a folder anyone can write, holding planted entries',
    {
      refused: true,
      make: () => {
        const folder = privateFolder();
        plantBoth(folder);
        chmodSync(folder, 0o777);
        return folder;
      },
    },
  ],
  [
    'a folder its group can write, holding planted entries',
    {
      refused: true,
      make: () => {
        const folder = privateFolder();
        plantBoth(folder);
        chmodSync(folder, 0o770);
        return folder;
      },
    },
  ],
  [
    'a folder that is a link to a reports folder',
    {
      refused: true,
      make: (outside) => {
        const folder = path.join(dir, `linked-${count++}`);
        symlinkSync(outside, folder);
        return folder;
      },
    },
  ],
  [
    'entries that are links to files outside',
    {
      refused: false,
      make: (outside) => {
        const folder = privateFolder();
        symlinkSync(path.join(outside, 'entry.json'), path.join(folder, entryName(false)));
        symlinkSync(path.join(outside, 'strict-entry.json'), path.join(folder, entryName(true)));
        return folder;
      },
    },
  ],
  [
    'entries that are hard links to files outside',
    {
      refused: false,
      make: (outside) => {
        const folder = privateFolder();
        linkSync(path.join(outside, 'entry.json'), path.join(folder, entryName(false)));
        linkSync(path.join(outside, 'strict-entry.json'), path.join(folder, entryName(true)));
        return folder;
      },
    },
  ],
  [
    'entries anyone can write',
    {
      refused: false,
      make: () => {
        const folder = privateFolder();
        plantBoth(folder);
        for (const strict of [false, true]) chmodSync(path.join(folder, entryName(strict)), 0o666);
        return folder;
      },
    },
  ],
  [
    'a folder as a checkout makes it (0755, entries 0644): one committed to a repository as the cache',
    {
      refused: false,
      make: () => {
        const folder = privateFolder();
        plantBoth(folder);
        chmodSync(folder, 0o755);
        for (const strict of [false, true]) chmodSync(path.join(folder, entryName(strict)), 0o644);
        return folder;
      },
    },
  ],
  [
    'entries that are links to /dev/zero',
    {
      refused: false,
      make: () => {
        const folder = privateFolder();
        for (const strict of [false, true]) symlinkSync('/dev/zero', path.join(folder, entryName(strict)));
        return folder;
      },
    },
  ],
  [
    'entries that are FIFOs',
    {
      refused: false,
      make: () => {
        const folder = privateFolder();
        for (const strict of [false, true]) execFileSync('mkfifo', [path.join(folder, entryName(strict))]);
        return folder;
      },
    },
  ],
  [
    'entries that are folders (the new entry cannot be renamed over them)',
    {
      refused: false,
      make: () => {
        const folder = privateFolder();
        for (const strict of [false, true]) {
          mkdirSync(path.join(folder, entryName(strict)));
          writeFileSync(path.join(folder, entryName(strict), 'keep'), 'x');
        }
        return folder;
      },
    },
  ],
  [
    'files named like reports and like old entries, older than 70 entries of its own',
    {
      refused: false,
      make: () => {
        const folder = privateFolder();
        const names = Array.from({ length: 100 }, (_, index) => `report-${index}.json`);
        names.push(`${'a'.repeat(64)}.json`, `parsed-${'b'.repeat(64)}.json.bak`, 'parsed-1.json');
        for (const name of names) {
          writeFileSync(path.join(folder, name), '{}');
          utimesSync(path.join(folder, name), 1, 1);
        }
        for (let index = 0; index < 70; index++) {
          const name = `parsed-${index.toString(16).padStart(64, '0')}.json`;
          writeFileSync(path.join(folder, name), '{}', { mode: 0o600 });
          utimesSync(path.join(folder, name), 2, 2);
        }
        return folder;
      },
    },
  ],
];

describe('a cache folder an attacker can write', () => {
  it.each(scenarios)(
    '%s: every verdict stands, within seconds, and nothing outside its own entries changes',
    async (_name, { make, refused }) => {
      const outside = outsideFolder();
      const before = snapshot(outside);
      const cache = make(outside);
      const cacheBefore = snapshot(cache);
      const commandsWithTarget = commands.map(([name, args, code]) => [
        name,
        name === 'fuzz' ? [...args, '--base-url', targetUrl] : args,
        code,
      ]) as typeof commands;
      for (const [command, args, code] of commandsWithTarget) {
        // Twice: a second run would take what the first wrote.
        for (let time = 0; time < 2; time++) {
          const result = await run(args, cache);
          expect(result.ms, command).toBeLessThan(30_000);
          expect(result.code, `${command}: ${result.stdout}${result.stderr}`).toBe(code);
          expect(result.stderr, command).not.toMatch(/\n\s+at |internal error/);
          const warnings = result.stderr.split('\n').filter((line) => line.includes('not using the parse cache'));
          expect(warnings, command).toHaveLength(refused ? 1 : 0);
        }
      }
      expect(snapshot(outside)).toEqual(before);
      const cacheAfter = snapshot(cache);
      if (refused) expect(cacheAfter).toEqual(cacheBefore);
      // Nothing of the cache's own was left half-written, and what it did not write is still there.
      expect(Object.keys(cacheAfter).filter((name) => name.endsWith('.partial'))).toEqual([]);
      expect(Object.keys(cacheAfter).filter((name) => /^parsed-[0-9a-f]{64}\.json$/.test(name)).length).toBeLessThan(
        65,
      );
      for (const [name, was] of Object.entries(cacheBefore))
        if (!/^parsed-[0-9a-f]{64}\.json$/.test(name) || was === 'folder') expect(cacheAfter[name], name).toBe(was);
    },
    240_000,
  );

  it('the planted entries are the ones a run asks for: in a private folder, as its own, they are taken', async () => {
    // The trust model: a folder only the user can write holds only what the user's runs wrote. This control shows
    // the rows above plant entries a run would take, so their verdicts standing is not by chance.
    const cache = privateFolder();
    plantBoth(cache);
    for (const strict of [false, true]) chmodSync(path.join(cache, entryName(strict)), 0o600);
    for (const [command, args] of commands) {
      const result = await run(command === 'fuzz' ? [...args, '--base-url', targetUrl] : args, cache);
      expect(result.code, `${command}: ${result.stdout}${result.stderr}`).toBe(0);
    }
  }, 60_000);
});
