// Decides, conservatively, whether every instance one schema accepts is accepted by another (A ⊆ B), and says why
// not: each reason names the keyword and the instance path, so a change inside allOf/anyOf/oneOf is judged by what
// the schema accepts rather than by how it is written.
import type { Ajv2020 } from 'ajv/dist/2020.js';
import { createAjv } from '../create-ajv.js';
import { compilePattern } from '../pattern-engine.js';
import { patternIncluded } from './pattern-inclusion.js';
import { pointerToPath, type JsonPath } from '../source-locator.js';
import {
  anything,
  canonical,
  constrainsNothing,
  positionSchema,
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
  | 'extensible' // B's x-extensible-enum no longer lists values A's did
  | 'guarantee' // B has a structural keyword A does not (contains, dependentRequired, if/then, propertyNames…)
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
  /** Decided even beside an over-approximated composition (a oneOf that refuses what matches two of its parts). */
  certain?: boolean;
}

export interface Inclusion {
  holds: boolean;
  reasons: Reason[];
}

/** A ⊆ B? Every branch of A must fit some branch of B; the reasons explain the branches that fit none. */
export function includes(a: Norm, b: Norm): Inclusion {
  const reasons = normIncluded(a, b, 0, { budget: workBudget, memo: comparedPairs });
  return { holds: !reasons.some((r) => r.failing), reasons: dedupe(reasons) };
}

/**
 * Every pair of normal forms compared, across calls: a schema shared by many operations (Microsoft Graph's entity
 * types, by thousands) is compared once per pair, not once per operation. Normal forms belong to one diff's
 * normalizers, so the entries go with them.
 */
const comparedPairs: Work['memo'] = new WeakMap();

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
    const included = tried.filter((t) => !t.reasons.some((r) => r.failing));
    // What x fits through two parts of one oneOf, it fits through none: "exactly one" refuses every instance of x.
    // (Only when A is exact, and x fits each strictly: a property only B declares may refuse some of x's values.)
    const clash = a.undecided
      ? undefined
      : oneOfClash(included.filter((t) => !t.reasons.some((r) => r.kind === 'only-in-b')).map((t) => t.y));
    const fits = clash ? included.filter((t) => !passesThrough(t.y, clash)) : included;
    // The same branch in the other version: same titles of the choices that led to it (position when untitled).
    const paired = tried.find((t) => canonical(t.y.originTitles) === canonical(x.originTitles));
    if (clash && fits.length === 0) {
      out.push({
        ...failing(
          'branch',
          '',
          x.src,
          pointerToPath(clash),
          `every value matches more than one branch of the oneOf at ${clash}`,
        ),
        certain: true,
      });
    } else if (fits.length > 0) {
      // A branch that fits with nothing to say first (the same branch moved), then its namesake, then any.
      out.push(...(fits.find((t) => t.reasons.length === 0) ?? fits.find((t) => t === paired) ?? fits[0]!).reasons);
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
    // Past the branch budget a composition is one opaque branch on each side, equal by place: equal is no verdict
    // there (a type changed inside it said "0 changes"), so it stays undecided whatever the branches say.
    if (failures.some((r) => !r.certain) || [...a.branches, ...b.branches].some(pastBudget)) {
      return [...out.filter((r) => !r.failing || r.certain), undecided('', a.at, b.at, (a.undecided ?? b.undecided)!)];
    }
  }
  return out;
}

/** A oneOf (its pointer) two of these branches reach through different parts; undefined when there is none. */
function oneOfClash(branches: Branch[]): string | undefined {
  const chosen = new Map<string, string>();
  for (const branch of branches) {
    for (const origin of branch.origin) {
      const match = /^(.*)\/oneOf\/(\d+)$/.exec(origin);
      if (!match) continue;
      const [, at, index] = match as unknown as [string, string, string];
      const seen = chosen.get(at);
      if (seen !== undefined && seen !== index) return at;
      chosen.set(at, index);
    }
  }
  return undefined;
}

const passesThrough = (branch: Branch, oneOf: string) =>
  branch.origin.some((origin) => origin.startsWith(`${oneOf}/oneOf/`) && /^\d+$/.test(origin.slice(oneOf.length + 7)));

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

const alone = (branch: Branch): Norm => {
  let norm = single.get(branch);
  if (!norm) single.set(branch, (norm = { branches: [branch], at: branch.src }));
  return norm;
};
/** One Norm per lone branch, so the memo knows it when it comes round again. */
const single = new WeakMap<Branch, Norm>();

/** The innermost name a branch carries (a component's or a title), not a position (`anyOf[0]`). */
const namedTitle = (branch: Branch) => branch.originTitles.find((title) => !/^(anyOf|oneOf)\[\d+\]$/.test(title));

/** What a branch is, across versions: its name, else its positions. */
const branchIdentity = (branch: Branch) => namedTitle(branch) ?? branch.originTitles.join('/');

function branchIncluded(x: Branch, y: Branch, depth: number, work: Work): Reason[] {
  if (recursionMeetsObject(x, y)) return [];
  if (x.resolve || y.resolve) {
    // A recursion point met with something else (an array schema, another name): compared as the schema it stands
    // for; the memo ends the recursion (each schema's normal form is one object).
    const whole = (branch: Branch) => branch.resolve?.() ?? alone(branch);
    return normIncluded(whole(x), whole(y), depth + 1, work);
  }
  const out: Reason[] = [];
  const xAt = (keyword: string) => x.at.get(keyword) ?? x.src;
  const yAt = (keyword: string) => y.at.get(keyword) ?? y.src;
  const fail = (kind: ReasonKind, keyword: string, detail: string, values?: unknown[]) =>
    out.push({ ...failing(kind, '', xAt(keyword), yAt(keyword), detail), ...(values ? { values } : {}) });

  out.push(...structuralIncluded(x, y, depth, work));
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

  if (x.extensibleEnum && y.extensibleEnum) {
    const known = enumKeys(y.extensibleEnum);
    const gone = x.extensibleEnum.filter((value) => !known.has(canonical(value)));
    if (gone.length > 0) fail('extensible', 'x-extensible-enum', 'x-extensible-enum', gone);
  }
  if (x.enum) {
    // A finite set: check each value against B exactly.
    const byKind = new Map<ReasonKind, unknown[]>();
    for (const value of reachableEnum(x)) {
      const kind = rejection(y, value);
      if (!kind) continue;
      const values = byKind.get(kind);
      if (values) values.push(value);
      else byKind.set(kind, [value]);
    }
    for (const [kind, values] of byKind) {
      // A `const` promised one value: another is no new enum member but a promise broken.
      if (kind === 'enum' && yAt('enum').at(-1) === 'const')
        fail('guarantee', 'enum', `\`const\` ${show(y.enum)}`, values);
      else fail(kind, kind === 'type' ? 'type' : 'enum', 'enum', values);
    }
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
      fail('min', 'minimum', 'minimum', [boundValue(x.minimum), boundValue(y.minimum)]);
    if (y.maximum && !boundWithin(x.maximum, y.maximum, 'upper'))
      fail('max', 'maximum', 'maximum', [boundValue(x.maximum), boundValue(y.maximum)]);
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
    const positions = Math.max(x.prefixItems?.length ?? 0, y.prefixItems?.length ?? 0);
    for (let index = 0; index < positions; index++) {
      const want = positionSchema(y, index);
      if (want)
        out.push(
          ...under(`/${index}`, normIncluded(positionSchema(x, index) ?? anything(x.src), want, depth + 1, work)),
        );
    }
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
    // A property no value fits (in `allOf` beside additionalProperties: false) is one A's instances never have.
    if (schema.branches.length === 0) continue;
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

/**
 * The keywords the normal form keeps opaque (2020-12's structural ones among them), A ⊆ B: an equal value holds; one
 * B adds that can only narrow is a `guarantee` A lacks; one changed in place is compared by what its schemas accept
 * (covariant: `contains`, `propertyNames`, `then`/`else` under the same `if`, `dependentSchemas` and
 * `patternProperties` per key; contravariant: `not`); anything else changed stays undecided, never a guess.
 */
function structuralIncluded(x: Branch, y: Branch, depth: number, work: Work): Reason[] {
  // Every comparison below reads opaque keywords: most branch pairs have none, and pay nothing here.
  if (x.opaque.size === 0 && y.opaque.size === 0) return [];
  const out: Reason[] = [];
  const xAt = (keyword: string) => x.at.get(keyword) ?? x.src;
  const yAt = (keyword: string) => y.at.get(keyword) ?? y.src;
  const check: StructuralCheck = {
    guarantee: (keyword) =>
      out.push({ ...failing('guarantee', '', xAt(keyword), yAt(keyword), `\`${keyword}\``), values: [keyword] }),
    unsure: (keyword) => out.push(undecided('', xAt(keyword), yAt(keyword), `\`${keyword.replace(/^\$/, '')}\``)),
    compare: (keyword, inner, outer) => {
      const failures = normIncluded(inner, outer, depth + 1, work).filter((r) => r.failing);
      if (failures.some((r) => r.kind !== 'undecided')) check.guarantee(keyword);
      else if (failures.length > 0) check.unsure(keyword);
    },
  };
  for (const [keyword, value] of y.opaque) {
    if (x.opaque.get(keyword) === value || ownHandler.has(keyword) || inert(keyword, y)) continue;
    const mine = x.subschemas.get(keyword);
    const want = y.subschemas.get(keyword);
    if (!x.opaque.has(keyword)) {
      // (An inert keyword never gets here: a lone `if` or `unevaluated*: true` was skipped above.)
      if (narrowingKeywords.has(keyword)) check.guarantee(keyword);
      else check.unsure(keyword);
    } else if (mine && want && keyword === 'not') check.compare(keyword, want, mine);
    else if (mine && want && covariant(keyword, x, y)) check.compare(keyword, mine, want);
    else check.unsure(keyword);
  }
  containsIncluded(x, y, check);
  dependentRequiredIncluded(x, y, check);
  for (const keyword of ['dependentSchemas', 'patternProperties'] as const) keyedIncluded(keyword, x, y, check);
  return out;
}

interface StructuralCheck {
  guarantee(keyword: string): void;
  unsure(keyword: string): void;
  /** `keyword`'s schemas: inner ⊆ outer, else a guarantee lost (or undecided when that is all it can say). */
  compare(keyword: string, inner: Norm, outer: Norm): void;
}

/** Keywords compared by a function of their own below, not one at a time. */
const ownHandler = new Set([
  'contains',
  'minContains',
  'maxContains',
  'dependentRequired',
  'dependentSchemas',
  'patternProperties',
]);

/** Whether a schema keyword, changed in place, accepts more exactly when its schema does. */
function covariant(keyword: string, x: Branch, y: Branch): boolean {
  const same = (other: string) => x.opaque.get(other) === y.opaque.get(other);
  switch (keyword) {
    case 'propertyNames':
    case 'contentSchema':
      return true;
    case 'then':
    case 'else':
      return same('if');
    case 'unevaluatedProperties':
      // Which properties are "unevaluated" must be the same set on both sides.
      return (
        same('patternProperties') &&
        x.additionalProperties === undefined &&
        y.additionalProperties === undefined &&
        x.properties.size === y.properties.size &&
        [...x.properties.keys()].every((name) => y.properties.has(name))
      );
    case 'unevaluatedItems':
      return x.items === undefined && y.items === undefined && x.prefixItems?.length === y.prefixItems?.length;
    default:
      return false;
  }
}

/** `contains` with its counts: at least minContains (default 1), at most maxContains items match its schema. */
function containsIncluded(x: Branch, y: Branch, check: StructuralCheck): void {
  const same = (keyword: string) => x.opaque.get(keyword) === y.opaque.get(keyword);
  if ((same('contains') && same('minContains') && same('maxContains')) || !y.opaque.has('contains')) return;
  if (!x.opaque.has('contains')) {
    check.guarantee('contains');
    return;
  }
  const count = (branch: Branch, keyword: string, fallback: number) => {
    const value = branch.opaque.get(keyword);
    return value === undefined ? fallback : Number(JSON.parse(value));
  };
  const [xMin, yMin] = [count(x, 'minContains', 1), count(y, 'minContains', 1)];
  const [xMax, yMax] = [count(x, 'maxContains', Infinity), count(y, 'maxContains', Infinity)];
  if ([xMin, yMin, xMax, yMax].some(Number.isNaN)) {
    check.unsure('contains');
    return;
  }
  if (!same('contains')) {
    const mine = x.subschemas.get('contains');
    const want = y.subschemas.get('contains');
    // With an upper count, a wider `contains` counts more items: neither direction follows.
    if (!mine || !want || xMax !== Infinity || yMax !== Infinity) {
      check.unsure('contains');
      return;
    }
    check.compare('contains', mine, want);
  }
  if (xMin < yMin) check.guarantee('minContains');
  if (xMax > yMax) check.guarantee('maxContains');
}

/** `dependentRequired`: each name B requires beside a key, A requires too (beside that key, or always). */
function dependentRequiredIncluded(x: Branch, y: Branch, check: StructuralCheck): void {
  const keyword = 'dependentRequired';
  const value = y.opaque.get(keyword);
  if (value === undefined || x.opaque.get(keyword) === value) return;
  const want = objectOf(value);
  const mine = objectOf(x.opaque.get(keyword) ?? '{}');
  if (!want || !mine) {
    check.unsure(keyword);
    return;
  }
  for (const [key, names] of Object.entries(want)) {
    if (!Array.isArray(names)) {
      check.unsure(keyword);
      return;
    }
    const alongside = Array.isArray(mine[key]) ? (mine[key] as unknown[]) : [];
    if (names.some((name) => !x.required.has(String(name)) && !alongside.includes(name))) {
      check.guarantee(keyword);
      return;
    }
  }
}

/**
 * `dependentSchemas` and `patternProperties`, per key: a key on both sides compares its schemas; a key only B has
 * narrows (a pattern only while neither side has `additionalProperties`, which the patterns exempt keys from).
 */
function keyedIncluded(
  keyword: 'dependentSchemas' | 'patternProperties',
  x: Branch,
  y: Branch,
  check: StructuralCheck,
) {
  const xValue = x.opaque.get(keyword);
  const yValue = y.opaque.get(keyword);
  if (xValue === yValue) return;
  // Two allOf parts that set it differently leave it as both values, with no schema per key (mergeOpaque).
  if (xValue?.startsWith('[') || yValue?.startsWith('[')) {
    check.unsure(keyword);
    return;
  }
  const exempting =
    keyword === 'patternProperties' && (x.additionalProperties !== undefined || y.additionalProperties !== undefined);
  if (exempting) {
    check.unsure(keyword);
    return;
  }
  const keys = (branch: Branch) => new Map([...branch.subschemas].filter(([key]) => key.startsWith(`${keyword}/`)));
  const mine = keys(x);
  for (const [key, want] of keys(y)) {
    const own = mine.get(key);
    if (own) check.compare(keyword, own, want);
    else if (!accepting(want)) check.guarantee(keyword);
  }
}

/** A schema with no constraint at all (`{}` or `true`): a key bound to it narrows nothing. */
const accepting = (norm: Norm) => norm.branches.some(constrainsNothing);

function objectOf(json: string): Record<string, unknown> | undefined {
  const value: unknown = JSON.parse(json);
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

const allTypes: JsonType[] = ['null', 'boolean', 'object', 'array', 'number', 'string'];

/** A bound as a message shows it: `9`, or `9 (exclusive)` (else `maximum 9 → 9` hid what changed). */
const boundValue = (bound: Bound | undefined) =>
  bound === undefined ? undefined : bound.exclusive ? `${bound.value} (exclusive)` : bound.value;

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
  if (y.formats.some((format) => !formatHolds(format, value))) return 'constraint';
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
    if (y.uniqueItems && new Set(value.map(canonical)).size < value.length) return 'constraint';
    if (value.some((item, index) => !accepts(positionSchema(y, index) ?? anything([]), item))) return 'constraint';
  }
  if (type === 'object') {
    const object = value as Record<string, unknown>;
    const count = Object.keys(object).length;
    if (count < (y.counts.minProperties ?? 0)) return 'min';
    if (count > (y.counts.maxProperties ?? Infinity)) return 'max';
    if ([...y.required].some((name) => !Object.hasOwn(object, name))) return 'required';
    for (const [name, item] of Object.entries(object)) {
      const schema = y.properties.get(name) ?? y.additionalProperties;
      if (schema && !accepts(schema, item)) return 'constraint';
    }
  }
  return undefined;
}

/**
 * The enum values a branch's other keywords let through (`enum: [MALE, FEMALE]` beside `maxLength: 1` lets none):
 * one that A itself refuses is no value A accepts, and judging it against B made the enum's order matter.
 */
function reachableEnum(branch: Branch): unknown[] {
  let values = reachable.get(branch);
  if (!values) {
    const others = { ...branch, enum: undefined };
    values = branch.enum!.filter((value) => rejection(others, value) === undefined);
    reachable.set(branch, values);
  }
  return values;
}
const reachable = new WeakMap<Branch, unknown[]>();

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

/**
 * Whether `value` satisfies `format` as the validators read it (ajv-formats, through the one ajv setup); a format
 * they do not know constrains nothing there, so nothing here either.
 */
function formatHolds(format: string, value: unknown): boolean {
  let check = formatChecks.get(format);
  if (!check) {
    formatAjv ??= createAjv({ allErrors: false });
    try {
      const validate = formatAjv.compile({ format });
      check = (candidate) => validate(candidate) as boolean;
    } catch {
      check = () => true;
    }
    formatChecks.set(format, check);
  }
  return check(value);
}
let formatAjv: Ajv2020 | undefined;
const formatChecks = new Map<string, (value: unknown) => boolean>();

/** Through the validators' engine: a spec's pattern runs in linear time here too (an enum value may be hostile). */
function safeTest(pattern: string, value: string): boolean {
  try {
    return compilePattern(pattern).test(value);
  } catch {
    return true;
  }
}

/** Values as a reader sees them in a message: JSON, comma-separated. */
export const show = (values: unknown[] | undefined) =>
  (values ?? []).map((value) => JSON.stringify(value) ?? 'undefined').join(', ');

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
  'if',
  'then',
  'else',
  'contentSchema',
  'contentMediaType',
  'contentEncoding',
]);

/**
 * Whether a keyword of `branch` refuses nothing: `unevaluatedProperties` or `unevaluatedItems` true, an `if` with
 * neither `then` nor `else`, a `then` or `else` with no `if` (JSON Schema 2020-12, sections 10.2.2 and 11). Not a
 * lone `if` beside `unevaluated*`: the properties and items it evaluates are ones those no longer refuse.
 */
function inert(keyword: string, branch: Branch): boolean {
  if (keyword === 'unevaluatedProperties' || keyword === 'unevaluatedItems')
    return branch.opaque.get(keyword) === 'true';
  if (keyword === 'if')
    return ['then', 'else', 'unevaluatedProperties', 'unevaluatedItems'].every((other) => !branch.opaque.has(other));
  if (keyword === 'then' || keyword === 'else') return !branch.opaque.has('if');
  return false;
}

function failing(kind: ReasonKind, instancePath: string, aAt: JsonPath, bAt: JsonPath, detail: string): Reason {
  return { kind, failing: true, instancePath, aAt, bAt, detail };
}

/** A branch standing for a composition of more than maxBranches combinations (schema-branches.ts, conjoin). */
const pastBudget = (branch: Branch) => branch.opaque.has('$tooManyBranches');

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
