// The body of a sequential media type with an itemSchema (OpenAPI 3.2 section 4.14.3: application/jsonl,
// application/x-ndjson, application/json-seq, text/event-stream), for the sandbox to serve: a few items, each from
// the Media Type Object's examples or generated from the itemSchema, framed as the format frames them. Every item
// is framed, read back with the reader the checks use (stream/sequence-items.ts) and judged by the same item judge
// (stream/judge-items.ts): an item that does not survive that unchanged and valid is never served. The whole body is
// then judged again by the exchange checks (documented-answer.ts), as every answer is.
import fc from 'fast-check';
import type { CompiledMediaType, Contract } from '../../core/compile-contract.js';
import { deref } from '../../core/request-model.js';
import { pathToPointer, resolvePointer, type JsonPath } from '../../core/source-locator.js';
import { dataContentSchemaPath, type ItemContract } from '../../core/stream/item-contract.js';
import { judgeItem } from '../../core/stream/judge-items.js';
import { sequenceItems, type SequenceFormat } from '../../core/stream/sequence-items.js';
import { schemaArbitrary } from '../../fuzz/schema-arbitrary.js';
import { minimalValue } from '../../fuzz/values.js';

/** Items served when generated: enough to show a sequence, bounded whatever the schema. */
export const generatedItems = 3;
/** Items of one example served at most (a spec's example may be long; the answer stays bounded). */
export const maxExampleItems = 100;
/** Random proposals tried per generated item. */
const proposals = 64;

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** One item framed as its format frames it; undefined when the format cannot carry it (an SSE field with a line break). */
export function frameItem(format: SequenceFormat, item: unknown): string | undefined {
  if (format === 'jsonl') return `${JSON.stringify(item)}\n`;
  // RFC 7464 section 2.2: RS, the JSON text, LF.
  if (format === 'json-seq') return `\u001e${JSON.stringify(item)}\n`;
  // WHATWG HTML section 9.2.6: `field: value` lines, a blank line ending the event; data split over `data:` lines.
  if (!isObject(item) || typeof item.data !== 'string') return undefined;
  let text = '';
  for (const field of ['event', 'id'] as const) {
    const value = item[field];
    if (value === undefined) continue;
    if (typeof value !== 'string' || /[\r\n]/.test(value)) return undefined;
    text += `${field}: ${value}\n`;
  }
  if (item.retry !== undefined) text += `retry: ${String(item.retry)}\n`;
  for (const line of item.data.split(/\r\n|\r|\n/)) text += `data: ${line}\n`;
  return `${text}\n`;
}

/** Whether the framed item reads back as exactly one item that the item judge accepts. */
function servable(contract: Contract, items: ItemContract, item: unknown): string | undefined {
  const framed = frameItem(items.format, item);
  if (framed === undefined) return undefined;
  const read = sequenceItems(items.format, framed);
  if (read.length !== 1 || 'error' in read[0]!) return undefined;
  return judgeItem(contract, items, read[0]!).length === 0 ? framed : undefined;
}

/** The items an example gives: an array's elements, or the items of its serialized text. */
function exampleItems(format: SequenceFormat, entry: unknown): unknown[] | undefined {
  if (!isObject(entry)) return undefined;
  // OpenAPI 3.2 section 4.19: an Example Object's `dataValue` or `value`, or its `serializedValue` (the text).
  const value = Object.hasOwn(entry, 'dataValue') ? entry.dataValue : entry.value;
  if (Array.isArray(value)) return value.slice(0, maxExampleItems);
  const text = typeof entry.serializedValue === 'string' ? entry.serializedValue : value;
  if (typeof text !== 'string') return undefined;
  const read = sequenceItems(format, text).slice(0, maxExampleItems);
  return read.some((item) => 'error' in item) ? undefined : read.map((item) => (item as { value: unknown }).value);
}

/** The media type's examples, as lists of items: `example` first, then each of `examples` (or the named one). */
function examples(contract: Contract, media: Json, format: SequenceFormat, name: string | undefined): unknown[][] {
  const document = contract.spec.document;
  const entries: unknown[] = [];
  if (name === undefined && Object.hasOwn(media, 'example')) entries.push({ value: media.example });
  if (isObject(media.examples))
    for (const [key, entry] of Object.entries(media.examples))
      if (name === undefined || key === name) entries.push(deref(document, entry));
  return entries.flatMap((entry) => {
    const list = exampleItems(format, entry);
    return list === undefined ? [] : [list];
  });
}

/** A proposal for one item: from the itemSchema, with an SSE `data` made as JSON of its contentSchema. */
function proposalsFor(contract: Contract, items: ItemContract): fc.Arbitrary<unknown> {
  const document = contract.spec.document;
  const schemaAt = (path: JsonPath) => resolvePointer(document, `#${pathToPointer(path)}`);
  const item = schemaArbitrary(document, schemaAt(items.itemSchemaPath));
  const dataPath = items.format === 'sse' ? dataContentSchemaPath(document, items.itemSchemaPath) : undefined;
  if (dataPath === undefined) return item;
  const data = schemaArbitrary(document, schemaAt(dataPath));
  return fc
    .tuple(item, data)
    .map(([event, value]) => (isObject(event) ? { ...event, data: JSON.stringify(value) } : event));
}

function generated(contract: Contract, items: ItemContract): string[] | undefined {
  const framed: string[] = [];
  const samples = fc.sample(proposalsFor(contract, items), { numRuns: proposals * generatedItems, seed: 1 });
  for (const sample of samples) {
    const text = servable(contract, items, sample);
    if (text !== undefined) framed.push(text);
    if (framed.length === generatedItems) return framed;
  }
  if (framed.length > 0) return framed;
  const smallest = servable(
    contract,
    items,
    minimalValue(
      contract.spec.document,
      resolvePointer(contract.spec.document, `#${pathToPointer(items.itemSchemaPath)}`),
    ),
  );
  return smallest === undefined ? undefined : [smallest];
}

/**
 * The body text for a sequential media type with an itemSchema: a servable example's items (the one named by
 * `Prefer: example=NAME`, when given), else generated items; undefined when the media type is no such sequence or
 * no item could be made (the caller then answers the mock's 500).
 */
export function sequenceBody(
  contract: Contract,
  media: CompiledMediaType,
  example: string | undefined,
): string | undefined {
  const items = media.items;
  if (items === undefined) return undefined;
  const mediaObject = resolvePointer(contract.spec.document, `#${pathToPointer(items.itemSchemaPath.slice(0, -1))}`);
  for (const list of isObject(mediaObject) ? examples(contract, mediaObject, items.format, example) : []) {
    const framed = list.map((item) => servable(contract, items, item));
    if (list.length > 0 && framed.every((text) => text !== undefined)) return framed.join('');
  }
  if (example !== undefined) return undefined;
  return generated(contract, items)?.join('');
}
