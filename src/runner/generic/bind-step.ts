// The values a step's parameters take from what the run sent before it, by the resource model's bindings (each
// parameter's sources, in the model's order: links, then inferred). The runtime expressions are OpenAPI's
// (https://spec.openapis.org/oas/v3.1.0#runtime-expressions): `$response.body#/pointer`, `$request.path.NAME`, and
// `$response.header.Location` read against the resource's item path. A step that changes something (PUT, PATCH,
// DELETE, a POST that is no create) binds its path only from the run's own creates: it never touches what it did
// not make.
import { resolveLinkSource, statusMatches } from '../../core/link-graph.js';
import type { OperationModel, ParamModel, ParamValue } from '../../core/request-model.js';
import type { Binding, BindingSource } from '../../core/resource-model/types.js';
import type { ConformanceStep } from './conformance-plan.js';
import type { Instance, RunLedger, SentExchange } from './run-ledger.js';

export interface BoundValues {
  path: Record<string, ParamValue>;
  query: Record<string, ParamValue>;
  headers: Record<string, ParamValue>;
}

/**
 * Why a step cannot be sent: `target` when what the target answered kept it from a value (a create refused), else
 * the spec's doing (no source for the parameter) or the user's (--read-only sent no create).
 */
export interface Unbound {
  reason: string;
  cause: 'spec' | 'target';
}

const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

export function changesState(step: ConformanceStep): boolean {
  return !safeMethods.has(step.operation.method.toUpperCase());
}

/** Binds every parameter the model has sources for; a path parameter without a value makes the step unbound. */
export function bindStep(
  step: ConformanceStep,
  model: OperationModel,
  ledger: RunLedger,
  anchor: Instance | undefined,
  creates: ReadonlySet<string>,
): BoundValues | Unbound {
  const bound: BoundValues = { path: {}, query: {}, headers: {} };
  // Only what the run made may be changed: a PUT/PATCH/DELETE (or an action) binds its path from creates alone.
  const ownOnly = changesState(step) && step.stage !== 'create';
  for (const binding of step.operation.bindings) {
    const param = model.params.find((candidate) => candidate.in === binding.in && candidate.name === binding.parameter);
    if (param === undefined) continue;
    const sources = ownOnly ? binding.sources.filter((source) => creates.has(source.operationId)) : binding.sources;
    const value = firstValue(sources, ledger, anchor);
    const bag = binding.in === 'header' ? bound.headers : bound[binding.in];
    if (value !== undefined) {
      bag[binding.parameter] = value;
      continue;
    }
    // A query or header parameter keeps its generated value; a path names the resource, and must be bound.
    if (binding.in !== 'path' || clientChooses(step, binding)) continue;
    const example = changesState(step) ? undefined : documentedValue(param);
    if (example !== undefined && binding.sources.length === 0) {
      bag[binding.parameter] = example;
      continue;
    }
    return unbound(binding, sources, ledger);
  }
  // A change with no path to a resource the run made (`PUT /settings`, `POST /reindex`) would change what it did not.
  if (ownOnly && Object.keys(bound.path).length === 0)
    return {
      reason: `${step.operation.method.toUpperCase()} ${step.operation.path} changes state, and no path parameter binds it to a resource this run created`,
      cause: 'spec',
    };
  return bound;
}

/** A create at its own item path (`PUT /items/{itemId}`): the client chooses the id, so the generated one is sent. */
function clientChooses(step: ConformanceStep, binding: Binding): boolean {
  return (
    step.stage === 'create' && binding.sources.length === 0 && step.operation.path.endsWith(`{${binding.parameter}}`)
  );
}

function firstValue(
  sources: readonly BindingSource[],
  ledger: RunLedger,
  anchor: Instance | undefined,
): ParamValue | undefined {
  for (const source of sources) {
    const exchange = ledger.exchangeOf(source.operationId, anchor);
    if (exchange === undefined) continue;
    const value = evaluate(source, exchange);
    if (value !== undefined) return value;
  }
  return undefined;
}

/** The value a source reads from an exchange, if it is one a path segment can carry. */
export function evaluate(source: BindingSource, exchange: SentExchange): ParamValue | undefined {
  if ('status' in source && !statusMatches(source.status, exchange.status)) return undefined;
  const { expression } = source;
  let value: unknown;
  if (source.kind === 'location') value = fromLocation(exchange.location, source.template);
  else if (expression.startsWith('$response.body'))
    value = resolveLinkSource(
      { from: 'response.body', pointer: expression.slice('$response.body'.length) || '#' },
      { path: exchange.path, body: exchange.json },
    );
  else if (expression.startsWith('$request.path.'))
    value = resolveLinkSource(
      { from: 'request.path', name: expression.slice('$request.path.'.length) },
      { path: exchange.path, body: exchange.json },
    );
  if (typeof value === 'number' || typeof value === 'boolean') return value;
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The item path's last parameter, read from a Location header (RFC 9110 section 10.2.2), relative or absolute. */
function fromLocation(location: string | undefined, template: string): string | undefined {
  if (location === undefined || location.length > 8192) return undefined;
  let pathname: string;
  try {
    pathname = new URL(location, 'http://location.invalid').pathname;
  } catch {
    return undefined;
  }
  const pattern = template
    .split(/(\{[^}]+\})/)
    .map((part) => (part.startsWith('{') ? '([^/]+)' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  const match = new RegExp(`${pattern}/?$`).exec(pathname);
  const last = match?.at(-1);
  if (last === undefined) return undefined;
  try {
    return decodeURIComponent(last);
  } catch {
    return undefined;
  }
}

/** A value the spec documents for the parameter: its example, else its schema's example or default. */
function documentedValue(param: ParamModel): ParamValue | undefined {
  const schema = param.schema;
  const examples = Array.isArray(schema.examples) ? schema.examples : [];
  for (const candidate of [...param.examples, ...examples, schema.example, schema.default])
    if (typeof candidate === 'string' || typeof candidate === 'number' || typeof candidate === 'boolean')
      return candidate;
  return undefined;
}

function unbound(binding: Binding, sources: readonly BindingSource[], ledger: RunLedger): Unbound {
  const name = `path parameter ${binding.parameter}`;
  if (binding.sources.length === 0) return { reason: `${name}: ${binding.unbound ?? 'no source'}`, cause: 'spec' };
  if (sources.length === 0) {
    const from = [...new Set(binding.sources.map((source) => source.operationId))].join(', ');
    return {
      reason: `${name} comes only from ${from}, which creates nothing: this run changes only what it created`,
      cause: 'spec',
    };
  }
  const whys = sources.map((source) => {
    const exchange = ledger.exchangeOf(source.operationId, undefined);
    if (exchange === undefined) return ledger.whyNone(source.operationId);
    return {
      sent: true,
      why: `the ${exchange.status} answer of ${source.operationId} has no value at ${source.expression}`,
    };
  });
  const sent = whys.find((entry) => entry.sent);
  return { reason: `no value for ${name}: ${(sent ?? whys[0]!).why}`, cause: sent ? 'target' : 'spec' };
}
