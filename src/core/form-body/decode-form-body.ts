// A form body read back into the value its schema judges (OpenAPI 3.1 sections 4.8.14.4, 4.8.14.5 and 4.8.15): each
// field by name, its text typed as its property's schema says (a numeral for an integer, true/false for a boolean,
// JSON for an object: "complex values default to application/json"), a repeated name an array, a styled field as
// its style writes it. What the body's text cannot say (a file's bytes, text that was not UTF-8) is marked opaque:
// present, its content not judged.
import { mediaTypeOf } from '../exchange.js';
import { isJsonType } from '../media-type.js';
import { shortened } from '../compile-spec.js';
import { describeJsonSyntaxError } from '../json-syntax-error.js';
import { decodeParameter, MalformedParameter, queryPairs } from '../parameter-style-decode.js';
import type { EncodingHeader, FormField, FormPlan } from './form-plan.js';
import { maxParts, readMultipart, type MultipartPart } from './multipart-form-data.js';

export interface FormProblem {
  instancePath: string;
  message: string;
  expected?: unknown;
  actual?: unknown;
}

export interface FormReading {
  value: Record<string, unknown>;
  /** Pointers into `value` whose content is not judged, only its presence (files, text not kept as sent). */
  opaque: string[];
  /** What reading the parts found wrong: a part's Content-Type against its Encoding Object, JSON, headers. */
  problems: FormProblem[];
}

export type FormDecoding = FormReading | { malformed: string } | { tooMany: number };

export interface DecodeOptions {
  /** The body's bytes were not UTF-8: text holding U+FFFD is not the text sent. */
  notUtf8?: boolean;
  /** Judges an Encoding Object header's value: the messages of what it breaks (none when it holds). */
  judgeHeader?: (header: EncodingHeader, value: unknown) => string[];
}

export function decodeFormBody(
  plan: FormPlan,
  body: string,
  contentType: string | undefined,
  options: DecodeOptions = {},
): FormDecoding {
  return plan.multipart ? decodeMultipart(plan, body, contentType, options) : decodeUrlencoded(plan, body, options);
}

function decodeUrlencoded(plan: FormPlan, body: string, options: DecodeOptions): FormDecoding {
  const pairs = readPairs(body);
  if (!('texts' in pairs)) return pairs;
  const reading: FormReading = { value: {}, opaque: [], problems: [] };
  const claimed = styledFields(plan, body, reading);
  for (const [name, texts] of pairs.texts) {
    if (claimed.has(name)) continue;
    const field = plan.fields.get(name) ?? plan.others;
    const json = field.contentTypes?.some(isJsonType) === true;
    const read = (text: string, types: string[]) => (json ? readJson(text) : readText(text, types));
    const value =
      field.types.includes('array') && !(json && texts.length === 1)
        ? texts.map((text) => read(text, field.itemTypes))
        : texts.length === 1
          ? read(texts[0]!, field.types)
          : texts.map((text) => read(text, field.types));
    setOwn(reading.value, name, value);
    if ((options.notUtf8 || pairs.notUtf8.has(name)) && texts.some((text) => text.includes('\uFFFD')))
      reading.opaque.push(pointer(name));
  }
  return reading;
}

/**
 * The fields an Encoding Object styles, read by the parameter style codec as a query's are (section 4.8.15: style
 * and explode "follow the same values as query parameters"); the pair names they took.
 */
function styledFields(plan: FormPlan, body: string, reading: FormReading): Set<string> {
  const claimed = new Set<string>();
  const styled = [...plan.fields].filter(([, field]) => field.style !== undefined);
  if (styled.length === 0) return claimed;
  const wire = queryPairs(body);
  for (const [name, field] of styled) {
    const { style, explode } = field.style!;
    const others = new Set([...plan.fields.keys()].filter((other) => other !== name));
    const param = { name, in: 'query' as const, style, explode, schema: field.schema, resolve: plan.resolve };
    const value = decodeParameter(param, wire, others);
    if (style === 'deepObject') {
      for (const pairName of wire.keys()) if (pairName.startsWith(`${name}[`)) claimed.add(pairName);
    } else if (value !== null && typeof value === 'object' && !Array.isArray(value) && explode && style === 'form') {
      for (const key of Object.keys(value)) claimed.add(key);
    } else claimed.add(name);
    if (value instanceof MalformedParameter)
      reading.problems.push({
        instancePath: pointer(name),
        message: `field "${shortened(name)}" is not written in its ${style} style`,
      });
    else if (value !== undefined) setOwn(reading.value, name, value);
  }
  return claimed;
}

interface Pairs {
  texts: Map<string, string[]>;
  /** Names with a value whose percent-encoded bytes were not UTF-8. */
  notUtf8: Set<string>;
}

/** `a=1&b=x+y` → pairs (RFC 1866 section 8.2.1, https://url.spec.whatwg.org/#urlencoded-parsing), each `%HH` checked. */
function readPairs(body: string): Pairs | { malformed: string } | { tooMany: number } {
  const texts = new Map<string, string[]>();
  const notUtf8 = new Set<string>();
  let count = 0;
  for (const piece of body.split('&')) {
    if (piece === '') continue;
    if (++count > maxParts) return { tooMany: maxParts };
    const equals = piece.indexOf('=');
    const rawName = equals < 0 ? piece : piece.slice(0, equals);
    const rawValue = equals < 0 ? '' : piece.slice(equals + 1);
    if (/%(?![0-9A-Fa-f]{2})/.test(piece))
      return { malformed: `field ${count} has a % not followed by two hex digits` };
    const name = percentDecode(rawName);
    const value = percentDecode(rawValue);
    if (!name.utf8 || !value.utf8) notUtf8.add(name.text);
    const list = texts.get(name.text);
    if (list) list.push(value.text);
    else texts.set(name.text, [value.text]);
  }
  return { texts, notUtf8 };
}

function percentDecode(raw: string): { text: string; utf8: boolean } {
  const plain = raw.replace(/\+/g, ' ');
  // decodeURIComponent costs about a microsecond a character even with nothing to decode.
  if (!plain.includes('%')) return { text: plain, utf8: true };
  try {
    return { text: decodeURIComponent(plain), utf8: true };
  } catch {
    // Bytes that are not UTF-8 (a form in another charset): read with U+FFFD, and their content not judged.
    const bytes = plain
      .split(/(%[0-9A-Fa-f]{2})/)
      .flatMap((piece) =>
        /^%[0-9A-Fa-f]{2}$/.test(piece) ? [Number.parseInt(piece.slice(1), 16)] : [...Buffer.from(piece, 'utf8')],
      );
    return { text: new TextDecoder('utf-8').decode(Uint8Array.from(bytes)), utf8: false };
  }
}

function decodeMultipart(
  plan: FormPlan,
  body: string,
  contentType: string | undefined,
  options: DecodeOptions,
): FormDecoding {
  const read = readMultipart(body, contentType);
  if ('malformed' in read) return read;
  if ('tooManyParts' in read) return { tooMany: read.tooManyParts };
  const byName = new Map<string, MultipartPart[]>();
  for (const part of read.parts) {
    const list = byName.get(part.name);
    if (list) list.push(part);
    else byName.set(part.name, [part]);
  }
  const reading: FormReading = { value: {}, opaque: [], problems: [] };
  for (const [name, parts] of byName) {
    const field = plan.fields.get(name) ?? plan.others;
    for (const part of parts) reading.problems.push(...partProblems(name, field, part, options));
    // One part per item (RFC 7578 section 4.3; OpenAPI: an array's default contentType is its items'), or one JSON
    // part holding the whole array: the Encoding Object says JSON, or the one JSON part is an array of non-arrays.
    const single = parts.length === 1 && isJsonType(mediaTypeOf(parts[0]!.headers['content-type']) ?? '');
    const whole =
      field.contentTypes?.some(isJsonType) === true ||
      (single && /^\s*\[/.test(parts[0]!.content) && !field.itemTypes.includes('array'));
    const asItems = field.types.includes('array') && !whole;
    const readings = parts.map((part, index) =>
      readPart(part, asItems ? field.itemTypes : field.types, asItems ? field.itemBinary : field.binary, options, [
        name,
        ...(asItems || parts.length > 1 ? [index] : []),
      ]),
    );
    setOwn(reading.value, name, asItems || parts.length > 1 ? readings.map((r) => r.value) : readings[0]!.value);
    if (field.style) reading.opaque.push(pointer(name));
    for (const one of readings) {
      if (one.opaque) reading.opaque.push(one.opaque);
      if (one.problem) reading.problems.push(one.problem);
    }
  }
  return reading;
}

interface PartReading {
  value: unknown;
  opaque?: string;
  problem?: FormProblem;
}

/** One part's content: JSON when it says so, a file's bytes opaque, text typed by the field's schema. */
function readPart(
  part: MultipartPart,
  types: string[],
  binary: boolean,
  options: DecodeOptions,
  at: (string | number)[],
): PartReading {
  const where = at.map((segment) => pointer(String(segment))).join('');
  const type = mediaTypeOf(part.headers['content-type']);
  if (type !== undefined && isJsonType(type)) {
    try {
      return { value: JSON.parse(part.content) };
    } catch {
      const message = `part "${shortened(at[0] as string)}" is sent as ${type} and is not valid JSON: ${describeJsonSyntaxError(part.content)}`;
      return { value: part.content, opaque: where, problem: { instancePath: where, message } };
    }
  }
  const text = type === undefined || type.startsWith('text/') || type === 'application/x-www-form-urlencoded';
  if (binary || !text || (options.notUtf8 && part.content.includes('\uFFFD')))
    return { value: part.content, opaque: where };
  return { value: readText(part.content, types) };
}

/** The part's Content-Type against its Encoding Object's contentType, and the Encoding Object's headers. */
function partProblems(name: string, field: FormField, part: MultipartPart, options: DecodeOptions): FormProblem[] {
  const problems: FormProblem[] = [];
  const instancePath = pointer(name);
  const shown = `part "${shortened(name)}"`;
  const sent = mediaTypeOf(part.headers['content-type']);
  // RFC 7578 section 4.4: a part without one is text/plain; only a Content-Type that is sent can contradict.
  if (sent !== undefined && field.contentTypes && !field.contentTypes.some((allowed) => mediaMatches(allowed, sent)))
    problems.push({
      instancePath,
      message: `${shown} is sent as ${shortened(sent)}; its Encoding Object's contentType allows ${field.contentTypes.join(', ')}`,
      expected: field.contentTypes,
      actual: sent,
    });
  for (const header of field.headers) {
    const value = Object.hasOwn(part.headers, header.key) ? part.headers[header.key] : undefined;
    if (value === undefined) {
      if (header.required)
        problems.push({
          instancePath,
          message: `${shown} lacks the ${header.name} header its Encoding Object requires`,
        });
      continue;
    }
    for (const reason of options.judgeHeader?.(header, readText(value, header.types)) ?? [])
      problems.push({ instancePath, message: `${shown}'s ${header.name} header ${reason}` });
  }
  return problems;
}

/** A numeral for a number, true/false for a boolean, JSON for an object or array, else the text as it is. */
export function readText(text: string, types: string[]): unknown {
  if ((types.includes('integer') || types.includes('number')) && numeral.test(text)) return Number(text);
  if (types.includes('boolean') && (text === 'true' || text === 'false')) return text === 'true';
  if (types.includes('null') && (text === 'null' || (text === '' && !types.includes('string')))) return null;
  if ((types.includes('object') || types.includes('array')) && /^\s*[[{]/.test(text)) return readJson(text);
  return text;
}

function readJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** A JSON number as text: what a server reads as a number off the wire. */
const numeral = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

/** A media range of an Encoding Object (`image/png`, `image/*`, `*\/*`) against a part's type/subtype. */
function mediaMatches(range: string, type: string): boolean {
  if (range === type || range === '*/*') return true;
  return range.endsWith('/*') && type.startsWith(range.slice(0, -1));
}

function pointer(name: string): string {
  return `/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
