// Walks a list's pages the way the model says the spec declares them: RFC 8288 `Link` rel="next", a cursor fed from
// a field of the answer, page numbers, offsets; the first declared way the answers follow. Bounded: at most
// `maxPages` requests, and a page that repeats the previous one's request ends the walk.
import { headerValue } from '../../core/exchange.js';
import type { ModelOperation, Pagination } from '../../core/resource-model/types.js';
import type { Exchange } from '../../core/exchange.js';
import { isPlainObject } from '../fuzz-case.js';
import type { ParamValue } from '../request-model.js';
import { atPointer } from './bind-instance.js';
import type { PageWalk } from './rules/listed-after-create.js';

/** What a page's answer is read from: the fuzzer's CaseResult, or the same shape from `contracts check`. */
export interface PageAnswer {
  sent: { exchange: Pick<Exchange, 'status' | 'headers'>; json: unknown };
}

export type PageSender = (query: Record<string, ParamValue>) => Promise<PageAnswer | undefined>;

/** `<https://x/items?cursor=b>; rel="next"` → its query parameters; undefined without a rel=next link. */
export function nextLinkQuery(link: string | undefined): Record<string, string> | undefined {
  if (link === undefined) return undefined;
  for (const part of link.split(/,(?=\s*<)/)) {
    const match = /^\s*<([^>]*)>(.*)$/.exec(part);
    if (!match || !/;\s*rel\s*=\s*"?([^";]*\s)?next(\s[^";]*)?"?/i.test(match[2]!)) continue;
    try {
      return Object.fromEntries(new URL(match[1]!, 'http://base.invalid').searchParams);
    } catch {
      return undefined;
    }
  }
  return undefined;
}

export interface PageOptions {
  list: ModelOperation;
  idField: string;
  maxPages: number;
  /** The page size to ask for, when the pagination has a size parameter (undefined: the server's default). */
  pageSize: (parameter: string) => number | undefined;
  /** A page size query parameter the pagination does not name (a cursor list's `limit`). */
  sizeParameter?: string;
}

/** Every page's item ids, and whether the last page was reached. */
export async function walkPages(send: PageSender, options: PageOptions): Promise<PageWalk> {
  const { list, idField, maxPages } = options;
  const query: Record<string, ParamValue> = {};
  const sizes = [
    options.sizeParameter,
    ...list.pagination.map((way) => (way.kind === 'page' || way.kind === 'offset' ? way.sizeParameter : undefined)),
  ];
  for (const name of sizes) {
    const size = name === undefined ? undefined : options.pageSize(name);
    if (name !== undefined && size !== undefined) query[name] = size;
  }
  for (const way of list.pagination) {
    if (way.kind === 'page') query[way.parameter] = 1;
  }
  const pages: unknown[][] = [];
  const asked = new Set<string>();
  for (let page = 0; page < maxPages; page++) {
    const key = JSON.stringify(query);
    if (asked.has(key)) break;
    asked.add(key);
    const result = await send({ ...query });
    const status = result?.sent.exchange.status ?? 0;
    const items = atPointer(result?.sent.json, list.itemsPointer ?? '');
    if (!result || status < 200 || status > 299 || !Array.isArray(items))
      return { list: list.operationId, pages, complete: false };
    pages.push(items.map((item) => (isPlainObject(item) ? item[idField] : undefined)));
    // Any declared way that gives a next page is followed: a list that declares a Link header and sends a cursor
    // field instead is not taken to have ended (which would make listed_after_create a false positive).
    const next = list.pagination
      .map((way) => nextQuery(way, result, items.length, query))
      .find((candidate) => candidate !== undefined);
    if (next === undefined) return { list: list.operationId, pages, complete: true };
    Object.assign(query, next);
  }
  return { list: list.operationId, pages, complete: false };
}

/** The query of the next page, or undefined when this one was the last. */
function nextQuery(
  way: Pagination,
  result: PageAnswer,
  count: number,
  query: Record<string, ParamValue>,
): Record<string, ParamValue> | undefined {
  if (way.kind === 'link-header') return nextLinkQuery(headerValue(result.sent.exchange.headers, 'link'));
  if (way.kind === 'cursor') {
    const value = way.nextField === undefined ? undefined : atPointer(result.sent.json, way.nextField);
    return (typeof value === 'string' && value !== '') || typeof value === 'number'
      ? { [way.parameter]: value }
      : undefined;
  }
  const size =
    way.sizeParameter === undefined || query[way.sizeParameter] === undefined
      ? undefined
      : Number(query[way.sizeParameter]);
  if (count === 0 || (size !== undefined && count < size)) return undefined;
  if (way.kind === 'page') return { [way.parameter]: Number(query[way.parameter] ?? 1) + 1 };
  return { [way.parameter]: Number(query[way.parameter] ?? 0) + count };
}
