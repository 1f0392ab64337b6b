// Decides, conservatively, whether every instance one schema accepts is accepted by another (A ⊆ B), and says why
// not: each reason names the keyword and the instance path, so a change inside allOf/anyOf/oneOf is judged by what
// the schema accepts rather than by how it is written.
import { compilePattern } from '../pattern-engine.js';
import { patternIncluded } from './pattern-inclusion.js';
import { pointerToPath, type JsonPath } from '../source-locator.js';
import {
  anything,
  canonical,
  typeCovers,
  typeOfValue,
  type Bound,
  type Branch,
  type CountKeyword,
  type JsonType,
  type Norm,
} from './schema-branches.js';

export type ReasonKind =
  | 'type' // A allows a type B does not
  | 'enum' // A allows enum values B does not
  | 'max' // B has a lower upper bound (maximum, maxLength, maxItems, maxProperties)
  | 'min' // B has a higher lower bound
  | 'pattern' // B requires a pattern A does not
  | 'constraint' // B requires a format, multipleOf, uniqueItems or an enum A does not
  | 'required' // B requires a property A does not
  | 'removed-required' // B requires a property A no longer declares at all
  | 'closed' // B refuses a property (or undeclared properties) A accepts
  | 'branch' // an anyOf/oneOf branch of A is included in no branch of B
  | 'undecided' // could not decide (opaque keyword, overlapping oneOf)
  | 'only-in-a' // not a failure: A declares a property B does not (B is open)
  | 'only-in-b' // not a failure: B declares a property A does not (A is open)
  | 'default'; // not a failure: the default differs

export interface Reason {
  kind: ReasonKind;
  failing: boolean;
  /** JSON pointer into the instance: `/order/paymentMethod`, `/items/[]`. */
  instancePath: string;
  /** Where the keyword is written in A's document and in B's. */
  aAt: JsonPath;
  bAt: JsonPath;
  detail: string;
  values?: unknown[];
  /** For only-in-a: A requires the property. */
  requiredInA?: boolean;
  /** For branch: the branch of A that fits nothing in B. */
  branch?: Branch;
}

export interface Inclusion {
  holds: boolean;
  reasons: Reason[];
}

/** A ⊆ B? Every branch of A must fit some branch of B; the reasons explain the branches that fit none. */
export function includes(a: Norm, b: Norm): Inclusion {
  const reasons = normIncluded(a, b, 0, { budget: workBudget, memo: new WeakMap() });
  return { holds: !reasons.some((r) => r.failing), reasons: dedupe(reasons) };
}

const maxDepth = 64;
/** Branch comparisons one inclusion may make: past it the rest is undecided, so time stays bounded. */
export const workBudget = 200_000;

interface Work {
  budget: number;
  /** Pairs already compared (schemas shared through $ref meet many times); reasons relative to the pair. */
  memo: WeakMap<Norm, Map<Norm, Reason[]>>;
}

const under = (path: string, reasons: Reason[]) =>
  path === '' ? reasons : reasons.map((r) => ({ ...r, instancePath: path + r.instancePath }));

function normIncluded(a: Norm, b: Norm, depth: number, work: Work): Reason[] {
  const known = work.memo.get(a)?.get(b);
  if (known) return known;
  if (!work.memo.has(a)) work.memo.set(a, new Map());
  // While a pair is being compared, meeting it again inside itself (a recursive schema) assumes it holds: the
  // comparison under way decides it.
  work.memo.get(a)!.set(b, []);
  const reasons = compareNorms(a, b, depth, work);
  work.memo.get(a)!.set(b, reasons);
  return reasons;
}

function compareNorms(a: Norm, b: Norm, depth: number, work: Work): Reason[] {
  if (depth > maxDepth) return [undecided('', a.at, b.at, 'schemas nested deeper than 64 levels')];
  work.budget -= a.branches.length * b.branches.length;
  if (work.budget < 0) return [undecided('', a.at, b.at, `${pathLabel(a.at)} (too many combinations to compare)`)];
  const out: Reason[] = [];
  for (const x of a.branches) {
    const tried = b.branches.map((y) => ({ y, reasons: branchIncluded(x, y, depth, work) }));
    const fits = tried.filter((t) => !t.reasons.some((r) => r.failing));
    // The same branch in the other version: same titles of the choices that led to it (position when untitled).
    const paired = tried.find((t) => canonical(t.y.originTitles) === canonical(x.originTitles));
    if (fits.length > 0) {
      out.push(...(fits.find((t) => t === paired) ?? fits[0]!).reasons);
    } else if (paired) {
      out.push(...paired.reasons);
    } else if (
      x.types?.length === 1 &&
      !b.branches.some((y) => y.types === undefined || typeCovers(y.types, x.types![0]!))
    ) {
      // A branch of a type the other side never has: a type change, whatever composition carries it.
      out.push({ ...failing('type', '', x.at.get('type') ?? x.src, b.at, 'type'), values: [x.types[0]] });
    } else if (b.branches.length === 0) {
      out.push(failing('closed', '', x.src, b.at, 'no value is accepted here any more'));
    } else {
      const title = namedTitle(x) ?? x.originTitles.at(-1);
      const where = x.origin.at(-1)?.replace(/\/(anyOf|oneOf)\/\d+$/, '/$1');
      const describe =
        title && where
          ? `"${title}" of the ${where.split('/').at(-1)} at ${where.replace(/\/(anyOf|oneOf)$/, '')}`
          : 'a shape';
      const branchAt = x.origin.length > 0 ? pointerToPath(x.origin.at(-1)!) : x.src;
      out.push({ ...failing('branch', '', branchAt, b.at, describe), values: [title ?? ''], branch: x });
    }
  }
  if (a.undecided || b.undecided) {
    const failures = out.filter((r) => r.failing);
    if (failures.length > 0) {
      return [...out.filter((r) => !r.failing), undecided('', a.at, b.at, (a.undecided ?? b.undecided)!)];
    }
  }
  return out;
}

/**
 * A recursion point (see Branch.resolve) met with an object schema of the same name: the schema it stands for is compared
 * further out already, and that comparison decides (coinduction). Where a schema recurs depends on the order its
 * properties are walked in, so a cut on one side faces a whole schema on the other: compared as "anything", it made
 * every required field "removed" (Stripe with its keys reordered: 10,931 false breaking changes).
 */
function recursionMeetsObject(x: Branch, y: Branch): boolean {
  if (!x.resolve && !y.resolve) return false;
  // An anyOf/oneOf branch is the schema its name says: a recursion point for `application` is no `charge`.
  if (branchIdentity(x) !== branchIdentity(y)) return false;
  const other = x.resolve ? y : x;
  return other.resolve !== undefined || other.types === undefined || other.types.includes('object');
}

/** The innermost name a branch carries (a component's or a title), not a position (`anyOf[0]`). */
const namedTitle = (branch: Branch) => branch.originTitles.find((title) => !/^(anyOf|oneOf)\[\d+\]$/.test(title));

/** What a branch is, across versions: its name, else its positions. */
const branchIdentity = (branch: Branch) => namedTitle(branch) ?? branch.originTitles.join('/');

function branchIncluded(x: Branch, y: Branch, depth: number, work: Work): Reason[] {
  if (recursionMeetsObject(x, y)) return [];
  const out: Reason[] = [];
  const xAt = (keyword: string) => x.at.get(keyword) ?? x.src;
  const yAt = (keyword: string) => y.at.get(keyword) ?? y.src;
  const fail = (kind: ReasonKind, keyword: string, detail: string, values?: unknown[]) =>
    out.push({ ...failing(kind, '', xAt(keyword), yAt(keyword), detail), ...(values ? { values } : {}) });

  for (const [keyword, value] of y.opaque) {
    if (x.opaque.get(keyword) === value) continue;
    // A keyword that can only narrow, present in B and absent from A: A accepts what B's keyword refuses.
    if (!x.opaque.has(keyword) && onlyNarrows(keyword, y)) fail('constraint', keyword, `\`${keyword}\``, [keyword]);
    else out.push(undecided('', xAt(keyword), yAt(keyword), `\`${keyword.replace(/^\$/, '')}\``));
  }
  if (x.hasDefault !== y.hasDefault || canonical(x.default) !== canonical(y.default)) {
    out.push({
      kind: 'default',
      failing: false,
      instancePath: '',
      aAt: xAt('default'),
      bAt: yAt('default'),
      detail: 'default',
      values: [x.default, y.default],
    });
  }

  if (x.enum) {
    // A finite set: check each value against B exactly.
    const byKind = new Map<ReasonKind, unknown[]>();
    for (const value of x.enum) {
      const kind = rejection(y, value);
      if (!kind) continue;
      const values = byKind.get(kind);
      if (values) values.push(value);
      else byKind.set(kind, [value]);
    }
    for (const [kind, values] of byKind) fail(kind, kind === 'type' ? 'type' : 'enum', 'enum', values);
    return out;
  }

  const xTypes: readonly JsonType[] = x.types ?? allTypes;
  const yTypes: readonly JsonType[] | undefined = y.types;
  const extra = yTypes ? xTypes.filter((t) => !typeCovers(yTypes, t)) : [];
  if (extra.length > 0) fail('type', 'type', 'type', extra);
  const shared = yTypes ? xTypes.filter((t) => typeCovers(yTypes, t)) : xTypes;
  const has = (...types: JsonType[]) => types.some((t) => shared.includes(t));
  if (shared.length === 0) return out;

  if (y.enum) fail('constraint', 'enum', 'an enum', y.enum);
  if (has('number', 'integer')) {
    if (y.minimum && !boundWithin(x.minimum, y.minimum, 'lower'))
      fail('min', 'minimum', 'minimum', [x.minimum?.value, y.minimum.value]);
    if (y.maximum && !boundWithin(x.maximum, y.maximum, 'upper'))
      fail('max', 'maximum', 'maximum', [x.maximum?.value, y.maximum.value]);
    for (const m of y.multipleOf)
      if (!x.multipleOf.some((n) => Number.isInteger(n / m))) fail('constraint', 'multipleOf', 'multipleOf', [m]);
  }
  const counts = (keywords: CountKeyword[]) => {
    for (const keyword of keywords) {
      const want = y.counts[keyword];
      if (want === undefined) continue;
      const mine = x.counts[keyword];
      const ok = mine !== undefined && (keyword.startsWith('min') ? mine >= want : mine <= want);
      if (!ok) fail(keyword.startsWith('min') ? 'min' : 'max', keyword, keyword, [mine, want]);
    }
  };
  if (has('string')) {
    counts(['minLength', 'maxLength']);
    for (const pattern of y.patterns) {
      if (x.patterns.includes(pattern)) continue;
      const included = patternIncluded(x.patterns, pattern);
      if (included === false) fail('pattern', 'pattern', 'pattern', [pattern]);
      else if (included === undefined)
        out.push(
          undecided(
            '',
            xAt('pattern'),
            yAt('pattern'),
            `whether every string the old pattern accepts matches ${JSON.stringify(pattern)} (a pattern the automata cannot read)`,
          ),
        );
    }
    for (const format of y.formats) if (!x.formats.includes(format)) fail('constraint', 'format', 'format', [format]);
  }
  if (has('array')) {
    counts(['minItems', 'maxItems']);
    if (y.uniqueItems && !x.uniqueItems) fail('constraint', 'uniqueItems', 'uniqueItems', [true]);
    if (y.items) out.push(...under('/[]', normIncluded(x.items ?? anything(x.src), y.items, depth + 1, work)));
  }
  if (has('object')) {
    counts(['minProperties', 'maxProperties']);
    objectIncluded(x, y, depth, work, out);
  }
  return out;
}

function objectIncluded(x: Branch, y: Branch, depth: number, work: Work, out: Reason[]): void {
  for (const name of y.required) {
    if (x.required.has(name)) continue;
    const removed = !x.properties.has(name) && y.properties.has(name);
    out.push({
      ...failing(
        removed ? 'removed-required' : 'required',
        `/${name}`,
        x.properties.get(name)?.at ?? x.src,
        y.at.get(`required:${name}`) ?? y.src,
        'required',
      ),
      values: [name],
    });
  }
  const xClosed = x.additionalProperties?.branches.length === 0;
  const yClosed = y.additionalProperties?.branches.length === 0;
  for (const [name, schema] of x.properties) {
    const path = `/${name}`;
    const other = y.properties.get(name);
    if (other) out.push(...under(path, normIncluded(schema, other, depth + 1, work)));
    else if (yClosed)
      out.push({
        ...failing('closed', path, schema.at, y.at.get('additionalProperties') ?? y.src, 'refused'),
        values: [name],
        requiredInA: x.required.has(name),
      });
    else if (y.additionalProperties)
      out.push(...under(path, normIncluded(schema, y.additionalProperties, depth + 1, work)));
    else
      out.push({
        kind: 'only-in-a',
        failing: false,
        instancePath: path,
        aAt: schema.at,
        bAt: y.src,
        detail: 'declared',
        values: [name],
        requiredInA: x.required.has(name),
      });
  }
  for (const [name, schema] of y.properties) {
    if (x.properties.has(name) || xClosed) continue;
    const path = `/${name}`;
    if (x.additionalProperties) out.push(...under(path, normIncluded(x.additionalProperties, schema, depth + 1, work)));
    else if (!(y.required.has(name) && !x.required.has(name))) {
      out.push({
        kind: 'only-in-b',
        failing: false,
        instancePath: path,
        aAt: x.src,
        bAt: schema.at,
        detail: 'declared',
        values: [name],
      });
    }
  }
  if (y.additionalProperties && !xClosed) {
    if (yClosed)
      out.push(
        failing('closed', '/*', x.src, y.at.get('additionalProperties') ?? y.src, 'additionalProperties: false'),
      );
    else
      out.push(
        ...under(
          '/*',
          normIncluded(x.additionalProperties ?? anything(x.src), y.additionalProperties, depth + 1, work),
        ),
      );
  }
}

const allTypes: JsonType[] = ['null', 'boolean', 'object', 'array', 'number', 'string'];

/** Is `inner` at least as tight as `outer` on this side? (An absent inner bound is unbounded.) */
function boundWithin(inner: Bound | undefined, outer: Bound, side: 'lower' | 'upper'): boolean {
  if (!inner) return false;
  if (inner.value === outer.value) return inner.exclusive || !outer.exclusive;
  return side === 'lower' ? inner.value > outer.value : inner.value < outer.value;
}

/** Why branch `y` refuses `value`, or undefined when it accepts it. */
export function rejection(y: Branch, value: unknown): ReasonKind | undefined {
  const type = typeOfValue(value);
  if (y.types && !typeCovers(y.types, type)) return 'type';
  if (y.enum && !enumKeys(y.enum).has(canonical(value))) return 'enum';
  if (typeof value === 'number') {
    if (y.minimum && (value < y.minimum.value || (y.minimum.exclusive && value === y.minimum.value))) return 'min';
    if (y.maximum && (value > y.maximum.value || (y.maximum.exclusive && value === y.maximum.value))) return 'max';
    if (y.multipleOf.some((m) => !Number.isInteger(value / m))) return 'constraint';
  }
  if (typeof value === 'string') {
    const length = [...value].length;
    if (length < (y.counts.minLength ?? 0)) return 'min';
    if (length > (y.counts.maxLength ?? Infinity)) return 'max';
    if (y.patterns.some((p) => !safeTest(p, value))) return 'pattern';
  }
  if (Array.isArray(value)) {
    if (value.length < (y.counts.minItems ?? 0)) return 'min';
    if (value.length > (y.counts.maxItems ?? Infinity)) return 'max';
    if (y.items && value.some((item) => !accepts(y.items!, item))) return 'constraint';
  }
  if (type === 'object') {
    const object = value as Record<string, unknown>;
    if ([...y.required].some((name) => !(name in object))) return 'required';
    for (const [name, item] of Object.entries(object)) {
      const schema = y.properties.get(name) ?? y.additionalProperties;
      if (schema && !accepts(schema, item)) return 'constraint';
    }
  }
  return undefined;
}

// An enum's values as canonical JSON, built once per enum: testing a value is then one lookup, so comparing two
// enums of n values costs n canonical forms on each side, not n² (20k values took minutes).
const enumKeySets = new WeakMap<unknown[], Set<string>>();

function enumKeys(values: unknown[]): Set<string> {
  let keys = enumKeySets.get(values);
  if (!keys) {
    keys = new Set(values.map(canonical));
    enumKeySets.set(values, keys);
  }
  return keys;
}

export function accepts(norm: Norm, value: unknown): boolean {
  return norm.branches.some((branch) => rejection(branch, value) === undefined);
}

/** Through the validators' engine: a spec's pattern runs in linear time here too (an enum value may be hostile). */
function safeTest(pattern: string, value: string): boolean {
  try {
    return compilePattern(pattern).test(value);
  } catch {
    return true;
  }
}

const pathLabel = (at: JsonPath) => '/' + at.join('/');

/**
 * 2020-12 keywords that, added to a schema, can only refuse more (never accept what it refused): `contains`,
 * `dependentRequired`, `dependentSchemas`, `propertyNames`, `not`, `unevaluated*`, `then`/`else` (and `if` with one
 * of them), and the `content*` keywords that document what a string holds. Added, they narrow; removed, they widen;
 * changed, they stay undecided. `prefixItems` and `patternProperties` are not among them: beside `items` or
 * `additionalProperties: false` they can let through what was refused.
 */
const narrowingKeywords = new Set([
  'contains',
  'minContains',
  'maxContains',
  'dependentRequired',
  'dependentSchemas',
  'propertyNames',
  'not',
  'unevaluatedProperties',
  'unevaluatedItems',
  'then',
  'else',
  'contentSchema',
  'contentMediaType',
  'contentEncoding',
]);

function onlyNarrows(keyword: string, branch: Branch): boolean {
  if (keyword === 'if') return branch.opaque.has('then') || branch.opaque.has('else');
  if ((keyword === 'unevaluatedProperties' || keyword === 'unevaluatedItems') && branch.opaque.get(keyword) === 'true')
    return false;
  return narrowingKeywords.has(keyword);
}

function failing(kind: ReasonKind, instancePath: string, aAt: JsonPath, bAt: JsonPath, detail: string): Reason {
  return { kind, failing: true, instancePath, aAt, bAt, detail };
}

function undecided(instancePath: string, aAt: JsonPath, bAt: JsonPath, detail: string): Reason {
  return failing('undecided', instancePath, aAt, bAt, detail);
}

function dedupe(reasons: Reason[]): Reason[] {
  const seen = new Map<string, Reason>();
  for (const reason of reasons) {
    const key = canonical([
      reason.kind,
      reason.instancePath,
      reason.detail,
      reason.values ?? null,
      reason.aAt,
      reason.bAt,
    ]);
    if (!seen.has(key)) seen.set(key, reason);
  }
  return [...seen.values()];
}
