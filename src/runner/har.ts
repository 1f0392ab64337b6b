// Reads a HAR capture (http://www.softwareishard.com/blog/har-12-spec/) entry by entry: the file is streamed
// and each `log.entries[i]` is parsed on its own, so memory holds one entry at a time, not the capture.
import { createReadStream } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { ContractsError } from '../core/errors.js';
import { decodeBody, headerValue, type Exchange } from '../core/exchange.js';
import { BACKSLASH, CLOSE_ARRAY, CLOSE_OBJECT, COLON, OPEN_ARRAY, OPEN_OBJECT, QUOTE } from '../core/json-chars.js';
import { decodeContentEncoding } from './decode-content-encoding.js';

export interface HarExchange extends Exchange {
  /** 1-based position in the capture, for messages. */
  index: number;
  url: string;
  /**
   * Set when the entry could not be read as an exchange (not an object, not valid JSON, a field missing):
   * why, in one line that holds no text of the entry. method, url and path are then '' and status 0.
   */
  invalidEntry?: string;
}

export interface ReadHarOptions {
  /** Bytes read from the file at a time. */
  chunkBytes?: number;
  /** Largest body, once decoded, that is kept; a larger one is marked bodyTooLarge (default 10 MB). */
  maxBodyBytes?: number;
}

const defaultMaxBodyBytes = 10 * 2 ** 20;

/** What the splitter found in `log.entries`: an object's (or array's) text, or a value of another type. */
type Found = { text: string } | { notObject: string };

interface HarEntry {
  request?: { method?: unknown; url?: unknown };
  response?: { status?: unknown; headers?: { name?: unknown; value?: unknown }[]; content?: { text?: unknown; encoding?: unknown } };
}

/**
 * Yields the exchanges of a HAR file in order. A file that is not a HAR is a ContractsError naming the file;
 * an entry that is not an exchange is yielded with `invalidEntry` set, and the capture goes on.
 */
export async function* readHar(file: string, shown = file, options: ReadHarOptions = {}): AsyncGenerator<HarExchange> {
  const splitter = new EntrySplitter(shown);
  const decoder = new StringDecoder('utf8');
  const maxBodyBytes = options.maxBodyBytes ?? defaultMaxBodyBytes;
  let index = 0;
  const stream = createReadStream(file, { highWaterMark: options.chunkBytes ?? 1 << 20 });
  try {
    for await (const chunk of stream) {
      for (const found of splitter.push(decoder.write(chunk as Buffer))) yield toExchange(found, ++index, maxBodyBytes);
    }
  } catch (error) {
    if (error instanceof ContractsError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new ContractsError('INPUT_NOT_READABLE', code === 'ENOENT' ? `file not found: ${shown}` : `cannot read ${shown}: ${code ?? (error as Error).message}`);
  }
  for (const found of splitter.push(decoder.end())) yield toExchange(found, ++index, maxBodyBytes);
  splitter.finish();
}

/**
 * Finds the text of each element of `log.entries` in a JSON document fed in pieces, tracking only string
 * state, nesting depth and the keys on the path (so `entries` elsewhere in the document is not mistaken).
 */
class EntrySplitter {
  private depth = 0;
  private inString = false;
  private escaped = false;
  private stringStart = -1;
  private lastString = '';
  private pending = '';
  private readonly keys: string[] = [];
  private entriesDepth = -1;
  private sawEntries = false;
  private entry: string[] = [];
  private entryStart = -1;
  private started = false;
  private atFileStart = true;
  /** Inside a value of `log.entries` that is not an object or array (a number, true, false, null). */
  private inScalar = false;

  constructor(private readonly shown: string) {}

  push(text: string): Found[] {
    const found: Found[] = [];
    const capturing = () => this.entryStart >= 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (this.atFileStart) {
        this.atFileStart = false;
        // A byte order mark, as some Windows tools write: not part of the JSON.
        if (c === BYTE_ORDER_MARK) continue;
      }
      if (this.inScalar) {
        if (c !== COMMA && c !== CLOSE_ARRAY && c > 32) continue;
        this.inScalar = false;
      }
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === BACKSLASH) this.escaped = true;
        else if (c === QUOTE) {
          this.inString = false;
          // Only keys near the top are needed; long strings (bodies) are never kept.
          if (this.depth <= 2) this.lastString = this.pending + text.slice(this.stringStart, i);
          this.pending = '';
        }
        continue;
      }
      if (!this.started && c > 32 && c !== OPEN_OBJECT) {
        throw notHar(this.shown, JSON_START.has(c) ? 'the top level is not an object ({"log": {"entries": […]}})' : 'not JSON');
      }
      if (c === QUOTE) {
        this.inString = true;
        this.stringStart = i + 1;
        this.pending = '';
        if (this.depth === this.entriesDepth && !capturing()) found.push({ notObject: 'a string' });
      } else if (this.depth === this.entriesDepth && !capturing() && c > 32 && c !== COMMA && c !== OPEN_OBJECT && c !== OPEN_ARRAY && c !== CLOSE_ARRAY) {
        found.push({ notObject: c === 0x74 || c === 0x66 ? 'a boolean' : c === 0x6e ? 'null' : 'a number' });
        this.inScalar = true;
      } else if (c === COLON) {
        this.keys[this.depth] = this.lastString;
      } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
        this.started = true;
        if (c === OPEN_ARRAY && this.depth === 2 && this.keys[1] === 'log' && this.keys[2] === 'entries') {
          this.entriesDepth = 3;
          this.sawEntries = true;
        } else if (this.depth === this.entriesDepth && this.entriesDepth > 0) {
          this.entryStart = i;
          this.entry = [];
        }
        this.depth++;
      } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
        this.depth--;
        if (this.depth === this.entriesDepth && capturing()) {
          this.entry.push(text.slice(this.entryStart, i + 1));
          found.push({ text: this.entry.join('') });
          this.entry = [];
          this.entryStart = -1;
        } else if (this.depth === 2 && this.entriesDepth === 3) {
          this.entriesDepth = -1;
        }
      }
    }
    if (this.inString && this.depth <= 2) this.pending += text.slice(this.stringStart);
    this.stringStart = 0;
    if (capturing()) {
      this.entry.push(text.slice(this.entryStart));
      this.entryStart = 0;
    }
    return found;
  }

  finish(): void {
    if (!this.started) throw notHar(this.shown, 'the file is empty');
    if (this.depth !== 0 || this.inString) throw notHar(this.shown, 'the JSON is cut off');
    if (!this.sawEntries) throw notHar(this.shown, 'no log.entries array');
  }
}

function notHar(shown: string, reason: string): ContractsError {
  return new ContractsError('INPUT_NOT_READABLE', `${shown} is not a HAR file: ${reason}`);
}

const BYTE_ORDER_MARK = 0xfeff;
const COMMA = 0x2c;
// How a JSON value other than an object can start: [ " - 0-9 t f n.
const JSON_START = new Set([...'["-0123456789tfn'].map((char) => char.charCodeAt(0)));

function invalid(index: number, reason: string): HarExchange {
  return { index, method: '', url: '', path: '', status: 0, headers: {}, body: '', invalidEntry: `entry ${index} ${reason}` };
}

function toExchange(found: Found, index: number, maxBodyBytes: number): HarExchange {
  if ('notObject' in found) return invalid(index, `is ${found.notObject}, not an object`);
  let entry: unknown;
  try {
    entry = JSON.parse(found.text);
  } catch (error) {
    // The parser's message quotes the text around the fault, and that text may be a secret: only the position.
    const position = /position (\d+)/.exec((error as Error).message)?.[1];
    return invalid(index, `is not valid JSON${position === undefined ? '' : ` (at character ${position} of the entry)`}`);
  }
  if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) return invalid(index, `is ${Array.isArray(entry) ? 'an array' : 'not an object'}, not an object`);
  const { request, response } = entry as HarEntry;
  const method = request?.method;
  const url = request?.url;
  const status = response?.status;
  if (typeof method !== 'string' || typeof url !== 'string' || typeof status !== 'number') {
    return invalid(index, 'lacks request.method, request.url or response.status');
  }
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    return invalid(index, 'has an invalid request.url');
  }
  const headers: Record<string, string> = {};
  for (const header of Array.isArray(response?.headers) ? response.headers : []) {
    if (typeof header?.name === 'string' && typeof header.value === 'string') headers[header.name.toLowerCase()] = header.value;
  }
  const exchange = { index, method, url, path, status, headers };
  const content = response?.content;
  const rawText = typeof content?.text === 'string' ? content.text : '';
  if (content?.encoding !== 'base64') {
    return Buffer.byteLength(rawText) > maxBodyBytes ? { ...exchange, body: '', bodyTooLarge: maxBodyBytes } : { ...exchange, body: rawText };
  }
  // base64 is how a HAR holds bytes as they came: possibly still compressed.
  const decoded = decodeContentEncoding(Buffer.from(rawText, 'base64'), headerValue(headers, 'content-encoding'), maxBodyBytes);
  if ('tooLarge' in decoded) return { ...exchange, body: '', bodyTooLarge: maxBodyBytes };
  const { text, notUtf8 } = decodeBody(decoded.bytes);
  return { ...exchange, body: text, ...(notUtf8 ? { bodyNotUtf8: true } : {}) };
}
