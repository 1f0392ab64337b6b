// Turns the two inclusions between a schema's versions (BASE ⊆ HEAD, HEAD ⊆ BASE) into rule ids, from the point of
// view of clients: a request that accepts fewer instances breaks them; a response that takes more shapes may.
import type { JsonPath } from '../source-locator.js';
import type { DiffRuleId } from './diff-rules.js';
import type { Norm } from './schema-branches.js';
import { exampleOfBranch } from './branch-example.js';
import { includes, type Reason, show } from './schema-inclusion.js';
import { ownValue, setOwn } from '../own-key.js';

export type SiteKind = 'request' | 'response';

export interface SchemaChange {
  rule: DiffRuleId;
  side: 'base' | 'head';
  path: JsonPath;
  /** Where in the instance: `/order/paymentMethod`; empty for the value itself. */
  instancePath: string;
  message: string;
}

/**
 * Tells whether an instance is accepted by the BASE and by the HEAD schema of the site, with the real validators;
 * a composition verdict shows an example only when they confirm it.
 */
export type ExampleCheck = (instance: unknown) => { base: boolean; head: boolean } | undefined;

/** Changes between two versions of the schema at one site (a body, a parameter). Equal sets: no change at all. */
export function classifySchemaChange(base: Norm, head: Norm, site: SiteKind, check?: ExampleCheck): SchemaChange[] {
  const lost = includes(base, head); // what BASE accepted that HEAD refuses
  const gained = includes(head, base); // what HEAD accepts that BASE refused
  const out: SchemaChange[] = [];
  // A type swapped (integer → string) is one change: report it from the side where it hurts clients.
  const typeAt = (reasons: Reason[]) => new Set(reasons.filter((r) => r.kind === 'type').map((r) => r.instancePath));
  const quiet =
    site === 'request'
      ? { lost: new Set<string>(), gained: typeAt(lost.reasons) }
      : { lost: typeAt(gained.reasons), gained: new Set<string>() };
  const keep = (direction: 'lost' | 'gained') => (r: Reason) =>
    !(r.kind === 'type' && quiet[direction].has(r.instancePath));
  for (const reason of lost.reasons.filter(keep('lost')))
    push(out, withExample(mapReason(reason, 'lost', site), reason, 'lost', { base, head }, check));
  for (const reason of gained.reasons.filter(keep('gained')))
    push(out, withExample(mapReason(reason, 'gained', site), reason, 'gained', { base, head }, check));
  const seen = new Set<string>();
  return out.filter((change) => {
    const key = `${change.rule}\u0000${change.instancePath}\u0000${change.message}`;
    return seen.has(key) ? false : (seen.add(key), true);
  });
}

/** For a branch that fits nothing on the other side: a small instance of it that one version accepts and the other refuses. */
function withExample(
  change: SchemaChange | undefined,
  reason: Reason,
  direction: 'lost' | 'gained',
  sides: { base: Norm; head: Norm },
  check: ExampleCheck | undefined,
): SchemaChange | undefined {
  if (!change || !check || reason.kind !== 'branch' || !reason.branch) return change;
  const part = exampleOfBranch(reason.branch);
  if (part === undefined) return change;
  // A branch deep inside the value is shown inside a whole instance of the version that accepts it.
  const accepting = direction === 'lost' ? sides.base : sides.head;
  const candidates =
    reason.instancePath === ''
      ? [part]
      : accepting.branches.slice(0, 8).map((b) => place(exampleOfBranch(b), reason.instancePath, part));
  for (const instance of candidates) {
    if (instance === undefined) continue;
    const verdict = check(instance);
    if (!verdict || !(direction === 'lost' ? verdict.base && !verdict.head : verdict.head && !verdict.base)) continue;
    const text = JSON.stringify(instance);
    if (text.length > 200) return change;
    const note = direction === 'lost' ? 'accepted before, refused now' : 'refused before, accepted now';
    return { ...change, message: `${change.message}, e.g. ${text} (${note})` };
  }
  return change;
}

/** `value` put at an object path (`/a/b`) inside a copy of `root`; undefined through arrays or undeclared keys. */
function place(root: unknown, pointer: string, value: unknown): unknown {
  const segments = pointer.split('/').slice(1);
  if (root === undefined || segments.some((s) => s === '[]' || s === '*')) return undefined;
  const copy = (
    root !== null && typeof root === 'object' && !Array.isArray(root) ? structuredClone(root) : {}
  ) as Record<string, unknown>;
  let node = copy;
  for (const segment of segments.slice(0, -1)) {
    const next = ownValue(node, segment);
    const object = (next !== null && typeof next === 'object' && !Array.isArray(next) ? next : {}) as Record<
      string,
      unknown
    >;
    setOwn(node, segment, object);
    node = object;
  }
  node[segments.at(-1)!] = value;
  return copy;
}

function push(out: SchemaChange[], change: SchemaChange | undefined): void {
  if (change) out.push(change);
}

function mapReason(reason: Reason, direction: 'lost' | 'gained', site: SiteKind): SchemaChange | undefined {
  const baseAt = direction === 'lost' ? reason.aAt : reason.bAt;
  const headAt = direction === 'lost' ? reason.bAt : reason.aAt;
  const at = (rule: DiffRuleId, side: 'base' | 'head', message: string): SchemaChange => ({
    rule,
    side,
    path: side === 'base' ? baseAt : headAt,
    instancePath: reason.instancePath,
    message,
  });
  // An open set's new or dropped value is what its clients expect, except a value a request could send (above).
  if (reason.kind === 'extensible' && !(site === 'request' && direction === 'lost')) return undefined;
  if (reason.kind === 'undecided')
    return at('schema-change-undecided', 'head', `cannot decide what changed in ${reason.detail}; review it by hand`);
  if (site === 'request') return direction === 'lost' ? requestLost(reason, at) : requestGained(reason, at);
  return direction === 'gained' ? responseGained(reason, at) : responseLost(reason, at);
}

/** Builds a change at the base's or the head's schema. */
type At = (rule: DiffRuleId, side: 'base' | 'head', message: string) => SchemaChange;

/** What a request body may no longer be: each a break for the clients that sent it. */
function requestLost(reason: Reason, at: At): SchemaChange | undefined {
  const [first, second] = reason.values ?? [];
  switch (reason.kind) {
    case 'type':
      return at('request-type-narrowed', 'head', `no longer accepts type ${show(reason.values)}`);
    case 'enum':
      return at('request-enum-value-removed', 'base', `no longer accepts ${show(reason.values)}`);
    case 'extensible':
      return at('request-enum-value-removed', 'base', `no longer lists ${show(reason.values)} (x-extensible-enum)`);
    case 'max':
      return at('request-max-lowered', 'head', `${reason.detail} ${bounds(first, second)}`);
    case 'min':
      return at('request-min-raised', 'head', `${reason.detail} ${bounds(first, second)}`);
    case 'pattern':
      return at('request-pattern-added', 'head', `must now match ${show(reason.values)}`);
    case 'constraint':
      return at('request-constraint-added', 'head', `now restricted by ${reason.detail} ${show(reason.values)}`);
    case 'guarantee':
      // A keyword's detail names it already; a `const` also says which values it turns away.
      return at(
        'request-constraint-added',
        'head',
        `now restricted by ${reason.detail}${promisedConst(reason) ? `: no longer accepts ${show(reason.values)}` : ''}`,
      );
    case 'required':
    case 'removed-required':
      return at('request-property-required-added', 'head', `is now required`);
    case 'closed':
      return at('request-property-rejected', 'head', `is refused now (additionalProperties: false)`);
    case 'branch':
      return at(
        'request-composition-narrowed',
        'base',
        `${reason.detail} is gone: bodies only it accepted are refused now`,
      );
    case 'only-in-a':
      return at('request-property-undocumented', 'base', `is no longer documented; the server may ignore it`);
    case 'default':
      return at('request-default-changed', 'head', `default changed from ${show([first])} to ${show([second])}`);
    default:
      return undefined;
  }
}

/** What a request body may be now that it could not be before. */
function requestGained(reason: Reason, at: At): SchemaChange | undefined {
  const [first, second] = reason.values ?? [];
  switch (reason.kind) {
    case 'only-in-a':
    case 'closed':
      if (reason.kind === 'closed' && reason.instancePath.endsWith('/*'))
        return at('request-constraint-relaxed', 'head', 'undeclared fields are accepted now');
      return reason.requiredInA ? undefined : at('request-property-added', 'head', 'new optional field');
    case 'branch':
      return at('request-composition-widened', 'head', `${reason.detail} is new: more bodies are accepted`);
    case 'only-in-b':
    case 'default':
      return undefined;
    default:
      return at(
        'request-constraint-relaxed',
        'head',
        `accepts more (${reason.kind === 'required' || reason.kind === 'removed-required' ? 'no longer required' : reason.detail}${reason.kind === 'min' || reason.kind === 'max' ? ` ${bounds(second, first)}` : ''})`,
      );
  }
}

/** What a response may be now: each a break for the clients that read it. */
function responseGained(reason: Reason, at: At): SchemaChange | undefined {
  const [first, second] = reason.values ?? [];
  switch (reason.kind) {
    case 'type': {
      const types = reason.values ?? [];
      return types.length === 1 && types[0] === 'null'
        ? at('response-property-became-nullable', 'head', 'may now be null')
        : at('response-type-changed', 'head', `may now be of type ${show(types)}`);
    }
    case 'enum':
      return at('response-enum-value-added', 'head', `may now be ${show(reason.values)}`);
    case 'required':
      return at('response-property-became-optional', 'head', 'was required, may now be absent');
    case 'removed-required':
      return at('response-property-removed', 'base', 'was required and is removed');
    case 'branch':
      return at(
        'response-composition-widened',
        'head',
        `${reason.detail} is new: clients may meet a shape they never saw`,
      );
    case 'only-in-a':
      return at('response-property-added', 'head', 'new field');
    case 'closed':
      if (reason.instancePath.endsWith('/*'))
        return at('response-constraint-relaxed', 'head', 'undeclared fields may appear now');
      return at('response-property-added', 'head', 'new field');
    case 'only-in-b':
      return at('response-optional-property-removed', 'base', 'optional field removed');
    case 'guarantee':
      return at(
        'response-guarantee-removed',
        'base',
        `no longer promises ${reason.detail}${promisedConst(reason) ? `: may now be ${show(reason.values)}` : ''}`,
      );
    case 'default':
      return undefined;
    default:
      return at(
        'response-constraint-relaxed',
        'head',
        `${reason.detail} relaxed${reason.kind === 'min' || reason.kind === 'max' ? ` ${bounds(second, first)}` : ''}`,
      );
  }
}

/** What a response can no longer be. */
function responseLost(reason: Reason, at: At): SchemaChange | undefined {
  const [first, second] = reason.values ?? [];
  switch (reason.kind) {
    case 'branch':
      return at('response-composition-narrowed', 'base', `${reason.detail} is gone: fewer shapes are returned`);
    case 'only-in-a':
    case 'only-in-b':
    case 'default':
      return undefined;
    default:
      return at(
        'response-constraint-tightened',
        'head',
        reason.kind === 'enum'
          ? `no longer ${show(reason.values)}`
          : `${reason.detail} tightened${reason.kind === 'min' || reason.kind === 'max' ? ` ${bounds(first, second)}` : ''}`,
      );
  }
}

/** A `const` B promised (an enum value against it is a guarantee broken): its message also names the values. */
const promisedConst = (reason: Reason) => reason.detail.startsWith('`const`');

function bounds(from: unknown, to: unknown): string {
  return `${from === undefined ? 'none' : String(from)} → ${to === undefined ? 'none' : String(to)}`;
}
