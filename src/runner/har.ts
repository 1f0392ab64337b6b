// Reads a HAR capture (http://www.softwareishard.com/blog/har-12-spec/) entry by entry: the file is streamed
// and each `log.entries[i]` is parsed on its own, so memory holds one entry at a time, not the capture.
import { createReadStream } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { ContractsError } from '../core/errors.js';
import { decodeBody, type Exchange } from '../core/exchange.js';
import { BACKSLASH, CLOSE_ARRAY, CLOSE_OBJECT, COLON, OPEN_ARRAY, OPEN_OBJECT, QUOTE } from '../core/json-chars.js';

export interface HarExchange extends Exchange {
  /** 1-based position in the capture, for messages. */
  index: number;
  url: string;
}

interface HarEntry {
  request?: { method?: unknown; url?: unknown };
  response?: { status?: unknown; headers?: { name?: unknown; value?: unknown }[]; content?: { text?: unknown; encoding?: unknown } };
}

/** Yields the exchanges of a HAR file in order. Errors are ContractsErrors naming the file. */
export async function* readHar(file: string, shown = file, chunkBytes = 1 << 20): AsyncGenerator<HarExchange> {
  const splitter = new EntrySplitter(shown);
  const decoder = new StringDecoder('utf8');
  let index = 0;
  const stream = createReadStream(file, { highWaterMark: chunkBytes });
  try {
    for await (const chunk of stream) {
      for (const text of splitter.push(decoder.write(chunk as Buffer))) yield toExchange(parseEntry(text, ++index, shown), index, shown);
    }
  } catch (error) {
    if (error instanceof ContractsError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new ContractsError('INPUT_NOT_READABLE', code === 'ENOENT' ? `file not found: ${shown}` : `cannot read ${shown}: ${code ?? (error as Error).message}`);
  }
  for (const text of splitter.push(decoder.end())) yield toExchange(parseEntry(text, ++index, shown), index, shown);
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

  constructor(private readonly shown: string) {}

  push(text: string): string[] {
    const found: string[] = [];
    const capturing = () => this.entryStart >= 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
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
      if (c === QUOTE) {
        this.inString = true;
        this.stringStart = i + 1;
        this.pending = '';
      } else if (c === COLON) {
        this.keys[this.depth] = this.lastString;
      } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
        if (!this.started) {
          if (c !== OPEN_OBJECT) throw notHar(this.shown, 'the top level is not an object');
          this.started = true;
        }
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
          found.push(this.entry.join(''));
          this.entry = [];
          this.entryStart = -1;
        } else if (this.depth === 2 && this.entriesDepth === 3) {
          this.entriesDepth = -1;
        }
      } else if (c > 32 && !this.started) {
        throw notHar(this.shown, 'not JSON');
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

function parseEntry(text: string, index: number, shown: string): HarEntry {
  try {
    return JSON.parse(text) as HarEntry;
  } catch (error) {
    throw new ContractsError('INPUT_NOT_READABLE', `${shown}: entry ${index} is not valid JSON (${(error as Error).message})`);
  }
}

function toExchange(entry: HarEntry, index: number, shown: string): HarExchange {
  const method = entry.request?.method;
  const url = entry.request?.url;
  const status = entry.response?.status;
  if (typeof method !== 'string' || typeof url !== 'string' || typeof status !== 'number') {
    throw new ContractsError('INPUT_NOT_READABLE', `${shown}: entry ${index} lacks request.method, request.url or response.status`);
  }
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    throw new ContractsError('INPUT_NOT_READABLE', `${shown}: entry ${index} has an invalid request.url`);
  }
  const headers: Record<string, string> = {};
  for (const header of entry.response?.headers ?? []) {
    if (typeof header.name === 'string' && typeof header.value === 'string') headers[header.name.toLowerCase()] = header.value;
  }
  const content = entry.response?.content;
  const rawText = typeof content?.text === 'string' ? content.text : '';
  if (content?.encoding === 'base64') {
    const { text, notUtf8 } = decodeBody(Buffer.from(rawText, 'base64'));
    return { index, method, url, path, status, headers, body: text, ...(notUtf8 ? { bodyNotUtf8: true } : {}) };
  }
  return { index, method, url, path, status, headers, body: rawText };
}
