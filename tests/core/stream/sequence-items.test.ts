// The items of JSON Lines, JSON text sequences and server-sent events, read whole or chunk by chunk.
import { describe, expect, it } from 'vitest';
import { SequenceReader, sequenceFormat, sequenceItems } from '../../../src/core/stream/sequence-items.js';

describe('sequence items', () => {
  it.each([
    ['application/jsonl', 'jsonl'],
    ['application/x-ndjson; charset=utf-8', 'jsonl'],
    ['application/json-seq', 'json-seq'],
    ['TEXT/EVENT-STREAM', 'sse'],
    ['application/json', undefined],
  ])('reads %s as %s', (mediaType, format) => {
    expect(sequenceFormat(mediaType)).toBe(format);
  });

  it('reads JSON Lines, an empty line being no item and a line that is no JSON said as such', () => {
    expect(sequenceItems('jsonl', '{"a":1}\r\n\n[2]\nnope')).toEqual([
      { index: 0, line: 1, value: { a: 1 }, text: '{"a":1}' },
      { index: 1, line: 3, value: [2], text: '[2]' },
      { index: 2, line: 4, error: expect.stringMatching(/^is not JSON: /), text: 'nope' },
    ]);
  });

  it('reads JSON text sequence records after their record separator', () => {
    expect(sequenceItems('json-seq', '\u001e{"a":1}\n\u001e2\n')).toEqual([
      { index: 0, line: 1, value: { a: 1 }, text: '{"a":1}' },
      { index: 1, line: 2, value: 2, text: '2' },
    ]);
  });

  it('reads server-sent events as objects of their fields, as HTML interprets the stream', () => {
    const stream =
      '\ufeff: comment\nevent: a\ndata: x\ndata:y\nretry: 10\nid: 7\nother: z\n\nid: 8\n\nretry: soon\ndata\n\ndata: cut';
    expect(sequenceItems('sse', stream).map((item) => ('value' in item ? [item.line, item.value] : item))).toEqual([
      [2, { event: 'a', data: 'x\ny', retry: 10, id: '7' }],
      // `id: 8` alone dispatches nothing; `retry: soon` is ignored; a bare `data` line is empty data; the event the
      // stream ends inside is discarded.
      [11, { data: '' }],
    ]);
  });

  it('reads the same events whatever the chunks, a CRLF split between two of them included', () => {
    const stream = 'data: {"id":1}\r\n\r\ndata: {"id":2}\r\n\r\n';
    const whole = sequenceItems('sse', stream);
    for (let cut = 1; cut < stream.length; cut++) {
      const reader = new SequenceReader('sse');
      expect([...reader.push(stream.slice(0, cut)), ...reader.push(stream.slice(cut)), ...reader.end()]).toEqual(whole);
    }
  });

  it('holds no item longer than its bound: it is said, and reading goes on after it', () => {
    const reader = new SequenceReader('jsonl', 10);
    const items = [...reader.push('"0123456789'), ...reader.push('0123"\n'), ...reader.push('1\n'), ...reader.end()];
    expect(items).toEqual([
      { index: 0, line: 1, error: 'is over 10 characters: not read', text: '' },
      { index: 1, line: 2, value: 1, text: '1' },
    ]);
  });
});
