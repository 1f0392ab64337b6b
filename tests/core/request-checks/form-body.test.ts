// Form bodies judged by their schema (OpenAPI 3.1 sections 4.8.14.4, 4.8.14.5, 4.8.15): urlencoded and multipart
// fields read back by name, typed as the schema says, styled as the Encoding Object says; each row a whole request
// and its whole findings.
import { describe, expect, it } from 'vitest';
import { checkRequest, type RequestRecord } from '../../../src/core/check-request.js';
import { compileContract } from '../../../src/core/compile-contract.js';
import type { Finding } from '../../../src/core/finding.js';
import { maxParts } from '../../../src/core/form-body/multipart-form-data.js';
import { parseSpec } from '../../../src/core/load-spec.js';

const ok = { description: 'ok' };
const spec = {
  openapi: '3.1.0',
  info: { title: 'forms', version: '1' },
  paths: {
    '/people': {
      post: {
        operationId: 'createPerson',
        requestBody: {
          required: true,
          content: {
            'application/x-www-form-urlencoded': {
              schema: {
                type: 'object',
                required: ['name'],
                properties: {
                  name: { type: 'string' },
                  age: { type: 'integer' },
                  admin: { type: 'boolean' },
                  tags: { type: 'array', maxItems: 1, items: { type: 'string' } },
                  labels: { type: 'array', items: { type: 'string' } },
                  ids: { type: 'array', items: { type: 'integer' } },
                  address: { type: 'object', required: ['city'], properties: { city: { type: 'string' } } },
                  filter: { type: 'object', properties: { color: { type: 'string' }, size: { type: 'integer' } } },
                },
              },
              encoding: { ids: { style: 'form', explode: false }, filter: { style: 'deepObject', explode: true } },
            },
          },
        },
        responses: { '201': ok },
      },
    },
    '/uploads': {
      post: {
        operationId: 'upload',
        requestBody: {
          content: {
            'multipart/form-data': {
              schema: {
                type: 'object',
                required: ['meta', 'file'],
                properties: {
                  meta: { type: 'object', required: ['title'], properties: { title: { type: 'string' } } },
                  file: { type: 'string', contentMediaType: 'image/png', maxLength: 1 },
                  count: { type: 'integer' },
                  notes: { type: 'array', items: { type: 'string', maxLength: 3 } },
                  doc: { type: 'string' },
                  codes: { type: 'array', items: { type: 'integer' } },
                },
              },
              encoding: {
                file: { contentType: 'image/png, image/jpeg' },
                doc: { headers: { 'X-Checksum': { required: true, schema: { type: 'integer' } } } },
                codes: { style: 'form', explode: false },
              },
            },
          },
        },
        responses: { '201': ok },
      },
    },
  },
};
const contract = compileContract(parseSpec('forms.json', JSON.stringify(spec)));

const form = (body: string): RequestRecord => ({
  method: 'POST',
  path: '/people',
  query: '',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body,
});

const boundary = 'XyZ';
/** A multipart body of `parts`, each its header lines and content. */
const multipart = (parts: [string[], string][], extra: Partial<RequestRecord> = {}): RequestRecord => ({
  method: 'POST',
  path: '/uploads',
  query: '',
  headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  body: `${parts.map(([head, content]) => `--${boundary}\r\n${head.join('\r\n')}\r\n\r\n${content}\r\n`).join('')}--${boundary}--\r\n`,
  ...extra,
});
const named = (name: string, ...more: string[]) => [`Content-Disposition: form-data; name="${name}"`, ...more];
const meta: [string[], string] = [named('meta', 'Content-Type: application/json'), '{"title":"cat"}'];
// PNG's signature, as a body decoded with U+FFFD for its bytes that are not UTF-8 holds it.
const png: [string[], string] = [
  [...named('file'), 'Content-Disposition: form-data; name="file"; filename="a.png"', 'Content-Type: image/png'].slice(
    1,
  ),
  '\uFFFDPNG\r\n\u001a\n\u0000\u0000',
];

const error = (operation: string, fields: Partial<Finding>): Finding => ({
  check: 'request_body_conformance',
  severity: 'error',
  operation,
  instancePath: '',
  message: '',
  ...fields,
});
const person = (fields: Partial<Finding>) => error('createPerson', fields);
const upload = (fields: Partial<Finding>) => error('upload', fields);

const cases: [string, RequestRecord, Finding[]][] = [
  ['a urlencoded integer field holding a numeral is an integer', form('name=Ann&age=42&admin=true'), []],
  [
    'a urlencoded integer field holding letters breaks its schema',
    form('name=Ann&age=abc'),
    [
      person({
        instancePath: '/age',
        schemaPath: '/properties/age/type',
        message: 'request /age must be integer',
      }),
    ],
  ],
  ['a repeated urlencoded name is an array', form('name=Ann&labels=a&labels=b'), []],
  [
    'a repeated name past its array maxItems breaks its schema',
    form('name=Ann&tags=a&tags=b'),
    [
      person({
        instancePath: '/tags',
        schemaPath: '/properties/tags/maxItems',
        message: 'request /tags must NOT have more than 1 items',
      }),
    ],
  ],
  [
    'a missing required urlencoded field breaks its schema',
    form('age=1'),
    [person({ schemaPath: '/required', message: 'request body must have required property "name"' })],
  ],
  [
    'an object field is read as JSON, as its default contentType says',
    form(`name=Ann&address=${encodeURIComponent('{"zip":"1"}')}`),
    [
      person({
        instancePath: '/address',
        schemaPath: '/properties/address/required',
        message: 'request /address must have required property "city"',
      }),
    ],
  ],
  ['an explode=false array field is split at commas', form('name=Ann&ids=1,2,3'), []],
  [
    'an explode=false array field types each item',
    form('name=Ann&ids=1,x'),
    [
      person({
        instancePath: '/ids/1',
        schemaPath: '/properties/ids/items/type',
        message: 'request /ids/1 must be integer',
      }),
    ],
  ],
  [
    'a deepObject field is read from its bracketed names',
    form('name=Ann&filter%5Bcolor%5D=red&filter[size]=big'),
    [
      person({
        instancePath: '/filter/size',
        schemaPath: '/properties/filter/properties/size/type',
        message: 'request /filter/size must be integer',
      }),
    ],
  ],
  [
    'a % not followed by two hex digits makes one finding',
    form('name=A%zz&age=x'),
    [
      person({
        message:
          'the request body is not valid application/x-www-form-urlencoded: field 1 has a % not followed by two hex digits',
      }),
    ],
  ],
  ['a multipart body with a JSON part and a file part is judged valid', multipart([meta, png]), []],
  [
    'a multipart JSON part that breaks its schema',
    multipart([[named('meta', 'Content-Type: application/json'), '{"title":5}'], png]),
    [
      upload({
        instancePath: '/meta/title',
        schemaPath: '/properties/meta/properties/title/type',
        message: 'request /meta/title must be string',
      }),
    ],
  ],
  [
    'a multipart text part is typed by its schema, repeated parts are an array',
    multipart([meta, png, [named('count'), 'x'], [named('notes'), 'ab'], [named('notes'), 'abcd']]),
    [
      upload({
        instancePath: '/count',
        schemaPath: '/properties/count/type',
        message: 'request /count must be integer',
      }),
      upload({
        instancePath: '/notes/1',
        schemaPath: '/properties/notes/items/maxLength',
        message: 'request /notes/1 must NOT have more than 3 characters',
      }),
    ],
  ],
  [
    "a part whose Content-Type contradicts its Encoding Object's contentType",
    multipart([meta, [named('file', 'Content-Type: text/plain'), 'x']]),
    [
      upload({
        instancePath: '/file',
        message: 'part "file" is sent as text/plain; its Encoding Object\'s contentType allows image/png, image/jpeg',
        expected: ['image/png', 'image/jpeg'],
        actual: 'text/plain',
      }),
    ],
  ],
  [
    'a missing required multipart part',
    multipart([png]),
    [upload({ schemaPath: '/required', message: 'request body must have required property "meta"' })],
  ],
  [
    'a JSON part that is not JSON',
    multipart([[named('meta', 'Content-Type: application/json'), '{"title":'], png]),
    [
      upload({
        instancePath: '/meta',
        message: 'part "meta" is sent as application/json and is not valid JSON: it ends early, at line 1, column 10',
      }),
    ],
  ],
  [
    'a part without the header its Encoding Object requires',
    multipart([meta, png, [named('doc'), 'a']]),
    [upload({ instancePath: '/doc', message: 'part "doc" lacks the X-Checksum header its Encoding Object requires' })],
  ],
  [
    'a part whose Encoding Object header breaks its schema',
    multipart([meta, png, [named('doc', 'x-checksum: abc'), 'b']]),
    [upload({ instancePath: '/doc', message: 'part "doc"\'s X-Checksum header must be integer' })],
  ],
  [
    'a part with its Encoding Object header as its schema says',
    multipart([meta, png, [named('doc', 'X-Checksum: 12'), 'b']]),
    [],
  ],
  [
    'a multipart body that never closes makes one finding',
    { ...multipart([meta]), body: `--${boundary}\r\n${named('meta').join('\r\n')}\r\n\r\n{}` },
    [upload({ message: 'the request body is not valid multipart/form-data: it ends before its closing boundary' })],
  ],
  [
    'a multipart body without a boundary parameter makes one finding',
    multipart([meta], { headers: { 'content-type': 'multipart/form-data' } }),
    [
      upload({
        message: 'the request body is not valid multipart/form-data: its Content-Type has no valid boundary parameter',
      }),
    ],
  ],
  [
    'a text part holding bytes that were not UTF-8 is present, its content not judged',
    multipart([meta, png, [named('notes'), 'caf\uFFFD\uFFFD']], { bodyNotUtf8: true }),
    [],
  ],
  [
    'a urlencoded value whose percent-encoded bytes are not UTF-8 is present, its content not judged',
    form('name=Ann&age=%E9'),
    [],
  ],
  [
    'a multipart part its Encoding Object styles is present, its content not judged (3.1.0 says no more)',
    multipart([meta, png, [named('codes'), '1,2']]),
    [],
  ],
  [
    'a urlencoded body over the field cap is not judged, and says so',
    form('a=1&'.repeat(maxParts + 1)),
    [person({ severity: 'warning', message: `the request body has over ${maxParts} fields: not checked` })],
  ],
  [
    'a multipart body over the part cap is not judged, and says so',
    multipart(Array.from({ length: maxParts + 1 }, () => meta)),
    [upload({ severity: 'warning', message: `the request body has over ${maxParts} fields: not checked` })],
  ],
];

describe('request_body_conformance on form bodies', () => {
  it.each(cases)('%s', (_name, request, findings) => {
    expect(checkRequest(contract, request).findings).toEqual(findings);
  });

  it('reads hostile bodies in time linear in their size', () => {
    const hostile = [
      form(`name=${'%41'.repeat(300_000)}&${'tags=a&'.repeat(900)}`),
      form(`${'filter[x]=1&'.repeat(900)}name=${'+'.repeat(500_000)}`),
      multipart([meta, png, [named('notes'), '-'.repeat(1_000_000)]]),
      multipart([[named('meta', 'Content-Type: application/json'), '['.repeat(200_000)], png]),
    ];
    const started = performance.now();
    for (const request of hostile) checkRequest(contract, request);
    expect(performance.now() - started).toBeLessThan(2000);
  });
});
