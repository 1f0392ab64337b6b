// A fast way to the data of a YAML text, for a cold start: js-yaml parses a spec some three times faster than yaml
// does on a first, unoptimised run (the 43 kB webhooks spec: about 12 ms against 40), and a command that only needs
// the data (validate, check, fuzz) need not wait for yaml's document model. yaml stays the reference: this path
// answers only for texts on which the two parsers are known to agree, and returns undefined for anything else, which
// then goes to yaml (load-spec.ts, read-config.ts), as does every text with an error.
//
// Where they differ, and what sends a text to yaml instead:
// - plain scalars: js-yaml's own core schema reads 0b101, 0o17 and 1_000 differently; the four types below resolve
//   plain scalars exactly as yaml's core schema does (yaml/dist/schema/core), and under tags of our own, so that
// - any explicit tag (`!!str`, `!`, `!custom`), anchor or alias (yaml bounds how often an alias expands; a copy
//   shared between places is not JSON data) sends the text to yaml;
// - a directive (`%YAML 1.1` changes the schema in yaml) sends it to yaml;
// - keys: yaml turns a null key into "" and a collection key into its flow text (`[ a ]`), js-yaml into "null", or
//   the items joined ("a", "a,b", "[object Object]"): a flow collection js-yaml reads as a key (found as it reads,
//   flow-collection-keys.ts), and a key reading null, holding a comma or "[object ", send the text to yaml; so
//   does __proto__;
// - js-yaml refuses what yaml does not always refuse (a key twice as 1 and "1", a nesting deeper than 100, more
//   than one document): any exception sends the text to yaml, which says where the error is, or parses it.
// tests/core/fast-yaml.test.ts holds the two parsers to the same data on generated YAML and on public specs.
import jsYaml from 'js-yaml';
import { flowKeyWatcher, type LoaderState } from './flow-collection-keys.js';

const ours = 'tag:contracts-kit,2026:';

// yaml/dist/schema/core: null, bool, int (octal, decimal, hex), float (nan/inf, exponent, fraction); the order
// and the tests as there.
const nullTest = /^(?:~|[Nn]ull|NULL)?$/;
const boolTest = /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/;
const intOctTest = /^0o[0-7]+$/;
const intTest = /^[-+]?[0-9]+$/;
const intHexTest = /^0x[0-9a-fA-F]+$/;
const floatNaNTest = /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/;
const floatExpTest = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/;
const floatTest = /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/;

/** The value yaml's core schema gives a plain scalar, or undefined when it stays a string. */
export function coreScalar(text: string): null | boolean | number | undefined {
  if (nullTest.test(text)) return null;
  if (boolTest.test(text)) return text[0] === 't' || text[0] === 'T';
  if (intOctTest.test(text)) return Number.parseInt(text.substring(2), 8);
  if (intTest.test(text)) return Number.parseInt(text, 10);
  if (intHexTest.test(text)) return Number.parseInt(text.substring(2), 16);
  if (floatNaNTest.test(text)) {
    if (text.slice(-3).toLowerCase() === 'nan') return Number.NaN;
    return text[0] === '-' ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  }
  if (floatExpTest.test(text) || floatTest.test(text)) return Number.parseFloat(text);
  return undefined;
}

/** One type for every plain scalar yaml's core schema does not leave a string. */
const coreType = new jsYaml.Type(`${ours}core`, {
  kind: 'scalar',
  // js-yaml asks of plain scalars only (its implicit types); the empty scalar comes as null.
  resolve: (data: string | null) => data === null || coreScalar(data) !== undefined,
  construct: (data: string | null) => (data === null ? null : coreScalar(data)),
});

const schema = jsYaml.FAILSAFE_SCHEMA.extend({ implicit: [coreType] });

/**
 * Texts sent to yaml whole, found by their text alone (the head of this file says why). Each pattern runs in time
 * linear in the text: none scans to a line's end from more than one place on the line (a spec is hostile input).
 */
const deferred = [
  // A directive.
  /^%/m,
  // Three dashes or dots at a line's start followed by more on the line: js-yaml ends or starts a document there,
  // yaml reads on (`---a` is a plain scalar).
  /^(?:---|\.\.\.)[^ \t\r\n]/m,
  // An explicit key (`? `): a collection key, or a null one. (A flow collection as a key: flow-collection-keys.ts.)
  /(?:^|[ \t,[{])\?(?:[ \t\r\n]|$)/m,
  // A block scalar with an indentation indicator (`|2`) or keeping its final line breaks (`|+`): the two parsers
  // disagree on some of their edge cases.
  /(?:^|[ \t])[|>](?:[1-9][-+]?|-[1-9]|\+[1-9]?)(?=[ \t\r\n]|$)/m,
  // An empty sequence item (a line of dashes alone, `-` or `- -`): after one in a nested sequence, js-yaml puts the
  // outer sequence's next item inside it.
  /^[ \t]*(?:-[ \t]+)*-[ \t]*(?:#.*)?$/m,
  // A line of white space with a tab in it, or a block scalar whose first line starts with a tab after the
  // indentation (and, to find that in linear time, any block scalar header with a comment): the two read the block
  // scalar differently.
  /^ *\t[ \t]*\r?$/m,
  /[|>][-+]?[ \t]*\r?\n(?:[ \t]*\r?\n)* *\t/,
  /(?:^|[ \t])[|>][-+1-9]*[ \t]+#/m,
  // In double quotes, a line broken by an escape (a backslash at the line's end) and followed by an empty line.
  /\\\r?\n[ \t]*\r?\n/,
];

class NotOurs extends Error {}

interface ListenerState extends LoaderState {
  tag: string | null | undefined;
  anchor: string | null | undefined;
}

/**
 * The data of `text` as yaml would give it (`parseDocument(text, { uniqueKeys: true }).toJS()`), or undefined when
 * this path cannot vouch for that: the caller then asks yaml.
 */
export function fastYamlData(text: string): unknown {
  if (deferred.some((pattern) => pattern.test(text))) return undefined;
  let data: unknown;
  const flowKey = flowKeyWatcher();
  try {
    data = jsYaml.load(text, {
      schema,
      listener(event, state) {
        // The loader's state as a node starts (the properties read for it so far) and when it is done (its tag and
        // anchor), which @types/js-yaml does not declare. Both: a node cut short (`!t` then `...`) closes without.
        const loader = state as unknown as ListenerState;
        const { tag, anchor } = loader;
        // (Before the first node, neither is set.)
        if (anchor !== null && anchor !== undefined) throw new NotOurs();
        if (tag !== null && tag !== undefined && tag !== '?' && tag !== `${ours}core`) throw new NotOurs();
        if (flowKey(event, loader)) throw new NotOurs();
      },
    });
  } catch {
    return undefined;
  }
  // Only a mapping at the top (a spec, a config): a scalar there is read differently in some edge cases (an
  // indented block scalar whose next line is less indented) and is no spec.
  if (data === null || typeof data !== 'object' || Array.isArray(data) || !keysAgree(data)) return undefined;
  return data;
}

/** Whether every key of every mapping in `data` is one both parsers write alike (see the head of this file). */
function keysAgree(data: unknown): boolean {
  const stack: unknown[] = [data];
  while (stack.length > 0) {
    const item = stack.pop();
    if (item === null || typeof item !== 'object') continue;
    if (Array.isArray(item)) {
      for (const child of item) stack.push(child);
      continue;
    }
    // (__proto__, enumerable or not, by hasOwn.)
    if (Object.hasOwn(item, '__proto__')) return false;
    for (const key of Object.keys(item)) {
      if (key === 'null' || key.includes(',') || key.includes('[object ')) return false;
    }
    for (const child of Object.values(item)) stack.push(child);
  }
  return true;
}
