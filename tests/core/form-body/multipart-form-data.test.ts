// The multipart/form-data reader (RFC 7578 on RFC 2046 section 5.1.1): what follows the grammar is read into parts,
// what does not is one reason, and hostile bodies cost time linear in their size.
import { describe, expect, it } from 'vitest';
import { boundaryOf, maxParts, readMultipart } from '../../../src/core/form-body/multipart-form-data.js';

const type = 'multipart/form-data; boundary=b';
const part = (name: string, content: string, more = '') =>
  `--b\r\nContent-Disposition: form-data; name="${name}"${more}\r\n\r\n${content}\r\n`;

describe('boundaryOf', () => {
  it.each([
    ['multipart/form-data; boundary=abc', 'abc'],
    ['multipart/form-data; BOUNDARY="a b:c"', 'a b:c'],
    ['multipart/form-data; charset=utf-8; boundary=----x', '----x'],
    ['multipart/form-data', undefined],
    ['multipart/form-data; boundary=""', undefined],
    [`multipart/form-data; boundary=${'a'.repeat(71)}`, undefined],
    ['multipart/form-data; boundary="ends in space "', undefined],
  ])('reads %s as %s', (contentType, boundary) => {
    expect(boundaryOf(contentType)).toBe(boundary);
  });
});

describe('readMultipart', () => {
  it.each([
    [
      'parts with names, file names and headers, after a preamble and before an epilogue',
      `preamble\r\n${part('a', '1')}${part('f', 'x\r\ny', '; filename="a \\"b\\".txt"')}--b--\r\nepilogue`,
      {
        parts: [
          { name: 'a', headers: { 'content-disposition': 'form-data; name="a"' }, content: '1' },
          {
            name: 'f',
            filename: 'a "b".txt',
            headers: { 'content-disposition': 'form-data; name="f"; filename="a \\"b\\".txt"' },
            content: 'x\r\ny',
          },
        ],
      },
    ],
    [
      'transport padding after a boundary, an empty part content and a close with no CRLF',
      '--b  \r\nContent-Disposition: form-data; name=a\r\n\r\n\r\n--b--',
      { parts: [{ name: 'a', headers: { 'content-disposition': 'form-data; name=a' }, content: '' }] },
    ],
    ['a body with no part', '--b--\r\n', { parts: [] }],
    [
      'a body that never names its boundary',
      'a=1',
      { malformed: 'the boundary of its Content-Type never occurs in it' },
    ],
    ['a body with no closing boundary', part('a', '1'), { malformed: 'it ends before its closing boundary' }],
    [
      'a boundary line with more after it',
      `--bx\r\n${part('a', '1').slice(5)}--b--`,
      { malformed: 'a boundary line holds more than the boundary' },
    ],
    [
      'a delimiter line with more after the boundary',
      `${part('a', '1')}--bc\r\n--b--`,
      { malformed: 'a boundary line holds more than the boundary' },
    ],
    [
      'a part without Content-Disposition',
      '--b\r\nContent-Type: text/plain\r\n\r\nx\r\n--b--',
      { malformed: 'part 1: it has no Content-Disposition header' },
    ],
    [
      'a part whose disposition has no name',
      '--b\r\nContent-Disposition: form-data; filename="a"\r\n\r\nx\r\n--b--',
      { malformed: 'part 1: its Content-Disposition is not `form-data` with a name parameter' },
    ],
    [
      'a part whose disposition is not form-data',
      '--b\r\nContent-Disposition: attachment; name="a"\r\n\r\nx\r\n--b--',
      { malformed: 'part 1: its Content-Disposition is not `form-data` with a name parameter' },
    ],
    [
      'a part whose header never ends',
      '--b\r\nContent-Disposition: form-data; name="a"\r\n--b--',
      { malformed: 'part 1: its header never ends (no empty line)' },
    ],
    [
      'a header line that is not name: value',
      '--b\r\nContent-Disposition: form-data; name="a"\r\n folded\r\n\r\nx\r\n--b--',
      { malformed: 'part 1: a header line is not `name: value`' },
    ],
  ])('%s', (_name, body, want) => {
    expect(readMultipart(body, type)).toEqual(want);
  });

  it('refuses a Content-Type without a boundary', () => {
    expect(readMultipart(part('a', '1'), 'multipart/form-data')).toEqual({
      malformed: 'its Content-Type has no valid boundary parameter',
    });
  });

  it('stops at the part cap', () => {
    expect(readMultipart(`${part('a', '1').repeat(maxParts + 1)}--b--`, type)).toEqual({ tooManyParts: maxParts });
  });

  it('reads hostile bodies in time linear in their size', () => {
    const hostile = [
      `--b\r\n${'\r\n--b'.repeat(200_000)}`,
      `--b\r\nContent-Disposition: form-data; name="${'\\"'.repeat(200_000)}`,
      `--b\r\n${'a: b\r\n'.repeat(200_000)}`,
      `${'\r\n-'.repeat(300_000)}`,
    ];
    const started = performance.now();
    for (const body of hostile) expect(readMultipart(body, type)).toHaveProperty('malformed');
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
