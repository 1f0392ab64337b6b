// RFC 9110 section 8.3.1 media types, as media-type.ts reads them.
import { describe, expect, it } from 'vitest';
import { formatMediaType, parseMediaType, rangeMatches, selectMediaType } from '../../src/core/media-type.js';

describe('parseMediaType', () => {
  const cases: [string, string | undefined, Record<string, string> | undefined][] = [
    ['application/json', 'application/json', {}],
    ['Application/JSON ; Charset=UTF-8', 'application/json', { charset: 'utf-8' }],
    ['text/plain; format="a;b\\"c"; x=1', 'text/plain', { format: 'a;b"c', x: '1' }],
    ['text/plain;;; novalue; =x; a=; b=2', 'text/plain', { b: '2' }],
    ['text/plain; a=1; A=2', 'text/plain', { a: '1' }],
    ['json', undefined, undefined],
    ['/json', undefined, undefined],
    ['a b/c', undefined, undefined],
    ['', undefined, undefined],
  ];
  it.each(cases)('reads %j', (text, essence, params) => {
    const range = parseMediaType(text);
    expect(range?.essence).toBe(essence);
    if (params) expect(Object.fromEntries(range!.params)).toEqual(params);
  });

  it('reads application/json and every +json suffix as JSON, nothing else', () => {
    expect(
      ['application/json', 'application/problem+json', 'text/x+json', 'application/jsonx', 'text/json'].map(
        (t) => parseMediaType(t)?.json,
      ),
    ).toEqual([true, true, true, false, false]);
  });

  it('reads a header of 100,000 semicolons in linear time', () => {
    const started = performance.now();
    expect(parseMediaType(`a/b${';'.repeat(100_000)}x="${'='.repeat(100_000)}`)?.params.size).toBe(1);
    // Quadratic reading takes tens of seconds here; linear, a few milliseconds (the bound allows a loaded machine).
    expect(performance.now() - started).toBeLessThan(3000);
  });

  it('writes parameters back, quoting what is no token', () => {
    expect(formatMediaType(parseMediaType('A/B; x="1 2"; y=3')!)).toBe('a/b; x="1 2"; y=3');
  });
});

describe('selectMediaType', () => {
  const keys = [
    '*/*',
    'application/*',
    'application/json',
    'application/json; version=1',
    'text/plain; charset=utf-8',
  ].map((key) => ({ key, range: parseMediaType(key) }));
  const selected = (contentType: string) => selectMediaType(keys, parseMediaType(contentType))?.key;
  const cases: [string, string | undefined][] = [
    ['application/json; version=1', 'application/json; version=1'],
    ['application/json; version=2', 'application/json'],
    ['application/json', 'application/json'],
    ['application/xml', 'application/*'],
    ['image/png', '*/*'],
    ['text/plain; charset=UTF-8', 'text/plain; charset=utf-8'],
    ['text/plain', '*/*'],
  ];
  it.each(cases)('selects for %j the key %j', (contentType, key) => expect(selected(contentType)).toBe(key));

  it('selects nothing for no Content-Type or a key that is no media type', () => {
    expect(selectMediaType(keys, undefined)).toBeUndefined();
    expect(selectMediaType([{ range: parseMediaType('nonsense') }], parseMediaType('a/b'))).toBeUndefined();
  });

  it('reads a JSON Content-Type without a charset as utf-8, other types not', () => {
    expect(rangeMatches(parseMediaType('application/json; charset=utf-8')!, parseMediaType('application/json')!)).toBe(
      true,
    );
    expect(rangeMatches(parseMediaType('text/plain; charset=utf-8')!, parseMediaType('text/plain')!)).toBe(false);
  });
});
