// The core's exchange checks, one table: each row an exchange and the whole findings it must give (check,
// severity, operation, path, schema path, message, expected, actual), so that a finding's contents are held, not
// only whether a check fired. The spec is written here, small, with one feature per field.
//
// Mutants left alive on purpose, each equivalent (npm run test:mutation lists them as survivors):
// - response-schema-conformance.ts: `body.kind !== 'json'` → false (the check applies only to JSON media types, whose
//   bodies are 'json' or 'invalid-json', handled above it); `index < valuesShown` (errors past the 100th are dropped by
//   checkExchange's cap, so their values are never shown); the memo of hidden values and the `scalar` flag of a value
//   not looked up (a hidden or absent value has no `shown`, so neither changes a message); `value === undefined`
//   and `actual !== undefined` (an ajv error's instancePath always names a value in the body it validated); and
//   `error.keyword !== 'required'` → false (the placement filter then compares `<path>/undefined`, which no accepted
//   pointer is).
// - response-headers-conformance.ts, `/^body\b/` → `/body\b/`: a header is validated as a root value, so every ajv
//   message starts with "body"; the first match is the same.
// - response-body-wellformed.ts, `exchange.body.length > 0`: a 'json' body is never empty (an empty one is 'empty').
import { describe, expect, it } from 'vitest';
import { checkExchange } from '../../../src/core/check-exchange.js';
import { compileContract } from '../../../src/core/compile-contract.js';
import type { Exchange } from '../../../src/core/exchange.js';
import type { Finding } from '../../../src/core/finding.js';
import { parseSpec } from '../../../src/core/load-spec.js';

const thing = {
  type: 'object',
  required: ['p'],
  properties: {
    p: { type: 'integer' },
    pm: { type: 'object' },
    kind: { enum: ['a', 'b'] },
    only: { enum: ['x'] },
    label: { type: 'string', maxLength: 3 },
    config: { type: 'object', properties: { url: { type: 'string' }, secret: { type: 'string', pattern: '^\\*+$' } } },
    alt: { anyOf: [{ type: 'string' }, { type: 'integer' }] },
    order: { type: 'object', required: ['ref'], properties: { ref: { type: 'string' }, pm: { type: 'object' } } },
    tags: { type: 'array', items: { type: 'string' } },
    token: { enum: ['a'] },
  },
  // The seed's rule, on a field of this spec's own: pm at the top level or under order.
  'x-payment-method-placement': { accepted: ['/pm', '/order/pm'] },
  anyOf: [{ required: ['pm'] }, { required: ['order'], properties: { order: { required: ['pm'] } } }],
};
const spec = {
  openapi: '3.1.0',
  info: { title: 'things', version: '1' },
  paths: {
    '/things/{id}': {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
      get: {
        operationId: 'getThing',
        responses: {
          '200': {
            description: 'a thing',
            headers: {
              'X-Count': { required: true, schema: { type: 'integer', minimum: 1 } },
              'X-Ratio': { schema: { type: 'number', maximum: 1 } },
              'X-Flag': { schema: { type: 'boolean', const: true } },
              'X-Trace': { schema: { type: 'string', pattern: '^[a-f0-9]+$' } },
              'X-Word': { schema: { type: 'string' } },
              'X-Mode': { schema: { type: 'string', enum: ['nobody'] } },
              'X-Note': { description: 'documented without a schema' },
            },
            content: { 'application/json': { schema: thing } },
          },
          '400': {
            description: 'a problem',
            content: {
              'application/problem+json': {
                schema: { type: 'object', required: ['title'], properties: { title: { type: 'string' } } },
              },
            },
          },
          '204': { description: 'nothing' },
          '201': { description: 'any text', content: { 'text/*': { schema: { type: 'string' } } } },
          '202': { description: 'anything', content: { '*/*': {} } },
          '206': { description: 'one word', content: { 'application/json': { schema: { enum: ['a'] } } } },
        },
      },
    },
  },
};
const contract = compileContract(parseSpec('things.json', JSON.stringify(spec)), { strict: true });

const counted = { 'x-count': '2' };
const ok = { p: 1, pm: {} };
const get = (status: number, body: unknown, headers: Record<string, string> = counted, extra: Partial<Exchange> = {}) =>
  ({
    method: 'GET',
    path: '/things/1',
    status,
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    ...extra,
  }) satisfies Exchange;

/** A finding of getThing with the defaults every finding of this table shares. */
const found = (check: Finding['check'], fields: Partial<Finding> & { message: string }): Finding => ({
  check,
  severity: 'error',
  operation: 'getThing',
  instancePath: '',
  ...fields,
});
const schema = (fields: Partial<Finding> & { message: string }) => found('response_schema_conformance', fields);
const header = (fields: Partial<Finding> & { message: string }) => found('response_headers_conformance', fields);
const wellformed = (fields: Partial<Finding> & { message: string }) => found('response_body_wellformed', fields);

/** The placement rule's finding when pm is in neither place. */
const pmMissing = found('payment_method_placement', {
  message: 'paymentMethod is missing: expected at /pm (the seed schema) or at /order/pm (the seed example), or both',
  expected: ['/pm', '/order/pm'],
  actual: null,
});

const cases: [string, Exchange, Finding[], { strict?: boolean }?][] = [
  ['a conforming answer', get(200, ok), []],
  ['pm under order instead', get(200, { p: 1, order: { ref: 'r', pm: {} } }), []],
  // The placement rule says it once in its own words; the schema's anyOf and required errors on pm are its.
  [
    'no pm anywhere: placement, and the other required field still reported (a prefix of /pm)',
    get(200, {}),
    [
      schema({
        schemaPath: '/required',
        message: 'body must have required property "p"',
        actual: '{}',
      }),
      pmMissing,
    ],
  ],
  [
    'order without pm and without its ref: the missing ref is reported, the missing pm is placement',
    get(200, { p: 1, order: {} }),
    [
      schema({
        instancePath: '/order',
        schemaPath: '/properties/order/required',
        message: '/order must have required property "ref"',
        actual: '{}',
      }),
      pmMissing,
    ],
  ],
  [
    'an anyOf broken below the root is the schema check’s',
    get(200, { ...ok, alt: true }),
    [
      schema({
        instancePath: '/alt',
        schemaPath: '/properties/alt/anyOf/0/type',
        message: '/alt must be string, not true',
        actual: true,
      }),
      schema({
        instancePath: '/alt',
        schemaPath: '/properties/alt/anyOf/1/type',
        message: '/alt must be integer, not true',
        actual: true,
      }),
      schema({
        instancePath: '/alt',
        schemaPath: '/properties/alt/anyOf',
        message: '/alt must match a schema in anyOf, not true',
        actual: true,
      }),
    ],
  ],
  [
    'pm in both places with different contents: a warning at the second',
    get(200, { p: 1, pm: { a: 1 }, order: { ref: 'r', pm: { a: 2 } } }),
    [
      found('payment_method_placement', {
        severity: 'warning',
        instancePath: '/order/pm',
        message:
          'paymentMethod is present at /pm and /order/pm with different contents: which one applies is not defined',
      }),
    ],
  ],
  [
    'a value outside an enum: the allowed values and the value',
    get(200, { ...ok, kind: 'c' }),
    [
      schema({
        instancePath: '/kind',
        schemaPath: '/properties/kind/enum',
        message: '/kind: "c" is not one of the 2 allowed values',
        expected: ['a', 'b'],
        actual: 'c',
      }),
    ],
  ],
  [
    'a value outside a one-value enum',
    get(200, { ...ok, only: 'y' }),
    [
      schema({
        instancePath: '/only',
        schemaPath: '/properties/only/enum',
        message: '/only: "y" is not one of the 1 allowed value',
        expected: ['x'],
        actual: 'y',
      }),
    ],
  ],
  [
    'an object where a string belongs: rendered, not the object itself',
    get(200, { ...ok, label: { a: [1, 2] } }),
    [
      schema({
        instancePath: '/label',
        schemaPath: '/properties/label/type',
        message: '/label must be string',
        actual: '{"a":[1,2]}',
      }),
    ],
  ],
  [
    'a long string: its value cut at 200 characters',
    get(200, { ...ok, label: 'x'.repeat(250) }),
    [
      schema({
        instancePath: '/label',
        schemaPath: '/properties/label/maxLength',
        message: `/label must NOT have more than 3 characters, not "${'x'.repeat(79)}…`,
        actual: `"${'x'.repeat(199)}…`,
      }),
    ],
  ],
  [
    'a nested credential field in clear: the finding stays, its value is hidden',
    get(200, { ...ok, config: { url: 'u', secret: 'plain-text-secret' } }),
    [
      schema({
        instancePath: '/config/secret',
        schemaPath: '/properties/config/properties/secret/pattern',
        message: '/config/secret must match pattern "^\\*+$"',
        actual: '[hidden: a credential field]',
      }),
    ],
  ],
  [
    'a body that is not JSON',
    get(200, '{"p": 1,'),
    [
      schema({
        message: 'the body is not valid JSON: it ends early, at line 1, column 9',
        expected: 'application/json',
      }),
    ],
  ],
  [
    'a body that is not JSON, with a key written twice before it breaks: only "not JSON"',
    get(200, '{"p": 1, "p": 2,'),
    [
      schema({
        message: 'the body is not valid JSON: it ends early, at line 1, column 17',
        expected: 'application/json',
      }),
    ],
  ],
  [
    'a field the spec does not list, under --strict',
    get(200, { ...ok, extra: 1 }),
    [
      schema({
        schemaPath: '/unevaluatedProperties',
        message: 'body has a field the spec does not list: "extra" (--strict)',
        actual: '{"p":1,"pm":{},"extra":1}',
      }),
    ],
    { strict: true },
  ],
  ['the same field without --strict', get(200, { ...ok, extra: 1 }), [], { strict: false }],
  // application/problem+json is JSON (a +json suffix): its schema applies.
  [
    'a problem+json body that breaks its schema',
    get(400, { detail: 'd' }, { 'content-type': 'application/problem+json' }),
    [
      schema({
        schemaPath: '/required',
        message: 'body must have required property "title"',
        actual: '{"detail":"d"}',
      }),
      schema({
        schemaPath: '/unevaluatedProperties',
        message: 'body has a field the spec does not list: "detail" (--strict)',
        actual: '{"detail":"d"}',
      }),
    ],
  ],
  ['a problem+json body that keeps it', get(400, { title: 't' }, { 'content-type': 'application/problem+json' }), []],
  // Header values are text, read as the schema's type says.
  [
    'headers of every type, valid',
    get(200, ok, { 'x-count': '3', 'x-ratio': '0.5', 'x-flag': 'true', 'x-trace': 'ab12' }),
    [],
  ],
  // A string header is never read as a number, however it looks (X-Trace: 1234 is the string "1234").
  ['a string header that looks like a number', get(200, ok, { ...counted, 'x-trace': '1234' }), []],
  ['a string header that reads "true": still a string', get(200, ok, { ...counted, 'x-word': 'true' }), []],
  ['a header documented without a schema: anything', get(200, ok, { ...counted, 'x-note': '{not json' }), []],
  [
    'a header outside an enum whose value holds the word "body"',
    get(200, ok, { ...counted, 'x-mode': 'x' }),
    [
      header({
        message: 'response header X-Mode: value must be one of the allowed values ("nobody")',
        schemaPath: '/enum',
        actual: 'x',
      }),
    ],
  ],
  [
    'a required header missing',
    get(200, ok, {}),
    [header({ message: 'required response header X-Count is missing', expected: 'X-Count' })],
  ],
  [
    'an integer header that is not a number, and one that is blank',
    get(200, ok, { 'x-count': 'many', 'x-ratio': ' ' }),
    [
      header({ schemaPath: '/type', message: 'response header X-Count: value must be integer', actual: 'many' }),
      header({ schemaPath: '/type', message: 'response header X-Ratio: value must be number', actual: ' ' }),
    ],
  ],
  [
    'integer and number headers out of range',
    get(200, ok, { 'x-count': '0', 'x-ratio': '2' }),
    [
      header({ schemaPath: '/minimum', message: 'response header X-Count: value must be >= 1', actual: '0' }),
      header({ schemaPath: '/maximum', message: 'response header X-Ratio: value must be <= 1', actual: '2' }),
    ],
  ],
  [
    'a boolean header that is false where the schema allows only true',
    get(200, ok, { ...counted, 'x-flag': 'false' }),
    [
      header({
        schemaPath: '/const',
        message: 'response header X-Flag: value must be equal to constant',
        actual: 'false',
      }),
    ],
  ],
  [
    'a boolean header that is not true or false',
    get(200, ok, { ...counted, 'x-flag': 'yes' }),
    [
      header({ schemaPath: '/type', message: 'response header X-Flag: value must be boolean', actual: 'yes' }),
      header({
        schemaPath: '/const',
        message: 'response header X-Flag: value must be equal to constant',
        actual: 'yes',
      }),
    ],
  ],
  [
    'a string header against its pattern',
    get(200, ok, { ...counted, 'X-TRACE': 'XYZ' }),
    [
      header({
        schemaPath: '/pattern',
        message: 'response header X-Trace: value must match pattern "^[a-f0-9]+$"',
        actual: 'XYZ',
      }),
    ],
  ],
  // The body as read: its size, its bytes, its keys.
  [
    'a body over the size limit: not read',
    get(200, '', counted, { bodyTooLarge: 3 * 2 ** 20 }),
    [
      wellformed({
        message: 'the body is over the 3 MB limit (--max-body): it was not read or checked',
        expected: 'at most 3145728 bytes',
      }),
    ],
  ],
  [
    'a body over a limit of a fraction of a MB',
    get(200, '', counted, { bodyTooLarge: 1.25 * 2 ** 20 }),
    [
      wellformed({
        message: 'the body is over the 1.3 MB limit (--max-body): it was not read or checked',
        expected: 'at most 1310720 bytes',
      }),
    ],
  ],
  [
    'a body that was not UTF-8',
    get(200, ok, counted, { bodyNotUtf8: true }),
    [
      wellformed({
        message: 'the body is not valid UTF-8 (JSON must be UTF-8): invalid bytes were replaced before checking',
      }),
    ],
  ],
  [
    'a key twice at the top level',
    get(200, '{"p":1,"pm":{},"p":2}'),
    [
      wellformed({
        message: 'key "p" appears twice in the body: JSON.parse keeps the last, so the first value is lost',
      }),
    ],
  ],
  [
    'a key twice in a nested object, with its pointer',
    get(200, '{"p":1,"pm":{},"config":{"url":"a","url":"b"}}'),
    [
      wellformed({
        instancePath: '/config',
        message: 'key "url" appears twice in /config: JSON.parse keeps the last, so the first value is lost',
      }),
    ],
  ],
  [
    'bad bytes and a duplicate key: both said',
    get(200, '{"p":1,"pm":{},"pm":{}}', counted, { bodyNotUtf8: true }),
    [
      wellformed({
        message: 'the body is not valid UTF-8 (JSON must be UTF-8): invalid bytes were replaced before checking',
      }),
      wellformed({
        message: 'key "pm" appears twice in the body: JSON.parse keeps the last, so the first value is lost',
      }),
    ],
  ],
  [
    'a status not documented',
    get(503, ok),
    [
      found('status_code_conformance', {
        message: 'status 503 is not documented for getThing (documented: 200, 201, 202, 204, 206, 400)',
        expected: ['200', '201', '202', '204', '206', '400'],
        actual: 503,
      }),
    ],
  ],
  [
    'a redirect not documented, and where it points',
    get(302, '', { location: 'https://elsewhere.example/x' }, { headers: { location: 'https://elsewhere.example/x' } }),
    [
      found('status_code_conformance', {
        message:
          'status 302 is not documented for getThing (documented: 200, 201, 202, 204, 206, 400); it redirects to https://elsewhere.example/x (not followed)',
        expected: ['200', '201', '202', '204', '206', '400'],
        actual: 302,
      }),
    ],
  ],
  [
    'a redirect with a Location too long to show',
    get(307, '', {}, { headers: { location: `https://e.example/${'x'.repeat(2000)}` } }),
    [
      found('status_code_conformance', {
        message:
          'status 307 is not documented for getThing (documented: 200, 201, 202, 204, 206, 400); it redirects (a Location of 2018 characters, not followed)',
        expected: ['200', '201', '202', '204', '206', '400'],
        actual: 307,
      }),
    ],
  ],
  [
    'a 5xx with a Location: no redirect said',
    get(503, '', {}, { headers: { location: '/x' } }),
    [
      found('status_code_conformance', {
        message: 'status 503 is not documented for getThing (documented: 200, 201, 202, 204, 206, 400)',
        expected: ['200', '201', '202', '204', '206', '400'],
        actual: 503,
      }),
    ],
  ],
  ['text under text/*', get(201, 'hello', {}, { headers: { 'content-type': 'text/plain; charset=utf-8' } }), []],
  [
    'an image where text/* is documented',
    get(201, 'PNG', {}, { headers: { 'content-type': 'image/png' } }),
    [
      found('content_type_conformance', {
        message: 'content type image/png is not documented for status 201 (documented: text/*)',
        expected: ['text/*'],
        actual: 'image/png',
      }),
    ],
  ],
  ['anything under */*', get(202, 'x', {}, { headers: { 'content-type': 'application/x-anything' } }), []],
  [
    'a body without a Content-Type',
    get(202, 'x', {}, { headers: {} }),
    [
      found('content_type_conformance', {
        message: 'the response has a body but no Content-Type (documented: */*)',
        expected: ['*/*'],
        actual: null,
      }),
    ],
  ],
  [
    'no body where one is documented',
    get(201, '', {}, { headers: {} }),
    [
      found('content_type_conformance', {
        message: 'status 201 is documented with a body (text/*), but the response has none',
        expected: ['text/*'],
        actual: 'no body',
      }),
    ],
  ],
  [
    'a body on a 204, with its content type and size in bytes',
    get(204, 'é!', {}, { headers: { 'content-type': 'text/plain' } }),
    [
      found('content_type_conformance', {
        message: 'status 204 is documented without a body, but the response has one (3 bytes, text/plain)',
        expected: 'no body',
        actual: '3 bytes',
      }),
    ],
  ],
  [
    'a body over the limit on a 204',
    get(204, '', {}, { headers: {}, bodyTooLarge: 4096 }),
    [
      found('content_type_conformance', {
        message: 'status 204 is documented without a body, but the response has one (over 4096 bytes)',
        expected: 'no body',
        actual: '4096 bytes',
      }),
      wellformed({
        message: 'the body is over the 4096-byte limit (--max-body): it was not read or checked',
        expected: 'at most 4096 bytes',
      }),
    ],
  ],
  ['an empty 204', get(204, '', {}, { headers: {} }), []],
  [
    'null where an integer belongs: said, and carried as null',
    get(200, { ...ok, p: null }),
    [
      schema({
        instancePath: '/p',
        schemaPath: '/properties/p/type',
        message: '/p must be integer, not null',
        actual: null,
      }),
    ],
  ],
  [
    'a string of exactly 200 characters: carried whole',
    get(200, { ...ok, label: 'x'.repeat(200) }),
    [
      schema({
        instancePath: '/label',
        schemaPath: '/properties/label/maxLength',
        message: `/label must NOT have more than 3 characters, not "${'x'.repeat(79)}…`,
        actual: 'x'.repeat(200),
      }),
    ],
  ],
  [
    'a credential field outside its enum: the allowed values, never the value',
    get(200, { ...ok, token: 'hunter2' }),
    [
      schema({
        instancePath: '/token',
        schemaPath: '/properties/token/enum',
        message: '/token must be one of the allowed values ("a")',
        expected: ['a'],
        actual: '[hidden: a credential field]',
      }),
    ],
  ],
  [
    'a whole body outside its enum',
    get(206, 'b', {}, { body: '"b"' }),
    [
      schema({
        schemaPath: '/enum',
        message: 'body: "b" is not one of the 1 allowed value',
        expected: ['a'],
        actual: 'b',
      }),
    ],
  ],
];

describe('the exchange checks, finding by finding', () => {
  it.each(cases)('%s', (_name, exchange, findings, options = { strict: true }) => {
    // Strictly: a field present as undefined (`expected: undefined`) is a wrong record too.
    expect(checkExchange(contract, exchange, options).findings).toStrictEqual(findings);
  });
});

describe('which exchange checks apply', () => {
  it.each([
    ['an empty 204', get(204, '', {}, { headers: {} }), ['status_code_conformance', 'content_type_conformance']],
    [
      'a JSON 200 with headers',
      get(200, ok),
      [
        'status_code_conformance',
        'content_type_conformance',
        'response_body_wellformed',
        'response_schema_conformance',
        'response_headers_conformance',
        'payment_method_placement',
      ],
    ],
    [
      'a problem+json 400: no headers documented, no placement rule',
      get(400, { title: 't' }, { 'content-type': 'application/problem+json' }),
      [
        'status_code_conformance',
        'content_type_conformance',
        'response_body_wellformed',
        'response_schema_conformance',
      ],
    ],
    [
      'a body over the limit: not judged against the schema',
      get(200, '', counted, { bodyTooLarge: 10 }),
      [
        'status_code_conformance',
        'content_type_conformance',
        'response_body_wellformed',
        'response_headers_conformance',
      ],
    ],
  ] as const)('%s', (_name, exchange, applied) => {
    expect(checkExchange(contract, exchange, { strict: true }).applied).toEqual(applied);
  });
});

describe('bodies with more schema errors than are listed', () => {
  it('says first that listing stopped, then the first findings, and counts the rest', () => {
    const body = { ...ok, tags: Array.from({ length: 10_050 }, () => 1) };
    const result = checkExchange(contract, get(200, body), { strict: false });
    expect(result.findings[0]).toEqual(
      schema({
        message:
          'the body has too many schema errors to list: listing stopped after 10000, so only the first are reported',
      }),
    );
    expect(result.findings[1]).toEqual(
      schema({
        instancePath: '/tags/0',
        schemaPath: '/properties/tags/items/type',
        message: '/tags/0 must be string, not 1',
        actual: 1,
      }),
    );
    expect(result.findings).toHaveLength(100);
    // The listing stops at the error that passes the bound: 10,001 errors and the note, 100 of them kept.
    expect(result.omitted).toEqual({ response_schema_conformance: 9902 });
  });

  it('says so for --strict alone when only the strict listing stopped', () => {
    const body = { ...ok, ...Object.fromEntries(Array.from({ length: 10_050 }, (_, index) => [`extra${index}`, 1])) };
    const result = checkExchange(contract, get(200, body), { strict: true });
    expect(result.findings[0]).toEqual(
      schema({
        message:
          'the body has too many schema errors to list (--strict): listing stopped after 10000, so only the first are reported',
      }),
    );
    expect(result.findings[1]).toMatchObject({
      message: 'body has a field the spec does not list: "extra0" (--strict)',
    });
  });

  it('says it once when both listings stopped, the plain one first', () => {
    const body = {
      ...ok,
      tags: Array.from({ length: 10_050 }, () => 1),
      ...Object.fromEntries(Array.from({ length: 10_050 }, (_, index) => [`extra${index}`, 1])),
    };
    const result = checkExchange(contract, get(200, body), { strict: true });
    expect(result.findings[0]?.message).toBe(
      'the body has too many schema errors to list: listing stopped after 10000, so only the first are reported',
    );
    expect(result.findings.filter((finding) => finding.message.includes('too many schema errors'))).toHaveLength(1);
  });

  it('lists nothing of an empty JSON body as the schema check’s', () => {
    const result = checkExchange(
      contract,
      get(200, '', counted, { headers: { 'content-type': 'application/json', ...counted } }),
      { strict: true },
    );
    expect(result.applied).not.toContain('response_schema_conformance');
    expect(result.findings.map((finding) => finding.check)).toEqual(['content_type_conformance']);
  });
});
