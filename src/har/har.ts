// Reads a HAR capture (http://www.softwareishard.com/blog/har-12-spec/) entry by entry: the file is streamed
// and each `log.entries[i]` is parsed on its own, so memory holds one entry at a time, not the capture.
import { createReadStream } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { ContractsError } from '../core/errors.js';
import { BACKSLASH, CLOSE_ARRAY, CLOSE_OBJECT, COLON, OPEN_ARRAY, OPEN_OBJECT, QUOTE } from '../core/json-chars.js';
import { TOO_LARGE_SOURCE, toExchange, type Found, type HarExchange } from './har-entry.js';

export type { Found, HarExchange } from './har-entry.js';

export interface ReadHarOptions {
  /** Bytes read from the file at a time. */
  chunkBytes?: number;
  /** Largest body, once decoded, that is kept; a larger one is marked bodyTooLarge (default 10 MB). */
  maxBodyBytes?: number;
}

const defaultMaxBodyBytes = 10 * 2 ** 20;

/** Keys longer than this are not `log` or `entries`: only their start is kept. */
const maxKeyChars = 64;
const BYTE_ORDER_MARK = 0xfeff;
const COMMA = 0x2c;
// How a JSON value other than an object can start: [ " - 0-9 t f n.
const JSON_START = new Set([...'["-0123456789tfn'].map((char) => char.charCodeAt(0)));

/**
 * Yields the exchanges of a HAR file in order. A file that is not a HAR is a ContractsError naming the file;
 * an entry that is not an exchange is yielded with `invalidEntry` set, and the capture goes on.
 */
export async function* readHar(file: string, shown = file, options: ReadHarOptions = {}): AsyncGenerator<HarExchange> {
  const maxBodyBytes = options.maxBodyBytes ?? defaultMaxBodyBytes;
  for await (const entries of readHarEntries(file, shown, options))
    for (const { found, index } of entries) yield toExchange(found, index, maxBodyBytes);
}

/** An entry of `log.entries` as the splitter found it, not yet parsed, with its 1-based position. */
export interface HarEntryText {
  index: number;
  found: Found;
}

/**
 * The entries of a HAR file, unparsed, in order: each batch holds those completed by one chunk of the file (so a
 * batch is handed on as soon as the file gives it, even by a slow pipe). Parsing them (toExchange) is the caller's,
 * and can happen on other threads.
 */
export async function* readHarEntries(
  file: string,
  shown = file,
  options: ReadHarOptions = {},
): AsyncGenerator<HarEntryText[]> {
  const maxBodyBytes = options.maxBodyBytes ?? defaultMaxBodyBytes;
  const splitter = new EntrySplitter(shown, maxBodyBytes);
  const decoder = new StringDecoder('utf8');
  let index = 0;
  const indexed = (found: Found[]) => found.map((entry) => ({ index: ++index, found: entry }));
  const stream = createReadStream(file, { highWaterMark: options.chunkBytes ?? 1 << 20 });
  try {
    for await (const chunk of stream) {
      const found = splitter.push(decoder.write(chunk as Buffer));
      if (found.length > 0) yield indexed(found);
    }
  } catch (error) {
    if (error instanceof ContractsError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new ContractsError(
      'INPUT_NOT_READABLE',
      code === 'ENOENT' ? `file not found: ${shown}` : `cannot read ${shown}: ${code ?? (error as Error).message}`,
    );
  }
  const found = splitter.push(decoder.end());
  if (found.length > 0) yield indexed(found);
  splitter.finish();
}

/**
 * Finds the text of each element of `log.entries` in a JSON document fed in pieces, tracking only string
 * state, nesting depth and the keys on the path (so `entries` elsewhere in the document is not mistaken).
 * Memory stays bounded by the body cap whatever the file holds: a string of an entry far longer than any body
 * under the cap is replaced by a marker as it streams by, and an entry still too long is dropped.
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
  /** Where the entry's text not yet in `entry` begins in the current chunk; -1 outside an entry. */
  private entryStart = -1;
  private entryChars = 0;
  /** Position in the entry's text just after the quote opening the current string, or -1. */
  private stringOpenedAt = -1;
  /** Skipping the rest of a string replaced by the marker. */
  private eliding = false;
  /** The entry is over the cap: its text is no longer kept. */
  private oversized = false;
  private started = false;
  private atFileStart = true;
  /** Inside a value of `log.entries` that is not an object or array (a number, true, false, null). */
  private inScalar = false;
  private readonly maxStringChars: number;
  private readonly maxEntryChars: number;

  constructor(
    private readonly shown: string,
    maxBodyBytes: number,
  ) {
    // In JSON text a byte takes at most 6 characters (\u0000), so a longer string is surely over the cap.
    this.maxStringChars = 6 * maxBodyBytes + 64;
    this.maxEntryChars = 16 * maxBodyBytes + 65_536;
  }

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
          if (this.depth <= 2)
            this.lastString = (
              this.pending + text.slice(this.stringStart, Math.min(i, this.stringStart + maxKeyChars))
            ).slice(0, maxKeyChars);
          this.pending = '';
          this.stringOpenedAt = -1;
          if (this.eliding) {
            this.eliding = false;
            this.entryStart = i;
          }
        }
        continue;
      }
      if (!this.started && c > 32 && c !== OPEN_OBJECT) {
        throw notHar(
          this.shown,
          JSON_START.has(c) ? 'the top level is not an object ({"log": {"entries": […]}})' : 'not JSON',
        );
      }
      if (c === QUOTE) {
        this.inString = true;
        this.stringStart = i + 1;
        this.pending = '';
        if (capturing()) this.stringOpenedAt = this.entryChars + (i + 1 - this.entryStart);
        if (this.depth === this.entriesDepth && !capturing()) found.push({ notObject: 'a string' });
      } else if (
        this.depth === this.entriesDepth &&
        !capturing() &&
        c > 32 &&
        c !== COMMA &&
        c !== OPEN_OBJECT &&
        c !== OPEN_ARRAY &&
        c !== CLOSE_ARRAY
      ) {
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
          this.entryChars = 0;
          this.oversized = false;
        }
        this.depth++;
      } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
        this.depth--;
        if (this.depth === this.entriesDepth && capturing()) {
          if (this.oversized) found.push({ tooLarge: this.maxEntryChars });
          else {
            this.entry.push(text.slice(this.entryStart, i + 1));
            found.push({ text: this.entry.join('') });
          }
          this.entry = [];
          this.entryStart = -1;
        } else if (this.depth === 2 && this.entriesDepth === 3) {
          this.entriesDepth = -1;
        }
      }
    }
    if (this.inString && this.depth <= 2 && this.pending.length < maxKeyChars)
      this.pending += text.slice(this.stringStart, this.stringStart + maxKeyChars);
    this.stringStart = 0;
    if (capturing()) this.keepChunkOfEntry(text);
    return found;
  }

  private keepChunkOfEntry(text: string): void {
    if (!this.eliding && !this.oversized) {
      const piece = text.slice(this.entryStart);
      this.entry.push(piece);
      this.entryChars += piece.length;
    }
    this.entryStart = 0;
    if (
      this.inString &&
      this.stringOpenedAt >= 0 &&
      !this.eliding &&
      !this.oversized &&
      this.entryChars - this.stringOpenedAt > this.maxStringChars
    ) {
      const head = this.entry.join('').slice(0, this.stringOpenedAt) + TOO_LARGE_SOURCE;
      this.entry = [head];
      this.entryChars = head.length;
      this.eliding = true;
    }
    if (!this.oversized && this.entryChars > this.maxEntryChars) {
      this.oversized = true;
      this.entry = [];
      this.entryChars = 0;
    }
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
