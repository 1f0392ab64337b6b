// How a list declares its next page, read from its parameters' names and its answer's shape (the spec has no
// keyword for it). Rules, in the order they are reported:
// - a `Link` header documented on a 2xx answer: RFC 8288, followed by its rel="next" target;
// - a cursor query parameter (cursor, after, starting_after, page_token, next_token, continuation, marker), fed
//   by a next-cursor field of the answer at its top level or one object down (next_cursor, nextPageToken, …);
// - a page-number parameter (page, page_number), with its size parameter (per_page, page_size, limit, size);
// - an offset parameter (offset, skip, start), with the same size parameter.
import type { Pagination } from './types.js';
import type { OperationFacts } from './operation-facts.js';
import { escapePointer, followSchema, isObject, propertiesOf } from './schema-shape.js';

const cursorParameter =
  /^(cursor|after|starting_?after|startingAfter|page_?token|pageToken|next_?token|nextToken|continuation(_?token)?|continuationToken|marker)$/i;
const cursorField =
  /^(next_?cursor|nextCursor|next_?page_?token|nextPageToken|next_?token|nextToken|end_?cursor|endCursor|next_?marker|nextMarker|continuation_?token|continuationToken|next)$/i;
const pageParameter = /^(page|page_?number|pageNumber|page\[number\])$/i;
const offsetParameter = /^(offset|skip|start|start_?index|startIndex|page\[offset\])$/i;
const sizeParameter =
  /^(per_?page|perPage|page_?size|pageSize|limit|size|count|max_?results|maxResults|page\[size\]|page\[limit\])$/i;

export function paginationOf(document: unknown, facts: OperationFacts): Pagination[] {
  const found: Pagination[] = [];
  for (const status of facts.linkHeader) found.push({ kind: 'link-header', status });
  const query = facts.parameters.filter((parameter) => parameter.in === 'query').map((parameter) => parameter.name);
  const size = query.find((name) => sizeParameter.test(name));
  const cursor = query.find((name) => cursorParameter.test(name));
  if (cursor !== undefined)
    found.push({
      kind: 'cursor',
      parameter: cursor,
      nextField: facts.answer ? nextCursorField(document, facts.answer.schema) : undefined,
    });
  const page = query.find((name) => pageParameter.test(name));
  if (page !== undefined) found.push({ kind: 'page', parameter: page, sizeParameter: size });
  const offset = query.find((name) => offsetParameter.test(name));
  if (offset !== undefined) found.push({ kind: 'offset', parameter: offset, sizeParameter: size });
  return found;
}

/** A next-cursor field at the answer's top level, or one object down (`meta.next_cursor`), as a JSON pointer. */
function nextCursorField(document: unknown, schema: unknown): string | undefined {
  const top = propertiesOf(document, schema);
  for (const key of top.keys()) if (cursorField.test(key)) return `/${escapePointer(key)}`;
  for (const [key, value] of top) {
    const nested = followSchema(document, value).schema;
    if (!isObject(nested)) continue;
    for (const inner of propertiesOf(document, nested).keys())
      if (cursorField.test(inner)) return `/${escapePointer(key)}/${escapePointer(inner)}`;
  }
  return undefined;
}
