// Generated bodies go out in the operation's media type: a form or multipart body for operations that take only
// those (Stripe's and Twilio's POSTs went out empty), JSON for JSON and +json types.
import { describe, expect, it } from 'vitest';
import { encodeBody } from '../../src/fuzz/encode-body.js';

const cases: [string, { mediaType: string; value: unknown; want: { contentType: string; body: string } }][] = [
  [
    'JSON',
    { mediaType: 'application/json', value: { a: 1 }, want: { contentType: 'application/json', body: '{"a":1}' } },
  ],
  [
    'a +json type, as declared',
    {
      mediaType: 'application/merge-patch+json',
      value: { a: null },
      want: { contentType: 'application/merge-patch+json', body: '{"a":null}' },
    },
  ],
  [
    'a form: arrays repeat their field, objects go as JSON text, null as empty',
    {
      mediaType: 'application/x-www-form-urlencoded',
      value: { name: 'a b&c', tags: ['x', 'y'], meta: { k: 1 }, gone: null, n: 3 },
      want: {
        contentType: 'application/x-www-form-urlencoded',
        body: 'name=a+b%26c&tags=x&tags=y&meta=%7B%22k%22%3A1%7D&gone=&n=3',
      },
    },
  ],
  [
    'multipart: one part per field, an object part typed JSON',
    {
      mediaType: 'multipart/form-data',
      value: { To: '+1555', meta: { k: 1 } },
      want: {
        contentType: 'multipart/form-data; boundary=contracts-fuzz-7d2f9a1c',
        body:
          '--contracts-fuzz-7d2f9a1c\r\nContent-Disposition: form-data; name="To"\r\n\r\n+1555\r\n' +
          '--contracts-fuzz-7d2f9a1c\r\nContent-Disposition: form-data; name="meta"\r\nContent-Type: application/json\r\n\r\n{"k":1}\r\n' +
          '--contracts-fuzz-7d2f9a1c--\r\n',
      },
    },
  ],
  [
    'a form whose value is not an object, as JSON (the validators judge it)',
    {
      mediaType: 'application/x-www-form-urlencoded',
      value: 'text',
      want: { contentType: 'application/json', body: '"text"' },
    },
  ],
  [
    'a binary type: the string as its bytes',
    { mediaType: 'image/jpeg', value: 'ÿØÿ', want: { contentType: 'image/jpeg', body: 'ÿØÿ' } },
  ],
  [
    'text, a lone surrogate as U+FFFD (what UTF-8 carries)',
    { mediaType: 'text/plain', value: 'a\ud800', want: { contentType: 'text/plain', body: 'a\ufffd' } },
  ],
  [
    "a text type's negative case that is no string, as its JSON",
    { mediaType: 'text/plain', value: 12, want: { contentType: 'text/plain', body: '12' } },
  ],
];

describe('encodeBody', () => {
  it.each(cases)('%s', (_name, { mediaType, value, want }) => {
    expect(encodeBody(mediaType, value)).toEqual(want);
  });

  it('is read back by the platform as the same fields', async () => {
    const { contentType, body } = encodeBody('multipart/form-data', { a: 'x', b: ['1', '2'] });
    const form = await new Response(body, { headers: { 'content-type': contentType } }).formData();
    expect([...form.entries()]).toEqual([
      ['a', 'x'],
      ['b', '1'],
      ['b', '2'],
    ]);
  });
});
