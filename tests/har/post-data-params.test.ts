import { describe, expect, it } from 'vitest';
import { bodyFromParams, maxHarParams } from '../../src/har/post-data-params.js';

describe('bodyFromParams', () => {
  it('writes urlencoded params as a browser serializes a form', () => {
    expect(
      bodyFromParams('application/x-www-form-urlencoded; charset=UTF-8', [
        { name: 'name', value: 'Ann Lee' },
        { name: 'tags', value: 'a&b' },
        { name: 'tags', value: 'ü' },
      ]),
    ).toEqual({ body: 'name=Ann+Lee&tags=a%26b&tags=%C3%BC' });
  });

  it('writes multipart params as parts under a boundary no value holds, and names it in the Content-Type', () => {
    const rebuilt = bodyFromParams('multipart/form-data; boundary=old', [
      { name: 'meta', value: '{"name":"Ann"}', contentType: 'application/json' },
      { name: 'photo"\r\nX-Injected: 1', value: 'PNG', fileName: 'a.png', contentType: 'image/png\r\nX: y' },
    ]) as { body: string; contentType: string };
    const boundary = rebuilt.contentType.replace('multipart/form-data; boundary=', '');
    expect(boundary).toMatch(/^contracts-har-[0-9a-f]{24}$/);
    expect(rebuilt.body).toBe(
      `--${boundary}\r\nContent-Disposition: form-data; name="meta"\r\nContent-Type: application/json\r\n\r\n` +
        `{"name":"Ann"}\r\n--${boundary}\r\n` +
        'Content-Disposition: form-data; name="photo%22%0D%0AX-Injected: 1"; filename="a.png"\r\n' +
        `Content-Type: image/png\r\n\r\nPNG\r\n--${boundary}--\r\n`,
    );
  });

  it('stands for nothing without params, for another media type, or for params that are not a list', () => {
    expect(bodyFromParams('application/x-www-form-urlencoded', [])).toBeUndefined();
    expect(bodyFromParams('application/x-www-form-urlencoded', { name: 'a' })).toBeUndefined();
    expect(bodyFromParams('application/json', [{ name: 'a', value: 'b' }])).toBeUndefined();
  });

  it('reads fields that are not strings as empty, never throwing', () => {
    expect(bodyFromParams('application/x-www-form-urlencoded', [null, { name: 5, value: {} }, 'x'])).toEqual({
      body: '=&=&=',
    });
  });

  it('refuses a list past the cap instead of building its body', () => {
    const params = Array.from({ length: maxHarParams + 1 }, () => ({ name: 'a', value: 'b' }));
    expect(bodyFromParams('multipart/form-data', params)).toEqual({ tooMany: maxHarParams + 1 });
  });
});
