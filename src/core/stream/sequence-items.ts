// The items of a sequential media type (OpenAPI 3.2 section 4.14.3, "Sequential Media Types": a body that is a
// sequence of items, each described by the Media Type Object's `itemSchema`), read as text arrives: a whole body
// given at once, or a stream given chunk by chunk (the proxy), in memory bounded by the largest item.
// - application/jsonl, application/x-ndjson: one JSON text per line (JSON Lines; NDJSON), LF or CRLF; an empty
//   line is no item.
// - application/json-seq (RFC 7464 section 2.1): each record starts with RS (0x1E) and ends with LF; a record that is
//   not JSON is said, not judged (section 2.3 lets a parser skip it: we report it, as a server should not send it).
// - text/event-stream (WHATWG HTML section 9.2.6, "Interpreting an event stream"; OpenAPI 3.2 section 4.14.4.2,
//   "Special Considerations for Server-Sent Events"): each event is the object of its fields, `data` (its lines
//   joined by LF), `event`, `id` and `retry` (an integer, only when all digits, as HTML reads it); comments are not
//   part of it. An event is the lines up to a blank line; what is left at the end of the stream, HTML discards.

export type SequenceFormat = 'jsonl' | 'json-seq' | 'sse';

/** One item as read: its JSON value (an SSE event as an object), or why it is none. */
export type SequenceItem =
  | { index: number; line: number; value: unknown; text: string }
  | { index: number; line: number; error: string; text: string };

/** Which sequence format a media type (lower case, no parameters) is, if it is one this reads. */
export function sequenceFormat(mediaType: string): SequenceFormat | undefined {
  const essence = mediaType.split(';')[0]!.trim().toLowerCase();
  if (essence === 'application/jsonl' || essence === 'application/x-ndjson' || essence === 'application/x-jsonlines')
    return 'jsonl';
  if (essence === 'application/json-seq') return 'json-seq';
  if (essence === 'text/event-stream') return 'sse';
  return undefined;
}

/** An item longer than this many characters is not held: it is reported, and reading goes on after it. */
export const defaultMaxItemChars = 4 * 2 ** 20;

/** Reads items from text as it arrives: push each chunk, then end(). Holds at most one unfinished item. */
export class SequenceReader {
  private pending = '';
  private skipping = false;
  private index = 0;
  /** The line (1-based) where the unfinished text starts. */
  private line = 1;
  private event: Record<string, unknown> = {};
  private data: string[] | undefined;
  private eventLine = 1;
  private lastWasCr = false;
  private eventChars = 0;
  private eventTooLong = false;
  private started = false;

  constructor(
    readonly format: SequenceFormat,
    private readonly maxItemChars = defaultMaxItemChars,
  ) {}

  /** The items the chunk completes. */
  push(chunk: string): SequenceItem[] {
    const out: SequenceItem[] = [];
    let text = chunk;
    // HTML: one U+FEFF at the start of the stream is skipped.
    if (!this.started && text !== '') {
      this.started = true;
      if (this.format === 'sse' && text.startsWith('\ufeff')) text = text.slice(1);
    }
    // A CRLF split between two chunks: the LF ends nothing new (SSE and JSON Lines both read CRLF as one break).
    if (this.lastWasCr && text.startsWith('\n')) text = text.slice(1);
    this.lastWasCr = text.endsWith('\r');
    let start = 0;
    const breaks = /\r\n|\r|\n/g;
    for (let match = breaks.exec(text); match !== null; match = breaks.exec(text)) {
      const piece = text.slice(start, match.index);
      start = match.index + match[0].length;
      if (this.skipping) {
        this.skipping = false;
        this.pending = '';
        this.line++;
        continue;
      }
      const line = this.pending + piece;
      this.pending = '';
      this.lineDone(line, out);
      this.line++;
    }
    const rest = text.slice(start);
    if (!this.skipping) this.pending += rest;
    if (this.pending.length > this.maxItemChars) {
      out.push(this.tooLong());
      this.pending = '';
      this.skipping = true;
    }
    return out;
  }

  /** The items left when the text ends (an SSE event not ended by a blank line is discarded, as HTML does). */
  end(): SequenceItem[] {
    const out: SequenceItem[] = [];
    if (!this.skipping && this.pending !== '' && this.format !== 'sse') this.lineDone(this.pending, out);
    this.pending = '';
    return out;
  }

  private tooLong(): SequenceItem {
    const item = {
      index: this.index++,
      line: this.line,
      error: `is over ${this.maxItemChars} characters: not read`,
      text: '',
    };
    this.event = {};
    this.data = undefined;
    return item;
  }

  private lineDone(line: string, out: SequenceItem[]): void {
    if (this.format === 'sse') {
      this.sseLine(line, out);
      return;
    }
    const record = this.format === 'json-seq' ? line.replace(/^\u001e+/, '') : line;
    if (record.trim() === '') return;
    out.push(this.jsonItem(record, this.line));
  }

  private jsonItem(text: string, line: number): SequenceItem {
    const index = this.index++;
    try {
      return { index, line, value: JSON.parse(text), text };
    } catch (error) {
      return { index, line, error: `is not JSON: ${(error as Error).message.split('\n')[0]}`, text };
    }
  }

  private sseLine(line: string, out: SequenceItem[]): void {
    if (line === '') {
      // HTML: a block with no data line dispatches no event (an `id:` alone only sets the last event ID).
      if (this.data !== undefined && !this.eventTooLong) {
        const value = { ...this.event, data: this.data.join('\n') };
        out.push({ index: this.index++, line: this.eventLine, value, text: JSON.stringify(value) });
      }
      this.event = {};
      this.data = undefined;
      this.eventChars = 0;
      this.eventTooLong = false;
      return;
    }
    if (line.startsWith(':') || this.eventTooLong) return;
    if (this.eventChars === 0) this.eventLine = this.line;
    // An event's lines are held until its blank line: bounded as one item is.
    this.eventChars += line.length + 1;
    if (this.eventChars > this.maxItemChars) {
      out.push(this.tooLong());
      this.eventTooLong = true;
      return;
    }
    const colon = line.indexOf(':');
    const name = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (name === 'data') (this.data ??= []).push(value);
    else if (name === 'event') this.event.event = value;
    else if (name === 'id' && !value.includes('\u0000')) this.event.id = value;
    else if (name === 'retry' && /^\d+$/.test(value)) this.event.retry = Number(value);
    // Any other field name is ignored (HTML: "Otherwise: the field is ignored").
  }
}

/** Every item of a whole body. */
export function sequenceItems(format: SequenceFormat, body: string, maxItemChars?: number): SequenceItem[] {
  const reader = new SequenceReader(format, maxItemChars);
  return [...reader.push(body), ...reader.end()];
}
