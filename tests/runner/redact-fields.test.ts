import { describe, expect, it } from 'vitest';
import { CredentialFields } from '../../src/reports/redact-fields.js';
import { Redactor } from '../../src/reports/redact.js';

const plain = new CredentialFields();

describe('CredentialFields', () => {
  it.each([
    [
      'a credential-named member, every other byte kept',
      '{"name": "Rex" ,"secret":"s3"}',
      '{"name": "Rex" ,"secret":"[REDACTED]"}',
    ],
    ['a nested one', '{"config":{"url":"u","secret":"s3"}}', '{"config":{"url":"u","secret":"[REDACTED]"}}'],
    ['each duplicate', '{"token":"a","token":"b"}', '{"token":"[REDACTED]","token":"[REDACTED]"}'],
    [
      'everything under a credential-named member',
      '{"auth":{"user":"u","pass":["p",12]}}',
      '{"auth":{"user":"[REDACTED]","pass":["[REDACTED]","[REDACTED]"]}}',
    ],
    [
      'a number, not true or null',
      '{"password":123456,"api_key":null,"sessionActive":true}',
      '{"password":"[REDACTED]","api_key":null,"sessionActive":true}',
    ],
    ['a name written with escapes', '{"pass\\u0077ord":"p\\"w"}', '{"pass\\u0077ord":"[REDACTED]"}'],
    [
      'a member after a credential-named one',
      '{"secret":{"a":1},"name":"Rex"}',
      '{"secret":{"a":"[REDACTED]"},"name":"Rex"}',
    ],
    ['inside an array of objects', '[{"id":1,"token":"t"},{"id":2}]', '[{"id":1,"token":"[REDACTED]"},{"id":2}]'],
    ['a value that only looks like a name', '{"name":"token","note":"secret"}', '{"name":"token","note":"secret"}'],
    ['truncated JSON, best effort', '{"name":"Rex","secret":"s3', '{"name":"Rex","secret":"[REDACTED]"'],
    [
      'no mask (only asterisks) nor empty string: they hide nothing, and a capture read back keeps its verdict',
      '{"secret":"********","token":"","password":"*"}',
      '{"secret":"********","token":"","password":"*"}',
    ],
    [
      'no number named code (a status or an error code), but an OAuth code (text)',
      '{"last_response":{"code":200},"code":"4/0Ab-x","auth":{"code":7}}',
      '{"last_response":{"code":200},"code":"[REDACTED]","auth":{"code":"[REDACTED]"}}',
    ],
  ])('JSON: redacts %s', (_name, given, want) => {
    expect(plain.body(given, 'application/json; charset=utf-8')).toBe(want);
  });

  it.each([
    [
      'form fields by name',
      'user=rex&password=p%26w&client_secret=c',
      'user=rex&password=[REDACTED]&client_secret=[REDACTED]',
    ],
    ['an encoded name', 'client%5Fsecret=c&x=1', 'client%5Fsecret=[REDACTED]&x=1'],
    ['a credential after a semicolon, to the next &', 'a=1;token=t;u&b=2', 'a=1;token=[REDACTED]&b=2'],
  ])('form: redacts %s', (_name, given, want) => {
    expect(plain.body(given, 'application/x-www-form-urlencoded')).toBe(want);
  });

  it('leaves a body of another kind as it is', () => {
    expect(plain.body('secret=1', 'text/plain')).toBe('secret=1');
  });

  it("takes the spec's apiKey schemes, writeOnly and password fields (through $ref and allOf) and parameters", () => {
    const fields = CredentialFields.fromSpec({
      paths: {
        '/x': { get: { parameters: [{ name: 'otp', in: 'query', schema: { type: 'string', format: 'password' } }] } },
      },
      components: {
        securitySchemes: { k: { type: 'apiKey', in: 'header', name: 'X-Partner' } },
        schemas: {
          Hidden: { type: 'string', writeOnly: true },
          User: {
            properties: {
              pin: { $ref: '#/components/schemas/Hidden' },
              recovery: { allOf: [{ $ref: '#/components/schemas/Hidden' }] },
              name: { type: 'string', examples: [{ properties: { example: { writeOnly: true } } }] },
            },
          },
        },
      },
    });
    expect(['x-partner', 'otp', 'pin', 'recovery'].filter((name) => fields.isCredential(name))).toHaveLength(4);
    expect(fields.isCredential('name')).toBe(false);
    expect(fields.isCredential('example')).toBe(false);
    expect(fields.url('/x?otp=1&q=2#f')).toBe('/x?otp=[REDACTED]&q=2#f');
    expect(fields.body('{"pin":"1234","name":"n"}', 'application/vnd.api+json')).toBe(
      '{"pin":"[REDACTED]","name":"n"}',
    );
  });

  it.each([
    'Authorization',
    'Cookie',
    'Set-Cookie',
    'X-Auth-Token',
    'Private-Token',
    'X-Amz-Security-Token',
    'Api-Key',
  ])('treats the %s header as a credential', (name) => expect(plain.isCredentialHeader(name)).toBe(true));

  it.each(['Content-Type', 'X-Request-Id', 'Keep-Alive', 'Location'])('keeps the %s header', (name) =>
    expect(plain.isCredentialHeader(name)).toBe(false),
  );

  it("makes the Redactor redact a spec's apiKey query parameter in any text, as it does a credential-named one", () => {
    const redactor = new Redactor();
    const line = '✗ GET /x?ident=abc123&q=1&access_token=t0k → 400';
    expect(redactor.redact(line)).toBe('✗ GET /x?ident=abc123&q=1&access_token=[REDACTED] → 400');
    redactor.addSpecCredentials({
      components: { securitySchemes: { k: { type: 'apiKey', in: 'query', name: 'ident' } } },
    });
    expect(redactor.redact(line)).toBe('✗ GET /x?ident=[REDACTED]&q=1&access_token=[REDACTED] → 400');
  });
});

describe('a credential header, redacted', () => {
  it.each([
    ['Authorization', 'Bearer abc.def', 'Bearer [REDACTED]'],
    ['authorization', 'Basic dXNlcjpwYXNz', 'Basic [REDACTED]'],
    ['Authorization', 'token ghp_123', 'token [REDACTED]'],
    ['Proxy-Authorization', 'Digest username="u", response="r"', 'Digest [REDACTED]'],
    // A first word that is no scheme may be part of the secret: it goes with it.
    ['Authorization', 'part-of-key rest-of-key', '[REDACTED]'],
    ['Authorization', 'lone-token', '[REDACTED]'],
    ['Authorization', 'Bearer', '[REDACTED]'],
    ['Cookie', 'sid=abc; theme=dark;', 'sid=[REDACTED]; theme=[REDACTED]'],
    ['Cookie', 'novalue', '[REDACTED]'],
    ['Set-Cookie', 'sid=abc; Path=/; HttpOnly', 'sid=[REDACTED]; Path=/; HttpOnly'],
    ['X-API-Key', 'k-123', '[REDACTED]'],
    ['Accept', 'application/json', 'application/json'],
  ])('%s: %j keeps its shape as %j', (name, value, want) => {
    expect(plain.header(name, value)).toBe(want);
  });
});
