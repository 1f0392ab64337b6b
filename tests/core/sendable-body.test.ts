// Which documented media type a generated request body goes out in, and as what Content-Type; or why none can.
import { describe, expect, it } from 'vitest';
import { chooseBody } from '../../src/core/sendable-body.js';

const object = { type: 'object', properties: { id: { type: 'integer' } } };
const at = ['paths', '/x', 'post', 'requestBody', 'content'];

const cases: [string, { content: Record<string, { schema?: unknown }>; want: unknown }][] = [
  [
    'JSON before every other type',
    {
      content: { 'application/xml': { schema: object }, 'application/json': { schema: object } },
      want: {
        mediaType: 'application/json',
        contentType: 'application/json',
        schema: object,
        schemaPath: [...at, 'application/json', 'schema'],
      },
    },
  ],
  [
    '*/* with a schema, as application/json',
    {
      content: { '*/*': { schema: object } },
      want: { mediaType: '*/*', contentType: 'application/json', schema: object, schemaPath: [...at, '*/*', 'schema'] },
    },
  ],
  [
    'a binary type, from a string schema never empty',
    {
      content: { 'image/jpeg': { schema: { type: 'string', format: 'binary' } } },
      want: {
        mediaType: 'image/jpeg',
        contentType: 'image/jpeg',
        schema: { type: 'string', format: 'binary', minLength: 1 },
        schemaPath: [...at, 'image/jpeg', 'schema'],
      },
    },
  ],
  [
    'a type without a schema: any non-empty string, judged by nothing',
    {
      content: { 'application/octet-stream': {} },
      want: {
        mediaType: 'application/octet-stream',
        contentType: 'application/octet-stream',
        schema: { type: 'string', minLength: 1 },
        schemaPath: undefined,
      },
    },
  ],
  [
    'text/* as text/plain',
    {
      content: { 'text/*': { schema: { type: 'string', maxLength: 4 } } },
      want: {
        mediaType: 'text/*',
        contentType: 'text/plain',
        schema: { type: 'string', maxLength: 4, minLength: 1 },
        schemaPath: [...at, 'text/*', 'schema'],
      },
    },
  ],
  [
    'XML given by an object schema, and a range that names no type: none, each saying why',
    {
      content: { 'application/xml': { schema: object }, 'image/*': {} },
      want: {
        unsendable:
          'application/xml: its schema takes object, and only a string is sent as application/xml; image/*: a range that names no media type to send',
      },
    },
  ],
];

describe('chooseBody', () => {
  it.each(cases)('%s', (_name, { content, want }) => {
    expect(chooseBody(content, at, (schema) => schema)).toEqual(want);
  });
});
