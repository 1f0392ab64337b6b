// Compares two versions of an OpenAPI 3.1 document operation by operation
// (https://spec.openapis.org/oas/v3.1.0#operation-object) and classifies every difference for clients.
import { compileSpec, type CompiledSpec } from '../compile-spec.js';
import type { LoadedSpec } from '../load-spec.js';
import { resolvePointer } from '../load-spec.js';
import { isXmlMedia, wireHead, xmlWire } from './wire-schema.js';
import { httpMethods } from '../operation-index.js';
import { pathItemOperation, pathItemOperations } from '../oas32/path-item-operations.js';
import { pathToPointer, pointerToPath, type JsonPath } from '../source-locator.js';
import { classifySchemaChange, type SiteKind } from './classify-schema-change.js';
import { diffRule, type DiffRuleId } from './diff-rules.js';
import { SchemaNormalizer } from './schema-branches.js';
import type { SpecChange } from './spec-change.js';
import { sameSchema } from './same-schema.js';

interface Side {
  spec: LoadedSpec;
  /** One per direction: a request leaves readOnly properties out, a response writeOnly ones. */
  normalizers: Record<SiteKind, SchemaNormalizer>;
  /** The real validators, compiled only when a composition verdict needs an example checked. */
  compiled?: CompiledSpec | null;
}

function validates(side: Side, at: JsonPath, instance: unknown): boolean | undefined {
  try {
    side.compiled ??= compileSpec(side.spec);
    return side.compiled.validateAt(at, instance).length === 0;
  } catch {
    // A schema ajv will not compile (lint reports it): no example, the verdict stands without one.
    side.compiled = null;
    return undefined;
  }
}

interface Located<T> {
  value: T;
  path: JsonPath;
}

type Json = Record<string, unknown>;

/** Every classified difference from BASE to HEAD, sorted by severity then place; one entry per rule and place. */
export function diffSpecs(base: LoadedSpec, head: LoadedSpec): SpecChange[] {
  const sides = {
    base: { spec: base, normalizers: normalizers(base) },
    head: { spec: head, normalizers: normalizers(head) },
  };
  const changes = new Changes(sides);
  diffPaths(sides.base, sides.head, changes);
  diffWebhooks(sides.base, sides.head, changes);
  return changes.list();
}

const normalizers = (spec: LoadedSpec): Record<SiteKind, SchemaNormalizer> => ({
  request: new SchemaNormalizer(spec.document, 'request'),
  response: new SchemaNormalizer(spec.document, 'response'),
});

const rank = { error: 0, warning: 1, info: 2 };

/** Most severe first, then by place. */
export function compareChanges(a: SpecChange, b: SpecChange): number {
  return (
    rank[a.level] - rank[b.level] || a.file.localeCompare(b.file) || a.line - b.line || a.rule.localeCompare(b.rule)
  );
}

class Changes {
  private readonly byKey = new Map<string, SpecChange>();

  constructor(private readonly sides: { base: Side; head: Side }) {}

  add(rule: DiffRuleId, side: 'base' | 'head', path: JsonPath, message: string, operation?: string): void {
    const spec = this.sides[side].spec;
    const { line, column } = spec.locate(path);
    // One change, one entry: the same rule at the same place in the spec (a component's keyword reached through 515
    // response bodies on Stripe) is reported once, with every operation it touches, under its shortest message.
    const key = `${rule}\u0000${side}\u0000${pathToPointer(path)}`;
    const existing = this.byKey.get(key);
    if (existing) {
      if (operation && !existing.operations.includes(operation)) existing.operations.push(operation);
      if (message.length < existing.message.length) existing.message = message;
      return;
    }
    this.byKey.set(key, {
      rule,
      level: diffRule(rule).level,
      message,
      operations: operation ? [operation] : [],
      side,
      file: spec.file,
      line,
      column,
      path,
    });
  }

  list(): SpecChange[] {
    return [...this.byKey.values()].sort(compareChanges);
  }
}

function deref(side: Side, value: unknown, path: JsonPath): Located<Json> | undefined {
  let current: Located<unknown> = { value, path };
  for (let hops = 0; hops < 16; hops++) {
    const ref = (current.value as { $ref?: unknown } | null)?.$ref;
    if (typeof ref !== 'string') break;
    current = { value: resolvePointer(side.spec.document, ref), path: pointerToPath(ref) };
  }
  const v = current.value;
  return v !== null && typeof v === 'object' && !Array.isArray(v)
    ? { value: v as Json, path: current.path }
    : undefined;
}

/** `/hooks/{hook_id}` and `/hooks/{id}` are the same path to a client. */
const templateKey = (template: string) => template.replace(/\{[^}]*\}/g, '{}');

interface PathEntry {
  template: string;
  item: Located<Json>;
}

function diffPaths(base: Side, head: Side, changes: Changes): void {
  // Paths grouped by their key: a spec may write `/r/{parent_id}` (POST) beside `/r/{resource_id}` (GET), one path
  // to a client, and a map of one entry per key kept whichever came last (key order made operations "removed").
  const index = (side: Side) => {
    const map = new Map<string, PathEntry[]>();
    for (const [template, raw] of Object.entries(side.spec.document.paths ?? {})) {
      const item = deref(side, raw, ['paths', template]);
      if (!item) continue;
      const key = templateKey(template);
      map.set(
        key,
        [...(map.get(key) ?? []), { template, item }].sort((x, y) => (x.template < y.template ? -1 : 1)),
      );
    }
    return map;
  };
  const basePaths = index(base);
  const headPaths = index(head);
  for (const [key, was] of basePaths) {
    const now = headPaths.get(key) ?? [];
    if (now.length === 0) {
      // A path with no operation (parameters only) serves nothing a client could call: its removal changes nothing.
      for (const { template, item } of was)
        if (pathItemOperations(item.value, base.spec.document.openapi).length > 0)
          changes.add('path-removed', 'base', item.path, `path ${template} removed with every operation on it`);
      continue;
    }
    // The methods either side has at this key: the eight, and in 3.2 `query` and additional ones (section 4.10).
    const methods = new Set([...methodsOf(base, was), ...methodsOf(head, now)]);
    for (const method of methods) {
      const { pairs, removed, added } = pairOperations(
        was.filter((entry) => operationOf(base, entry.item, method)),
        now.filter((entry) => operationOf(head, entry.item, method)),
      );
      const label = (template: string) => `${method.toUpperCase()} ${template}`;
      for (const b of removed)
        changes.add('operation-removed', 'base', operationPath(base, b.item, method), `${label(b.template)} removed`);
      for (const h of added)
        changes.add('operation-added', 'head', operationPath(head, h.item, method), `${label(h.template)} added`);
      for (const [b, h] of pairs)
        diffOperation(
          base,
          head,
          { item: b.item, method, template: b.template },
          { item: h.item, method, template: h.template },
          label(h.template),
          changes,
        );
    }
  }
  for (const [key, now] of headPaths) {
    if (basePaths.has(key)) continue;
    for (const { template, item } of now)
      for (const { method, key } of pathItemOperations(item.value, head.spec.document.openapi))
        changes.add('operation-added', 'head', [...item.path, ...key], `${method.toUpperCase()} ${template} added`);
  }
}

const methodsOf = (side: Side, entries: PathEntry[]) =>
  entries.flatMap((entry) => pathItemOperations(entry.item.value, side.spec.document.openapi).map((op) => op.method));

const operationOf = (side: Side, item: Located<Json>, method: string) =>
  pathItemOperation(item.value, method, side.spec.document.openapi);

/** Where a method's Operation Object is: [...item, method], or [...item, 'additionalOperations', KEY] (3.2). */
const operationPath = (side: Side, item: Located<Json>, method: string): JsonPath => [
  ...item.path,
  ...(operationOf(side, item, method)?.key ?? [method]),
];

/** One method's operations under one path key, paired: the same template first, then the rest in template order. */
function pairOperations(was: PathEntry[], now: PathEntry[]) {
  const left = [...now];
  const pairs: [PathEntry, PathEntry][] = [];
  const unmatched: PathEntry[] = [];
  for (const b of was) {
    const same = left.findIndex((h) => h.template === b.template);
    if (same >= 0) pairs.push([b, left.splice(same, 1)[0]!]);
    else unmatched.push(b);
  }
  const removed: PathEntry[] = [];
  for (const b of unmatched) {
    const h = left.shift();
    if (h) pairs.push([b, h]);
    else removed.push(b);
  }
  return { pairs, removed, added: left };
}

/**
 * Webhooks are what the API sends: a receiver is their client. A webhook removed stops what receivers handle
 * (breaking); a payload is compared as a response is, so a field removed from it breaks receivers that read it.
 */
function diffWebhooks(base: Side, head: Side, changes: Changes): void {
  const hooks = (side: Side) => (side.spec.document.webhooks ?? {}) as Json;
  const was = hooks(base);
  const now = hooks(head);
  for (const [hook, raw] of Object.entries(was)) {
    const b = deref(base, raw, ['webhooks', hook]);
    const h = now[hook] === undefined ? undefined : deref(head, now[hook], ['webhooks', hook]);
    if (!b) continue;
    for (const method of httpMethods) {
      const bOp = b.value[method] as Json | undefined;
      if (!bOp) continue;
      const name = `webhook ${hook} (${method.toUpperCase()})`;
      const hOp = h?.value[method] as Json | undefined;
      if (!hOp) {
        changes.add('webhook-removed', 'base', [...b.path, method], `${name} removed`);
        continue;
      }
      const payload = (side: Side, op: Json, at: JsonPath) =>
        op.requestBody === undefined ? undefined : deref(side, op.requestBody, [...at, 'requestBody']);
      const bBody = payload(base, bOp, [...b.path, method]);
      const hBody = payload(head, hOp, [...h!.path, method]);
      if (bBody && hBody)
        diffContent(base, head, bBody, hBody, 'response', 'webhook payload', (type) => `${name} (${type})`, changes);
    }
  }
  for (const [hook, raw] of Object.entries(now)) {
    if (was[hook] !== undefined) continue;
    const h = deref(head, raw, ['webhooks', hook]);
    if (h) changes.add('webhook-added', 'head', h.path, `webhook ${hook} added`);
  }
}

interface OperationRef {
  item: Located<Json>;
  method: string;
  /** The path template as that side writes it (`/books/{bookId}`). */
  template: string;
}

function diffOperation(base: Side, head: Side, b: OperationRef, h: OperationRef, name: string, changes: Changes): void {
  const bOp = operationOf(base, b.item, b.method)?.operation as Json;
  const hOp = operationOf(head, h.item, h.method)?.operation as Json;
  const bPath = operationPath(base, b.item, b.method);
  const hPath = operationPath(head, h.item, h.method);
  if (bOp.operationId !== hOp.operationId) {
    changes.add(
      'operation-id-changed',
      'head',
      [...hPath, 'operationId'],
      `operationId ${String(bOp.operationId)} → ${String(hOp.operationId)}`,
      name,
    );
  }
  diffSecurity(base, head, bOp, hOp, hPath, name, changes);
  diffParameters(base, head, b, h, name, changes);
  diffRequestBody(base, head, bOp, hOp, bPath, hPath, name, changes);
  diffResponses(base, head, bOp, hOp, bPath, hPath, name, changes);
}

function diffSecurity(
  base: Side,
  head: Side,
  bOp: Json,
  hOp: Json,
  hPath: JsonPath,
  name: string,
  changes: Changes,
): void {
  const effective = (side: Side, op: Json): Map<string, string[]>[] => {
    const list = (op.security ?? side.spec.document.security ?? []) as Record<string, string[]>[];
    return list.length === 0 ? [new Map()] : list.map((alternative) => new Map(Object.entries(alternative ?? {})));
  };
  // A client that meets alternative `need` meets `have` when `have` asks for no scheme or scope beyond `need`.
  const within = (have: Map<string, string[]>, need: Map<string, string[]>) =>
    [...have].every(([scheme, scopes]) => need.has(scheme) && scopes.every((s) => need.get(scheme)!.includes(s)));
  // `key`, `oauth (read, write)`: scopes are part of what a client must meet.
  const describe = (alternative: Map<string, string[]>) =>
    alternative.size === 0
      ? 'none'
      : [...alternative]
          .map(([scheme, scopes]) => (scopes.length > 0 ? `${scheme} (${scopes.join(', ')})` : scheme))
          .join(' + ');
  const at = hOp.security ? [...hPath, 'security'] : head.spec.document.security ? ['security'] : hPath;
  const was = effective(base, bOp);
  const now = effective(head, hOp);
  for (const alternative of was) {
    if (!now.some((candidate) => within(candidate, alternative))) {
      changes.add(
        'request-security-added',
        'head',
        at,
        `a client authenticating with ${describe(alternative)} must now meet ${now.map(describe).join(' or ')}`,
        name,
      );
    }
  }
  for (const alternative of now) {
    if (!was.some((candidate) => within(candidate, alternative))) {
      changes.add('request-security-removed', 'head', at, `${describe(alternative)} is now enough to call it`, name);
    }
  }
}

interface Parameter {
  name: string;
  in: string;
  required: boolean;
  schema: unknown;
  path: JsonPath;
}

function parameters(side: Side, op: OperationRef): Map<string, Parameter> {
  const map = new Map<string, Parameter>();
  const collect = (list: unknown, at: JsonPath) => {
    if (!Array.isArray(list)) return;
    list.forEach((raw, index) => {
      const p = deref(side, raw, [...at, index]);
      if (!p || typeof p.value.name !== 'string' || typeof p.value.in !== 'string') return;
      const name = p.value.in === 'header' ? p.value.name.toLowerCase() : p.value.name;
      map.set(`${p.value.in}:${name}`, {
        name,
        in: p.value.in,
        required: p.value.required === true,
        schema: p.value.schema,
        path: p.path,
      });
    });
  };
  collect(op.item.value.parameters, [...op.item.path, 'parameters']);
  const operation = operationOf(side, op.item, op.method)?.operation as Json | undefined;
  collect(operation?.parameters, [...operationPath(side, op.item, op.method), 'parameters']);
  return map;
}

function diffParameters(
  base: Side,
  head: Side,
  b: OperationRef,
  h: OperationRef,
  name: string,
  changes: Changes,
): void {
  const was = byPosition(parameters(base, b), b.template);
  const now = byPosition(parameters(head, h), h.template);
  const label = (p: Parameter) => `${p.in} parameter ${p.name}`;
  for (const [key, p] of was) {
    const same = now.get(key);
    if (same) {
      if (same.required && !p.required)
        changes.add(
          'request-parameter-became-required',
          'head',
          [...same.path, 'required'],
          `${label(p)} became required`,
          name,
        );
      // Compared as the server reads them off the wire: text (wire-schema.ts).
      diffSchemas(
        base,
        head,
        p.schema,
        [...p.path, 'schema'],
        wireHead(base.spec.document, p.schema, head.spec.document, same.schema),
        [...same.path, 'schema'],
        'request',
        `${label(p)}`,
        name,
        changes,
      );
      continue;
    }
    const moved = [...now.values()].find((q) => q.name === p.name && q.in !== p.in);
    if (moved)
      changes.add(
        'request-parameter-moved',
        'head',
        [...moved.path, 'in'],
        `parameter ${p.name} moved from ${p.in} to ${moved.in}`,
        name,
      );
    else changes.add('request-parameter-removed', 'base', p.path, `${label(p)} removed`, name);
  }
  for (const [key, p] of now) {
    if (was.has(key) || [...was.values()].some((q) => q.name === p.name)) continue;
    if (p.required) changes.add('request-required-parameter-added', 'head', p.path, `required ${label(p)} added`, name);
    else changes.add('request-optional-parameter-added', 'head', p.path, `optional ${label(p)} added`, name);
  }
}

/**
 * Path parameters keyed by their place in the template, not their name: `/books/{bookId}` and `/books/{id}` are the
 * same URL, so a renamed path parameter is no change to a client (it was "required parameter added").
 */
function byPosition(map: Map<string, Parameter>, template: string): Map<string, Parameter> {
  const names = [...template.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]);
  const keyed = new Map<string, Parameter>();
  for (const [key, parameter] of map) {
    const place = parameter.in === 'path' ? names.indexOf(parameter.name) : -1;
    keyed.set(place >= 0 ? `path:#${place}` : key, parameter);
  }
  return keyed;
}

/**
 * The schemas of the media types both sides document, compared (a request body, a response, a webhook payload); the
 * media types only one side has, for the caller to name.
 */
function diffContent(
  base: Side,
  head: Side,
  b: Located<Json>,
  h: Located<Json>,
  site: SiteKind,
  subject: string,
  where: (type: string) => string,
  changes: Changes,
): { removed: [string, JsonPath][]; added: [string, JsonPath][] } {
  const was = content(b.value, b.path);
  const now = content(h.value, h.path);
  const removed: [string, JsonPath][] = [];
  for (const [type, media] of was) {
    const same = now.get(type);
    if (!same) {
      removed.push([type, media.path]);
      continue;
    }
    // XML is text all through: each side read as the other's wire reads it (wire-schema.ts).
    const [baseSchema, headSchema] = isXmlMedia(type)
      ? [
          wireHead(head.spec.document, same.value.schema, base.spec.document, media.value.schema, xmlWire),
          wireHead(base.spec.document, media.value.schema, head.spec.document, same.value.schema, xmlWire),
        ]
      : [media.value.schema, same.value.schema];
    diffSchemas(
      base,
      head,
      baseSchema,
      [...media.path, 'schema'],
      headSchema,
      [...same.path, 'schema'],
      site,
      subject,
      where(type),
      changes,
    );
    // OpenAPI 3.2 section 4.14.3: each item of a sequential media type is a value as a body is, compared alike.
    if (media.value.itemSchema !== undefined || same.value.itemSchema !== undefined)
      diffSchemas(
        base,
        head,
        media.value.itemSchema,
        [...media.path, 'itemSchema'],
        same.value.itemSchema,
        [...same.path, 'itemSchema'],
        site,
        subject,
        `${where(type)} each item`,
        changes,
      );
  }
  const added = [...now]
    .filter(([type]) => !was.has(type))
    .map(([type, media]): [string, JsonPath] => [type, media.path]);
  return { removed, added };
}

function content(owner: Json | undefined, at: JsonPath): Map<string, Located<Json>> {
  const map = new Map<string, Located<Json>>();
  const media = owner?.content;
  if (media && typeof media === 'object') {
    for (const [type, value] of Object.entries(media as Json))
      map.set(type, { value: (value ?? {}) as Json, path: [...at, 'content', type] });
  }
  return map;
}

function diffRequestBody(
  base: Side,
  head: Side,
  bOp: Json,
  hOp: Json,
  bPath: JsonPath,
  hPath: JsonPath,
  name: string,
  changes: Changes,
): void {
  const bBody = bOp.requestBody === undefined ? undefined : deref(base, bOp.requestBody, [...bPath, 'requestBody']);
  const hBody = hOp.requestBody === undefined ? undefined : deref(head, hOp.requestBody, [...hPath, 'requestBody']);
  if (hBody?.value.required === true && bBody?.value.required !== true) {
    changes.add(
      'request-body-became-required',
      'head',
      hBody.path,
      bBody ? 'the request body became required' : 'a required request body was added',
      name,
    );
  }
  if (bBody && !hBody && bOp.requestBody !== undefined && hOp.requestBody === undefined) {
    changes.add('request-body-removed', 'base', bBody.path, 'the request body is no longer documented', name);
    return;
  }
  if (!bBody || !hBody) return;
  const media = diffContent(
    base,
    head,
    bBody,
    hBody,
    'request',
    'request body',
    (type) => `${name} (${type})`,
    changes,
  );
  for (const [type, at] of media.removed)
    changes.add('request-media-type-removed', 'base', at, `request body ${type} no longer accepted`, name);
  for (const [type, at] of media.added)
    changes.add('request-media-type-added', 'head', at, `request body ${type} accepted`, name);
}

function diffResponses(
  base: Side,
  head: Side,
  bOp: Json,
  hOp: Json,
  bPath: JsonPath,
  hPath: JsonPath,
  name: string,
  changes: Changes,
): void {
  const was = (bOp.responses ?? {}) as Json;
  const now = (hOp.responses ?? {}) as Json;
  for (const status of Object.keys(was)) {
    if (!Object.hasOwn(now, status)) {
      changes.add(
        'response-status-removed',
        'base',
        [...bPath, 'responses', status],
        `response ${status} removed`,
        name,
      );
      continue;
    }
    const b = deref(base, was[status], [...bPath, 'responses', status]);
    const h = deref(head, now[status], [...hPath, 'responses', status]);
    if (!b || !h) continue;
    diffResponseHeaders(base, head, b, h, `${name} → ${status}`, name, changes);
    const media = diffContent(
      base,
      head,
      b,
      h,
      'response',
      'response body',
      (type) => `${name} → ${status} (${type})`,
      changes,
    );
    for (const [type, at] of media.removed)
      changes.add('response-media-type-removed', 'base', at, `response ${status} ${type} removed`, name);
    for (const [type, at] of media.added)
      changes.add('response-media-type-added', 'head', at, `response ${status} ${type} added`, name);
  }
  for (const status of Object.keys(now)) {
    if (!Object.hasOwn(was, status))
      changes.add('response-status-added', 'head', [...hPath, 'responses', status], `response ${status} added`, name);
  }
}

/**
 * A response's headers, by name (case-insensitive, as HTTP reads them): a required one removed or made optional breaks
 * a client that reads it; an optional one removed is a warning; a header's schema is compared as a response's.
 */
function diffResponseHeaders(
  base: Side,
  head: Side,
  b: Located<Json>,
  h: Located<Json>,
  where: string,
  name: string,
  changes: Changes,
): void {
  const headers = (side: Side, response: Located<Json>) => {
    const map = new Map<string, { name: string; header: Located<Json> }>();
    const raw = response.value.headers;
    if (raw === null || typeof raw !== 'object') return map;
    for (const [header, value] of Object.entries(raw as Json)) {
      const located = deref(side, value, [...response.path, 'headers', header]);
      if (located) map.set(header.toLowerCase(), { name: header, header: located });
    }
    return map;
  };
  const was = headers(base, b);
  const now = headers(head, h);
  for (const [key, { name: header, header: before }] of was) {
    const after = now.get(key);
    const required = before.value.required === true;
    if (!after) {
      changes.add(
        required ? 'response-header-removed' : 'response-optional-header-removed',
        'base',
        before.path,
        `${where}: ${required ? 'required ' : ''}header ${header} removed`,
        name,
      );
      continue;
    }
    if (required && after.header.value.required !== true)
      changes.add(
        'response-header-became-optional',
        'head',
        after.header.path,
        `${where}: header ${header} became optional`,
        name,
      );
    if (before.value.schema !== undefined && after.header.value.schema !== undefined)
      diffSchemas(
        base,
        head,
        before.value.schema,
        [...before.path, 'schema'],
        after.header.value.schema,
        [...after.header.path, 'schema'],
        'response',
        `response header ${header}`,
        where,
        changes,
      );
  }
  for (const [key, { name: header, header: added }] of now)
    if (!was.has(key))
      changes.add('response-header-added', 'head', added.path, `${where}: header ${header} added`, name);
}

function diffSchemas(
  base: Side,
  head: Side,
  bSchema: unknown,
  bAt: JsonPath,
  hSchema: unknown,
  hAt: JsonPath,
  site: SiteKind,
  subject: string,
  operation: string,
  changes: Changes,
): void {
  // The same schema on both sides is no change, however many combinations its compositions have.
  if (sameSchema(base.spec.document, bSchema, head.spec.document, hSchema)) return;
  const b = base.normalizers[site].normalize(bSchema, bAt);
  const h = head.normalizers[site].normalize(hSchema, hAt);
  const check = (instance: unknown) => {
    const inBase = base.compiled === null ? undefined : validates(base, bAt, instance);
    const inHead = head.compiled === null ? undefined : validates(head, hAt, instance);
    return inBase === undefined || inHead === undefined ? undefined : { base: inBase, head: inHead };
  };
  for (const change of classifySchemaChange(b, h, site, check)) {
    changes.add(
      change.rule,
      change.side,
      change.path,
      `${subject}${change.instancePath ? ` ${change.instancePath}` : ''}: ${change.message}`,
      operation,
    );
  }
}
