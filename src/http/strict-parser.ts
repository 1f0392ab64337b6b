// HTTP/1.1 message framing for the proxy: http-parser-js (the pure-JS parser autocannon and websocket-driver use)
// with its lenient header-line handling made strict. Left alone it skips a line it cannot read ("Bad Header: x")
// and joins folded lines; here either is a parse error, as in Node's own server, so what the proxy forwards is
// exactly what it understood. Messages are re-framed when forwarded (heads rebuilt, bodies re-chunked), so the
// target never reads bytes the proxy framed differently.
import { HTTPParser } from 'http-parser-js';

// Bytes 0x80–0xff in heads stay themselves (the parser's default, 'ascii', would clear their high bit).
(HTTPParser as unknown as { encoding: BufferEncoding }).encoding = 'latin1';

/** RFC 9110 token characters: a header name. */
const token = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** A field value: no control characters but HTAB. */
const fieldValue = /^[\t\x20-\x7e\x80-\xff]*$/;
const edgeWhitespace = /^[ \t]+|[ \t]+$/g;
/** A Content-Length: digits only (the parser's own reading, `+value`, takes "-1", "0x10" and "" too). */
const byteCount = /^\d{1,15}$/;
/** A chunk-size line (RFC 9112 section 7.1): hex digits, then extensions, which are dropped when re-chunked. */
const chunkSize = /^0*([0-9A-Fa-f]{1,12})(?:[ \t]*;[^\r\n]*)?$/;

export class ParseError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

export interface HeadInfo {
  versionMajor: number;
  versionMinor: number;
  headers: string[];
  method: number;
  url: string;
  statusCode: number;
  statusMessage: string;
  upgrade: boolean;
  shouldKeepAlive: boolean;
}

/** The parser's own shape, as used here (its typings describe the callbacks, not these fields). */
export interface FramingParser {
  execute(chunk: Buffer): number | Error;
  finish(): undefined | Error;
  /** True while the message being read has a chunked body. */
  isChunked: boolean;
  [HTTPParser.kOnHeadersComplete]: (info: HeadInfo) => number | undefined;
  [HTTPParser.kOnBody]: (chunk: Buffer, offset: number, length: number) => void;
  [HTTPParser.kOnMessageComplete]: () => void;
}

class StrictParser extends (HTTPParser as unknown as new (type: string) => object) {
  parseHeader(line: string, headers: string[]): void {
    const colon = line.indexOf(':');
    const name = colon > 0 ? line.slice(0, colon) : '';
    if (!token.test(name))
      throw new ParseError(
        line[0] === ' ' || line[0] === '\t'
          ? 'a folded header line (obsolete line folding is refused)'
          : `a header line that is not "name: value": ${JSON.stringify(line.slice(0, 60))}`,
        'HPE_INVALID_HEADER_TOKEN',
      );
    const value = line.slice(colon + 1).replace(edgeWhitespace, '');
    if (!fieldValue.test(value))
      throw new ParseError(`a control character in the value of header ${name}`, 'HPE_INVALID_HEADER_TOKEN');
    // A negative length would have the parser step backwards through its buffer for ever.
    if (name.length === 14 && name.toLowerCase() === 'content-length' && !byteCount.test(value))
      throw new ParseError(
        `Content-Length ${JSON.stringify(value.slice(0, 40))} is not a byte count`,
        'HPE_INVALID_CONTENT_LENGTH',
      );
    headers.push(name, value);
  }

  /**
   * The parser's own reads a chunk size with parseInt: "-5" is a chunk of -5 bytes (it then loops for ever), "5zz"
   * is 5 and "zz" ends the body. Here anything but hex digits and extensions is a parse error.
   */
  BODY_CHUNKHEAD(): void {
    const self = this as unknown as { consumeLine(): string | undefined; body_bytes: number; state: string };
    const line = self.consumeLine();
    if (line === undefined) return;
    const match = chunkSize.exec(line);
    if (!match)
      throw new ParseError(
        `a chunk size that is not a hexadecimal count: ${JSON.stringify(line.slice(0, 40))}`,
        'HPE_INVALID_CHUNK_SIZE',
      );
    self.body_bytes = Number.parseInt(match[1]!, 16);
    self.state = self.body_bytes === 0 ? 'BODY_CHUNKTRAILERS' : 'BODY_CHUNK';
  }
}

export const methods = (HTTPParser as unknown as { methods: string[] }).methods;

export function requestParser(): FramingParser {
  return new StrictParser(HTTPParser.REQUEST) as unknown as FramingParser;
}

export function responseParser(): FramingParser {
  return new StrictParser(HTTPParser.RESPONSE) as unknown as FramingParser;
}

export const kOnHeadersComplete = HTTPParser.kOnHeadersComplete;
export const kOnBody = HTTPParser.kOnBody;
export const kOnMessageComplete = HTTPParser.kOnMessageComplete;

/** The first value of header `name` (lower case) in raw headers ([name, value, name, value…]), if any. */
export function rawHeader(headers: readonly string[], name: string): string | undefined {
  for (let index = 0; index + 1 < headers.length; index += 2)
    if (headers[index]!.length === name.length && headers[index]!.toLowerCase() === name) return headers[index + 1];
  return undefined;
}

export interface Framing {
  /** The body is chunked. */
  chunked: boolean;
  /** The Content-Length given, if any. */
  length: number | undefined;
}

/** Why a message's framing cannot be relayed: `code` as llhttp names it; `unsupported`, a coding not relayed. */
export interface FramingProblem {
  reason: string;
  code: string;
  unsupported?: true;
}

/**
 * How a message's body is framed, or why it is refused (RFC 9112 section 6): a Transfer-Encoding other than exactly
 * `chunked` or given twice, Transfer-Encoding with Content-Length, a Content-Length given twice or that is not
 * digits. Each reading another parser could make differently is refused, never resolved.
 */
export function messageFraming(headers: readonly string[]): Framing | FramingProblem {
  let transferEncoding: string | undefined;
  let length: number | undefined;
  for (let index = 0; index < headers.length; index += 2) {
    const name = headers[index]!;
    if (name.length === 17 && name.toLowerCase() === 'transfer-encoding') {
      if (transferEncoding !== undefined)
        return { reason: 'more than one Transfer-Encoding header', code: 'HPE_INVALID_TRANSFER_ENCODING' };
      transferEncoding = headers[index + 1]!.toLowerCase();
    } else if (name.length === 14 && name.toLowerCase() === 'content-length') {
      const value = headers[index + 1]!;
      if (!byteCount.test(value))
        return {
          reason: `Content-Length ${JSON.stringify(value.slice(0, 40))} is not a byte count`,
          code: 'HPE_INVALID_CONTENT_LENGTH',
        };
      if (length !== undefined)
        return { reason: 'more than one Content-Length header', code: 'HPE_UNEXPECTED_CONTENT_LENGTH' };
      length = Number(value);
    }
  }
  if (transferEncoding === undefined) return { chunked: false, length };
  if (transferEncoding !== 'chunked')
    return {
      reason: `Transfer-Encoding ${JSON.stringify(transferEncoding.slice(0, 40))} is not relayed (only chunked is)`,
      code: 'HPE_INVALID_TRANSFER_ENCODING',
      unsupported: true,
    };
  if (length !== undefined)
    return {
      reason: 'both Transfer-Encoding and Content-Length: the framing is ambiguous',
      code: 'HPE_UNEXPECTED_CONTENT_LENGTH',
    };
  return { chunked: true, length: undefined };
}

/** Headers that say where a message ends or where it goes: one named in Connection would be dropped on the way. */
const framingHeaders = new Set(['content-length', 'transfer-encoding', 'host']);

/**
 * The framing header a Connection header names, if any (RFC 9110 section 7.6.1: a proxy drops what Connection
 * names, so `Connection: content-length` would have the next hop read the body as further messages).
 */
export function framingNamedInConnection(headers: readonly string[]): string | undefined {
  for (let index = 0; index < headers.length; index += 2) {
    if (headers[index]!.length !== 10 || headers[index]!.toLowerCase() !== 'connection') continue;
    for (const name of headers[index + 1]!.split(',')) {
      const trimmed = name.trim().toLowerCase();
      if (framingHeaders.has(trimmed)) return trimmed;
    }
  }
  return undefined;
}

/** A request's framing, or the status and reason it is refused with (400, or 501 for a coding not relayed). */
export function requestFraming(headers: readonly string[]): Framing | { status: number; reason: string } {
  const named = framingNamedInConnection(headers);
  if (named !== undefined)
    return { status: 400, reason: `the Connection header names ${named}, which frames the message` };
  const framing = messageFraming(headers);
  if (!('reason' in framing)) return framing;
  return { status: framing.unsupported ? 501 : 400, reason: framing.reason };
}
