// The fast path to a YAML text's data (core/fast-yaml.ts): where it answers, it gives what yaml gives, on tables of
// the core schema's scalars, on generated documents in every style yaml writes, and on every YAML file of oasdiff's
// corpus (written by people, never copied here); what the two parsers read differently goes to yaml; and lint, which
// judges the spec, still reports the few texts js-yaml reads and yaml refuses.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import jsYaml from 'js-yaml';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { parse, parseDocument, stringify } from 'yaml';
import { defaultCorpus } from '../../scripts/diff-corpus.js';
import { coreScalar, fastYamlData } from '../../src/core/fast-yaml.js';
import { loadSpec } from '../../src/core/load-spec.js';
import { useParseCache } from '../../src/core/parse-cache.js';
import { lintSpec } from '../../src/lint/lint-spec.js';

/** yaml's data for a text it reads without an error, as load-spec.ts and read-config.ts take it. */
function yamlData(text: string): unknown {
  const doc = parseDocument(text, { uniqueKeys: true, prettyErrors: false });
  if (doc.errors.length > 0) throw new Error(`yaml refuses it: ${doc.errors[0]!.message}`);
  return doc.toJS({ maxAliasCount: 100 });
}

describe('plain scalars', () => {
  const scalars = [
    ...['~', 'null', 'Null', 'NULL', 'nULL', ''],
    ...['true', 'True', 'TRUE', 'tRUE', 'false', 'False', 'FALSE', 'yes', 'no', 'on', 'off', 'y'],
    ...['0', '-0', '+12', '012', '0o17', '0o8', '-0o17', '0x1F', '0x1f', '0X1F', '-0x1', '0b101', '1_000', '0x', '0o'],
    ...['9007199254740993', '123456789012345678901234567890'],
    ...['1.5', '1.50', '.5', '5.', '-.5', '1e3', '1E-3', '+1e+3', '.5e1', '1.e2', '1e', 'e3', '1.2.3'],
    ...['.inf', '-.inf', '+.INF', '.Inf', '.nan', '.NaN', '.NAN', 'NaN', 'inf', '-.nan'],
    ...['2001-12-14', '2001-12-14t21:59:43.10-05:00', '12:30:00', '1:20', '<<', '=', 'a b', '0.1.2', '1,000'],
  ];

  it.each(scalars)('%j is what yaml makes of it', (scalar) => {
    const text = `v: ${scalar}\n`;
    expect(fastYamlData(text)).toStrictEqual(yamlData(text));
  });

  it('are read by yaml core schema, not js-yaml own: binary and underscores are text', () => {
    expect(jsYaml.load('v: 0b101', { schema: jsYaml.CORE_SCHEMA })).toStrictEqual({ v: 5 });
    expect(fastYamlData('v: 0b101')).toStrictEqual({ v: '0b101' });
    expect(coreScalar('0b101')).toBeUndefined();
    expect(coreScalar('-0')).toBe(-0);
    expect(coreScalar('1.50')).toBe(1.5);
  });

  it('quoted or in a block are text whatever they read', () => {
    expect(fastYamlData('a: \'1\'\nb: "true"\nc: |\n  null\nd: >-\n  0x1F\n')).toStrictEqual({
      a: '1',
      b: 'true',
      c: 'null\n',
      d: '0x1F',
    });
  });
});

describe('what goes to yaml', () => {
  // Each text is one the two parsers read differently (or that only one of them reads), or that the path does not
  // vouch for: without its guard in fast-yaml.ts, the row fails.
  const deferred: [string, string][] = [
    ['a directive', '%YAML 1.1\n---\nv: yes\n'],
    ['three dashes glued to a scalar', 'v:\n  - a\n---b: 1\n'],
    ['three dots glued to a scalar', 'v: 1\n...x: 2\n'],
    ['an explicit key', '? a\n: 1\n'],
    ['an explicit collection key', '? [a]\n: 1\n'],
    ['a flow sequence as a key', '[a]: 1\n'],
    ['a one-item flow sequence as a key in a sequence', 'v:\n  - [a]: 1\n'],
    ['a flow mapping as a key', '{a: 1}: 2\n'],
    ['a flow sequence as a key inside a flow mapping', 'v: {[a]: 1}\n'],
    ['a flow sequence as a key right after [', 'v: [ [admin]: false ]\n'],
    ['a flow sequence as a key glued to [', 'v: [[a]: 1]\n'],
    ['a flow sequence as a key, : with no blank after', 'v: {a: 1, [b]:c}\n'],
    ['a flow sequence as a key, blanks before :', 'v: [ [a] \t: 1 ]\n'],
    ['an empty flow sequence as a key', 'v: {[]: 1}\n'],
    ['a nested flow sequence as a key', 'v: [ [[a]]: 1 ]\n'],
    ['a flow sequence as a key, on a line of its own', 'v: {\n  a: 1,\n  [b]:c\n}\n'],
    ['a flow sequence as a key of a flow mapping in a sequence', 'v:\n  - {x: 1, [a]: 2}\n'],
    ['a flow mapping as a key, : with no blank after', 'v: [{a: 1}:2]\n'],
    ['an empty flow mapping as a key', 'v: [ {}: 1 ]\n'],
    ['a flow sequence as a block key, a tab after :', '[a]:\t1\n'],
    ['an empty flow sequence as a key with no value', 'v: {[]}\n'],
    ['a flow sequence as a key with no value, after a comma', 'v: {x: 1, [b]}\n'],
    ['a flow sequence as a key with no value, after a comment', 'v: {x: 1, # see [\n  [b]}\n'],
    ['a flow sequence as a key with no value, on the next line', 'v:\n  {[b]}\n'],
    ['a block scalar with an indentation indicator', 'v: |2\n   x\n'],
    ['a block scalar with both indicators', 'v: >-1\n x\n'],
    ['a block scalar keeping its line breaks', 'v: |+\n  x\n\n'],
    ['an empty nested sequence item', 'v:\n  - -\n  - b\n'],
    ['an empty item before a nested sequence', 'v:\n  -\n    - a\n  -\n'],
    ['a line of white space with a tab', 'v: >-\n  \t\nw: 1\n'],
    ['a block scalar starting with a tab', 'v: |\n  \tx\n'],
    ['a block scalar header with a comment', 'v: | # c\n  \tx\n'],
    ['an escaped line break before an empty line', 'v: "a\\\n\n  b"\n'],
    ['a tag', 'v: !!str 1\n'],
    ['a tag of our own kind of value', 'v: !!int 1\n'],
    ['a custom tag', 'v: !custom x\n'],
    ['the non-specific tag', 'v: ! 1\n'],
    ['a known tag on an empty node', 'v: !!str\n...\n'],
    ['an anchor and an alias to a scalar', 'a: &x 1\nb: *x\n'],
    ['an alias to a mapping', 'a: &x {c: 1}\nb: *x\n'],
    ['an anchor alone', 'a: &x 1\n'],
    ['a null key', '~: 1\n'],
    ['a key reading null', 'null: 1\n'],
    ['a key with a comma', '"a,b": 1\n'],
    ['__proto__', '__proto__:\n  x: 1\n'],
    ['a key twice, once as a number', '1: a\n"1": b\n'],
    ['a key twice', 'a: 1\na: 2\n'],
    ['nesting deeper than 100', `v: ${'['.repeat(101)}${']'.repeat(101)}\n`],
    ['two documents', 'a: 1\n---\nb: 2\n'],
    ['no document', '# nothing\n'],
    ['a scalar at the top', 'hello\n'],
    ['a sequence at the top', '- a\n'],
    ['broken YAML', 'a: [\n'],
  ];

  it.each(deferred)('%s', (_name, text) => {
    expect(fastYamlData(text)).toBeUndefined();
  });

  it('a deferred text still loads, as yaml reads it', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'contracts-fast-yaml-'));
    try {
      const file = path.join(dir, 'spec.yaml');
      writeFileSync(file, `${spec}x-aliased:\n  a: &x {c: 0b1}\n  b: *x\n`);
      expect((await loadSpec(file)).document['x-aliased']).toStrictEqual({ a: { c: '0b1' }, b: { c: '0b1' } });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

const spec = `openapi: 3.1.0\ninfo:\n  title: t\n  version: '1'\npaths:\n  /pets/{id}:\n    get:\n      responses:\n        '200':\n          description: ok\n`;

describe('where it answers, it gives what yaml gives', () => {
  const key = fc.oneof(
    fc.string({ maxLength: 8 }),
    fc.constantFrom('/pets/{id}', '200', 'x-a', '$ref', 'a b', 'a: b', '#c', '- a', "'q'", '"q"', 'true', '1e3'),
  );
  const text = fc.oneof(
    fc.string({ maxLength: 40 }),
    fc.string({ unit: 'grapheme', maxLength: 20 }),
    fc.constantFrom('', ' lead', 'trail ', 'a\nb', 'a\n\nb\n', '\n', '  x\n', 'a\tb', 'x: y', '# c', "it's", '"q"'),
    fc.constantFrom('- a', '[a]', '{a}', 'null', '0x1F', '.nan', '1_0', 'a\\', '\\n', '€', '😀', '\u2028', 'a #b'),
  );
  const value = fc.letrec((tie) => ({
    node: fc.oneof({ depthSize: 'small' }, tie('leaf'), tie('list'), tie('map')),
    leaf: fc.oneof(text, fc.integer(), fc.double(), fc.boolean(), fc.constant(null)),
    list: fc.array(tie('node'), { maxLength: 4 }),
    map: fc.dictionary(key, tie('node'), { maxKeys: 5 }),
  }));
  const options = fc.record({
    defaultStringType: fc.constantFrom('PLAIN', 'QUOTE_DOUBLE', 'QUOTE_SINGLE', 'BLOCK_FOLDED', 'BLOCK_LITERAL'),
    defaultKeyType: fc.constantFrom(null, 'PLAIN', 'QUOTE_DOUBLE'),
    collectionStyle: fc.constantFrom('any', 'block', 'flow'),
    lineWidth: fc.integer({ min: 0, max: 100 }),
    indent: fc.integer({ min: 1, max: 4 }),
    indentSeq: fc.boolean(),
  } as const);

  it('on generated documents, in every style yaml writes', () => {
    let answered = 0;
    let runs = 0;
    fc.assert(
      fc.property(fc.dictionary(key, value.node, { minKeys: 1, maxKeys: 6 }), options, (data, style) => {
        runs++;
        const written = stringify(data, { ...style, aliasDuplicateObjects: false });
        const fast = fastYamlData(written);
        if (fast === undefined) return;
        answered++;
        expect(fast).toStrictEqual(yamlData(written));
      }),
      { numRuns: 400 },
    );
    // Not vacuous: it answers for most of them.
    expect(answered / runs).toBeGreaterThan(0.6);
  });

  // Flow collections with keys of every shape: plain and quoted scalars, flow sequences and mappings (nested, empty,
  // of one item) as keys in flow sequences and mappings and as a block key, `:` with and without blanks around it.
  const blank = fc.constantFrom('', '', ' ', '\t', '\n  ', ' # c\n  ', ' #[\n  ');
  const separator = fc.constantFrom(': ', ':', ' : ', ':\t', ' :', ':\n  ');
  const flow = fc.letrec((tie) => ({
    node: fc.oneof({ depthSize: 'small' }, tie('scalar'), tie('sequence'), tie('mapping')),
    scalar: fc.constantFrom('a', 'b c', '"q"', "'s'", '"a:b"', '1', 'null', '""', "'[a]'", 'a]', '.5'),
    pair: fc.tuple(tie('node'), separator, tie('node')).map((parts) => parts.join('')),
    item: fc.tuple(blank, fc.oneof(tie('node'), tie('pair')), blank).map((parts) => parts.join('')),
    sequence: fc.array(tie('item'), { maxLength: 3 }).map((items) => `[${items.join(',')}]`),
    mapping: fc.array(tie('item'), { maxLength: 3 }).map((items) => `{${items.join(', ')}}`),
  }));
  const flowText = fc.oneof(
    flow.node.map((node) => `k: ${node}\n`),
    flow.node.map((node) => `k:\n  - ${node}\n`),
    fc.tuple(flow.node, separator, flow.node).map(([key, sep, value]) => `${key}${sep}${value}\n`),
    fc.tuple(flow.node, separator, flow.node).map(([key, sep, value]) => `k:\n  - ${key}${sep}${value}\n`),
  );

  it('on flow collections with keys of every shape', () => {
    let answered = 0;
    fc.assert(
      fc.property(flowText, (written) => {
        const fast = fastYamlData(written);
        if (fast === undefined) return;
        const doc = parseDocument(written, { uniqueKeys: true, prettyErrors: false, logLevel: 'silent' });
        // (A text only js-yaml reads is lint's to report: see below.)
        if (doc.errors.length > 0) return;
        answered++;
        expect(fast).toStrictEqual(doc.toJS({ maxAliasCount: 100 }));
      }),
      { numRuns: 2000 },
    );
    expect(answered).toBeGreaterThan(200);
  });

  it("on every YAML file of oasdiff's corpus, and answers for nearly all", () => {
    const files = (readdirSync(defaultCorpus, { recursive: true }) as string[]).filter((name) => /\.ya?ml$/.test(name));
    expect(files.length).toBeGreaterThan(500);
    let answered = 0;
    for (const name of files) {
      const written = readFileSync(path.join(defaultCorpus, name), 'utf8');
      const fast = fastYamlData(written);
      if (fast === undefined) continue;
      answered++;
      expect(fast, name).toStrictEqual(yamlData(written));
    }
    expect(answered / files.length).toBeGreaterThan(0.95);
  });

  it('on our own specs', () => {
    for (const name of ['client-session.yaml', 'repository-webhooks.yaml']) {
      const written = readFileSync(path.join(import.meta.dirname, '../../specs', name), 'utf8');
      expect(fastYamlData(written), name).toStrictEqual(parse(written));
    }
  });
});

describe('a text js-yaml reads and yaml refuses', () => {
  // A flow mapping closed at its parent's indentation: yaml says BAD_INDENT, js-yaml reads on. Commands that need only
  // the data take it; lint, which judges the spec, reports it, even after such a command cached its data.
  const lenient = `${spec}x-rules:\n  a: [2, {\n    b: c\n  }]\n`;
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'contracts-fast-yaml-lenient-'));
  afterEach(() => useParseCache(undefined));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('is read by the fast path, refused by yaml', () => {
    expect(fastYamlData(lenient)).toMatchObject({ 'x-rules': { a: [2, { b: 'c' }] } });
    expect(() => yamlData(lenient)).toThrow(/indented/);
  });

  it('loads for validate and the like, and lint reports it, cache or none', async () => {
    const file = path.join(scratch, 'lenient.yaml');
    writeFileSync(file, lenient);
    useParseCache(path.join(scratch, 'cache'), 'test');
    for (let run = 0; run < 2; run++) {
      expect((await loadSpec(file)).document['x-rules']).toStrictEqual({ a: [2, { b: 'c' }] });
      await expect(lintSpec(file)).rejects.toThrow(/not valid YAML or JSON: .*indented/);
    }
  });
});

describe('hostile text', () => {
  // Each shape makes a guard or the parser scan far from many places, the way a quadratic pattern would. At 8× the
  // size each must take under 32× the time, the smaller counted as at least 5 ms: a quadratic guard at 400,000
  // characters takes seconds to minutes (the guards this replaced never finished), a linear one 1-200 ms. The sizes
  // run alternately, five times each, the fastest of each counting, so a burst of load slows both or neither. (Five
  // runs of one size, then of the other, under 10× at 4× the size, failed at a load of 20-30 on 2 cores; measured
  // beside three busy loops, the new shapes read 4-30×, js-yaml alone growing alike.)
  const shapes: Record<string, (n: number) => string> = {
    'opening braces': (n) => `k: ${'{'.repeat(n)}`,
    'closing braces and colons': (n) => `k: ${'}: '.repeat(n / 3)}`,
    'pipes and hashes': (n) => `k: ${' |#'.repeat(n / 3)}`,
    'indentation indicators and comments': (n) => `k: ${' |1 #'.repeat(n / 5)}`,
    'a line of tabs': (n) => `k: 1\n${'\t'.repeat(n)}x`,
    'a line of dashes': (n) => `k:\n${'- '.repeat(n / 2)}x`,
    'blank lines after a block header': (n) => `k: |\n${'  \n'.repeat(n / 3)}  x`,
    'flow sequence': (n) => `k: [${'a,'.repeat(n / 2)}]`,
    'flow collections, each followed by blanks': (n) => `k: [${'[ ]\t \t,'.repeat(n / 8)}x]`,
    'flow items each after a comment': (n) => `k: [${'# c [\n [b],\n'.repeat(n / 13)} x]`,
    'nested flow collections closing together': (n) => `k: ${'[{a: '.repeat(50)}b${'}]'.repeat(50)}${' '.repeat(n)}`,
    'many keys': (n) => Array.from({ length: n / 10 }, (_, i) => `k${i}: v`).join('\n'),
  };
  const time = (text: string) => {
    const started = performance.now();
    fastYamlData(text);
    return performance.now() - started;
  };

  it.each(Object.entries(shapes))('%s: linear', (_name, make) => {
    const [smallText, largeText] = [make(50_000), make(400_000)];
    time(make(1000));
    let [small, large] = [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY];
    for (let run = 0; run < 5; run++) {
      small = Math.min(small, time(smallText));
      large = Math.min(large, time(largeText));
    }
    expect(large / Math.max(small, 5)).toBeLessThan(32);
  });
});
