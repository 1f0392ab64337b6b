// A list answered from the store, one page at a time as the list declares (the model's pagination, pagination.ts):
// a cursor (the next item's position, fed back through the declared next-cursor field), page numbers, offsets, and
// an RFC 8288 `Link: <…>; rel="next"` header where the answer documents one. A page holds the size parameter's value,
// else 20, never more than 100: a list answer stays bounded whatever the store holds.
import { responseFor } from '../../core/operation-index.js';
import type { EngineAnswer } from './engine-answer.js';
import { collectionKey } from './stateful-engine.js';
import { parentMissing } from './stateful-roles.js';
import { represent, templateOf, type Call } from './stateful-reply.js';
import { successStatus } from './statuses.js';
import { compiledResponse } from './documented-answer.js';

const sizeParameter = /^(per_?page|perPage|page_?size|pageSize|limit|size|count|max_?results|maxResults)$/i;
const defaultSize = 20;
const maxSize = 100;

export function list(call: Call): EngineAnswer {
  const missingParent = parentMissing(call);
  if (missingParent) return missingParent;
  const query = new URLSearchParams(call.request.query);
  const stored = call.stateful.store.list(collectionKey(call.facts, call.pathParams)).map((item) => item.value);
  const items = call.filtered ? filtered(call, stored, query) : stored;
  const sizeName = [...query.keys()].find((name) => sizeParameter.test(name));
  const asked = Number(sizeName === undefined ? Number.NaN : query.get(sizeName));
  const size = Math.min(Number.isInteger(asked) && asked > 0 ? asked : defaultSize, maxSize);
  const { pagination, itemsPointer } = call.operation;
  let start = 0;
  let advance: ((next: number) => [string, string]) | undefined;
  let cursorField: string | undefined;
  for (const way of pagination) {
    if (way.kind === 'link-header') continue;
    const raw = query.get(way.parameter);
    const number = Number(raw ?? Number.NaN);
    if (way.kind === 'cursor') {
      start = raw !== null && /^\d+$/.test(raw) ? number : 0;
      advance = (next) => [way.parameter, String(next)];
      cursorField = way.nextField;
    } else if (way.kind === 'page') {
      start = Number.isInteger(number) && number > 1 ? (number - 1) * size : 0;
      advance = (next) => [way.parameter, String(Math.floor(next / size) + 1)];
    } else {
      start = Number.isInteger(number) && number > 0 ? number : 0;
      advance = (next) => [way.parameter, String(next)];
    }
    break;
  }
  // Without declared pagination the spec promises one page: the first `maxSize` items.
  const page = items.slice(start, start + (advance ? size : maxSize));
  const next = advance && start + size < items.length ? start + size : undefined;
  const status = successStatus(call.compiled.spec) ?? 200;
  let body: unknown = page;
  if (itemsPointer !== undefined && itemsPointer !== '') {
    // A copy: the template is shared (templateOf parses it once) and setAt writes into it.
    const template = structuredClone(templateOf(call, status) ?? {});
    setAt(template, itemsPointer, page);
    if (cursorField) setAt(template, cursorField, next === undefined ? null : String(next));
    countItems(call, status, template, itemsPointer, items.length);
    body = template;
  }
  const headers: Record<string, string> = {};
  const linked = pagination.some((way) => way.kind === 'link-header') && responseFor(call.compiled.spec, status);
  if (linked && next !== undefined && advance) {
    const following = new URLSearchParams(call.request.query);
    const [name, value] = advance(next);
    following.set(name, value);
    if (sizeName) following.set(sizeName, String(size));
    headers.link = `<${call.base}${call.judgedAs.path}?${following.toString()}>; rel="next"`;
  }
  return represent(call, status, body, undefined, headers);
}

/**
 * A search's items: those whose field of a query parameter's name holds one of its values (repeated, or a
 * comma-separated list: OpenAPI's form style, explode true or false). A field holding an array matches when any of
 * its scalar items does; a parameter naming no field of the items filters nothing.
 */
function filtered(
  call: Call,
  items: readonly Record<string, unknown>[],
  query: URLSearchParams,
): Record<string, unknown>[] {
  const { properties } = call.facts.representation;
  const wanted = [...new Set(query.keys())]
    .filter((name) => properties.has(name))
    .map((name) => ({ name, values: new Set(query.getAll(name).flatMap((value) => value.split(','))) }));
  if (wanted.length === 0) return [...items];
  const matches = (value: unknown, values: Set<string>): boolean =>
    Array.isArray(value)
      ? value.some((entry) => matches(entry, values))
      : (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') &&
        values.has(String(value));
  return items.filter((item) => wanted.every(({ name, values }) => matches(item[name], values)));
}

/** The names a list answer gives the number of items in the whole collection (`total`, `totalCount`, `articlesCount`, `items_total`…). */
const countNames =
  /^(total|count|total_?count|totalCount|total_?items|totalItems|total_?results|totalResults|total_?size|totalSize)$/i;
/** `articlesCount`, `items_total`: a word then Count or Total (case kept, so `discount` and `account` are not). */
const countSuffix = /^[a-z][A-Za-z0-9]*(Count|Total)$|^[a-z][a-z0-9]*_(count|total)$/;
const countField = { test: (name: string) => countNames.test(name) || countSuffix.test(name) };

/**
 * A count beside the items (`{ items, total }`) says how many the collection holds: the schema cannot say so, but a
 * client pages by it, so a random integer there misleads. Set only where the template already holds an integer and
 * only when the answer's schema still accepts it (a `minimum: 1` with an empty collection keeps the template's).
 */
function countItems(
  call: Call,
  status: number,
  template: Record<string, unknown>,
  pointer: string,
  count: number,
): void {
  const parent = pointer.slice(0, pointer.lastIndexOf('/'));
  const holder = parent === '' ? template : atPointer(template, parent);
  if (holder === null || typeof holder !== 'object' || Array.isArray(holder)) return;
  const record = holder as Record<string, unknown>;
  const name = Object.keys(record).find((key) => countField.test(key) && Number.isInteger(record[key]));
  if (name === undefined) return;
  const before = record[name];
  record[name] = count;
  const validate = compiledResponse(call.compiled, status)?.mediaTypes.find((media) => media.json)?.validate;
  if (validate && !validate(template)) record[name] = before;
}

function atPointer(target: unknown, pointer: string): unknown {
  let node = target;
  for (const part of pointer.slice(1).split('/')) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return node;
}

/** Sets the value at a JSON pointer (RFC 6901), making the objects on the way. */
function setAt(target: Record<string, unknown>, pointer: string, value: unknown): void {
  const parts = pointer
    .slice(1)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
  let node = target;
  for (const part of parts.slice(0, -1)) {
    const child = node[part];
    if (child === null || typeof child !== 'object' || Array.isArray(child)) node[part] = {};
    node = node[part] as Record<string, unknown>;
  }
  node[parts.at(-1)!] = value;
}
