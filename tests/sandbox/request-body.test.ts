// Request bodies the sandbox takes: UTF-8 JSON with unique keys, nested no deeper than 64 levels.
import { describe, expect, it } from 'vitest';
import { depthOver, maxBodyDepth, parseBody } from '../../src/sandbox/request-body.js';

const nested = (levels: number) => '{"a":'.repeat(levels - 1) + '{}' + '}'.repeat(levels - 1);

describe('parseBody', () => {
  const refused: [string, { raw: Buffer; status: number; message: RegExp }][] = [
    [
      'invalid UTF-8',
      {
        raw: Buffer.from([0x7b, 0x22, 0x6e, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]),
        status: 400,
        message: /not valid UTF-8/,
      },
    ],
    [
      'a lone surrogate half in UTF-8 (CESU)',
      { raw: Buffer.from('"\xed\xa0\x80"', 'latin1'), status: 400, message: /not valid UTF-8/ },
    ],
    ['text that is not JSON', { raw: Buffer.from('{"name":'), status: 400, message: /^Problems parsing JSON$/ }],
    [
      'a key twice at the top',
      {
        raw: Buffer.from('{"name":"a","name":"b"}'),
        status: 400,
        message: /key "name" appears twice in the top-level object/,
      },
    ],
    [
      'a key twice inside config',
      {
        raw: Buffer.from('{"config":{"url":"https://a","url":"https://b"}}'),
        status: 400,
        message: /key "url" appears twice in \/config/,
      },
    ],
    [
      `${maxBodyDepth + 1} levels`,
      { raw: Buffer.from(nested(maxBodyDepth + 1)), status: 422, message: /deeper than 64 levels/ },
    ],
    ['20,000 levels', { raw: Buffer.from(nested(20_000)), status: 422, message: /deeper than 64 levels/ }],
    [
      '20,000 levels of arrays',
      { raw: Buffer.from('['.repeat(20_000) + ']'.repeat(20_000)), status: 422, message: /deeper than 64 levels/ },
    ],
  ];
  it.each(refused)('refuses %s', (_name, { raw, status, message }) => {
    const result = parseBody(raw);
    if (!('refused' in result)) throw new Error('accepted');
    expect(result.refused.status).toBe(status);
    expect((result.refused.body as { message: string }).message).toMatch(message);
  });

  const accepted: [string, { raw: Buffer; body: unknown }][] = [
    ['an empty body as no body', { raw: Buffer.alloc(0), body: undefined }],
    [
      'a webhook body',
      {
        raw: Buffer.from('{"name":"web","config":{"url":"https://a"}}'),
        body: { name: 'web', config: { url: 'https://a' } },
      },
    ],
    ['multi-byte UTF-8', { raw: Buffer.from('{"name":"wéb ✓ 𝄞"}'), body: { name: 'wéb ✓ 𝄞' } }],
    [
      'the same key in two objects',
      { raw: Buffer.from('{"a":{"k":1},"b":{"k":2}}'), body: { a: { k: 1 }, b: { k: 2 } } },
    ],
  ];
  it.each(accepted)('accepts %s', (_name, { raw, body }) => {
    expect(parseBody(raw)).toEqual({ body });
  });

  it(`accepts exactly ${maxBodyDepth} levels`, () => {
    expect('body' in parseBody(Buffer.from(nested(maxBodyDepth)))).toBe(true);
  });
});

describe('depthOver', () => {
  it.each([
    ['a scalar', { value: 5, limit: 0, want: false }],
    ['{} against 0', { value: {}, limit: 0, want: true }],
    ['{} against 1', { value: {}, limit: 1, want: false }],
    ['[[[]]] against 2', { value: [[[]]], limit: 2, want: true }],
    ['[[[]]] against 3', { value: [[[]]], limit: 3, want: false }],
  ])('measures %s', (_name, { value, limit, want }) => {
    expect(depthOver(value, limit)).toBe(want);
  });
});
