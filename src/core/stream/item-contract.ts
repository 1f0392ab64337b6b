// What a response of a sequential media type is held to, item by item (OpenAPI 3.2 section 4.14.3): the
// `itemSchema`'s validator, and for server-sent events whose itemSchema says the `data` field holds JSON
// (`contentMediaType: application/json` or a +json type, with a `contentSchema`: section 4.14.4.2 names these
// keywords for "string-encoded data"), a validator of that JSON too. Built at load (lazily, as the rest of the
// contract), never per exchange.
import type { ValidateFunction } from 'ajv';
import { resolvePointer, pointerToPath, type JsonPath } from '../source-locator.js';
import { sequenceFormat, type SequenceFormat } from './sequence-items.js';

export interface ItemContract {
  format: SequenceFormat;
  itemSchemaPath: JsonPath;
  readonly validate: ValidateFunction | undefined;
  /** Server-sent events: the `data` field's JSON, held to its contentSchema; undefined when none is described. */
  readonly validateData: ValidateFunction | undefined;
}

type Validator = (schemaPath: JsonPath | undefined) => () => ValidateFunction | undefined;

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** The schema at a path and its own path, after following `$ref`s (a few hops). */
function follow(document: object, path: JsonPath): { value: unknown; path: JsonPath } {
  let current = { value: resolvePointer(document, `#${pointer(path)}`), path };
  for (let hops = 0; hops < 10 && isObject(current.value) && typeof current.value.$ref === 'string'; hops++) {
    const ref = current.value.$ref as string;
    if (!ref.startsWith('#')) break;
    current = { value: resolvePointer(document, ref), path: pointerToPath(ref) };
  }
  return current;
}

const pointer = (path: JsonPath) =>
  path.map((part) => `/${String(part).replaceAll('~', '~0').replaceAll('/', '~1')}`).join('');

/** Where the JSON of an event's `data` is described, when the itemSchema says so. */
export function dataContentSchemaPath(document: object, itemSchemaPath: JsonPath): JsonPath | undefined {
  const item = follow(document, itemSchemaPath);
  if (!isObject(item.value) || !isObject(item.value.properties) || !Object.hasOwn(item.value.properties, 'data'))
    return undefined;
  const data = follow(document, [...item.path, 'properties', 'data']);
  if (!isObject(data.value) || !Object.hasOwn(data.value, 'contentSchema')) return undefined;
  const media = typeof data.value.contentMediaType === 'string' ? data.value.contentMediaType.toLowerCase() : '';
  const essence = media.split(';')[0]!.trim();
  return essence === 'application/json' || essence.endsWith('+json') ? [...data.path, 'contentSchema'] : undefined;
}

/** The item contract of a documented media type with an itemSchema whose format we read; else nothing. */
export function itemContract(
  document: object,
  media: { mediaType: string; itemSchemaPath?: JsonPath },
  validator: Validator,
): { items?: ItemContract } {
  const format = sequenceFormat(media.mediaType);
  if (media.itemSchemaPath === undefined || format === undefined) return {};
  const itemSchemaPath = media.itemSchemaPath;
  const validate = validator(itemSchemaPath);
  const validateData = validator(format === 'sse' ? dataContentSchemaPath(document, itemSchemaPath) : undefined);
  return {
    items: {
      format,
      itemSchemaPath,
      get validate() {
        return validate();
      },
      get validateData() {
        return validateData();
      },
    },
  };
}
