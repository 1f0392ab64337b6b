// readOnly / writeOnly beside `required`, per direction and per version (src/core/read-write-views.ts,
// read-write-presence.ts): OpenAPI 3.0.3 §4.7.24.1 and 3.1.1 §4.8.24.3.2.
import { describe, expect, it } from 'vitest';
import { checkExchange } from '../../src/core/check-exchange.js';
import { checkRequest, type RequestRecord } from '../../src/core/check-request.js';
import { compileContract } from '../../src/core/compile-contract.js';
import type { Finding } from '../../src/core/finding.js';
import { parseSpec } from '../../src/core/load-spec.js';

const json = { 'application/json': { schema: { $ref: '#/components/schemas/User' } } };
const teamJson = { 'application/json': { schema: { $ref: '#/components/schemas/Team' } } };

function document(openapi: string) {
  return {
    openapi,
    info: { title: 'users', version: '1' },
    paths: {
      '/users': {
        post: {
          operationId: 'createUser',
          requestBody: { required: true, content: json },
          responses: { '201': { description: 'created', content: json } },
        },
      },
      '/teams': {
        post: {
          operationId: 'createTeam',
          requestBody: { required: true, content: teamJson },
          responses: { '201': { description: 'created', content: teamJson } },
        },
      },
    },
    components: {
      schemas: {
        Timestamp: { type: 'string', readOnly: true },
        User: {
          type: 'object',
          required: ['id', 'name', 'password', 'createdAt'],
          properties: {
            id: { type: 'integer', readOnly: true },
            name: { type: 'string' },
            password: { type: 'string', writeOnly: true },
            createdAt: { $ref: '#/components/schemas/Timestamp' },
          },
        },
        Named: { type: 'object', properties: { key: { type: 'string', readOnly: true }, title: { type: 'string' } } },
        // The required key is marked in a sibling allOf member; members nest Users through items.
        Team: {
          allOf: [
            { $ref: '#/components/schemas/Named' },
            {
              type: 'object',
              required: ['key', 'title', 'members'],
              properties: { members: { type: 'array', items: { $ref: '#/components/schemas/User' } } },
            },
          ],
        },
      },
    },
  };
}

const contractOf = (openapi: string) =>
  compileContract(parseSpec(`users-${openapi}.json`, JSON.stringify(document(openapi))));
const contracts = { '3.0': contractOf('3.0.3'), '3.1': contractOf('3.1.0') };

const post = (path: string, body: unknown): RequestRecord => ({
  method: 'POST',
  path,
  query: '',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});
const created = (path: string, body: unknown) => ({
  method: 'POST',
  path,
  status: 201,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

const user = { id: 1, name: 'Ada', password: 'secret', createdAt: '2026-01-01T00:00:00Z' };
const { id: _id, createdAt: _createdAt, ...userToSend } = user;
const { password: _password, ...userAnswered } = user;

const requestWarning = (operation: string, instancePath: string, schemaPath: string): Finding => ({
  check: 'request_body_conformance',
  severity: 'warning',
  operation,
  instancePath,
  schemaPath,
  message: `request ${instancePath} is readOnly: OpenAPI 3.0 says it SHOULD NOT be sent in a request`,
});
const responseWarning = (operation: string, instancePath: string, schemaPath: string): Finding => ({
  check: 'response_schema_conformance',
  severity: 'warning',
  operation,
  instancePath,
  schemaPath,
  message: `${instancePath} is writeOnly: OpenAPI 3.0 says it SHOULD NOT be sent in a response`,
});
// ajv names the schema a $ref led to by its own pointer: `/required` is User's.
const missingInResponse = (operation: string, instancePath: string, property: string, actual: object) => ({
  check: 'response_schema_conformance',
  severity: 'error',
  operation,
  instancePath,
  schemaPath: '/required',
  message: `${instancePath || 'body'} must have required property "${property}"`,
  actual: JSON.stringify(actual),
});

describe('a required readOnly property is required of responses only, a writeOnly one of requests only', () => {
  for (const version of ['3.0', '3.1'] as const) {
    const contract = contracts[version];
    it(`${version}: passes a create request without the required readOnly id and createdAt`, () => {
      expect(checkRequest(contract, post('/users', userToSend)).findings).toEqual([]);
    });

    it(`${version}: passes a response without the required writeOnly password`, () => {
      expect(checkExchange(contract, created('/users', userAnswered)).findings).toEqual([]);
    });

    it(`${version}: still reports a response without the required readOnly id`, () => {
      const { id: _, ...withoutId } = userAnswered;
      expect(checkExchange(contract, created('/users', withoutId)).findings).toEqual([
        missingInResponse('createUser', '', 'id', withoutId),
      ]);
    });

    it(`${version}: still reports a request without the required writeOnly password`, () => {
      const { password: _, ...withoutPassword } = userToSend;
      expect(checkRequest(contract, post('/users', withoutPassword)).findings).toEqual([
        {
          check: 'request_body_conformance',
          severity: 'error',
          operation: 'createUser',
          instancePath: '',
          schemaPath: '/required',
          message: 'request body must have required property "password"',
        },
      ]);
    });

    it(`${version}: passes a request whose allOf member requires a key its sibling marks readOnly, users nested`, () => {
      const team = { title: 'core', members: [userToSend, userToSend] };
      expect(checkRequest(contract, post('/teams', team)).findings).toEqual([]);
    });

    it(`${version}: still requires the nested readOnly id in a response`, () => {
      const { id: _, ...withoutId } = userAnswered;
      const team = { key: 'k', title: 'core', members: [userAnswered, withoutId] };
      expect(checkExchange(contract, created('/teams', team)).findings).toEqual([
        missingInResponse('createTeam', '/members/1', 'id', withoutId),
      ]);
    });
  }
});

describe('a readOnly property sent in a request, or a writeOnly one in a response', () => {
  it('3.0: warns of a readOnly id and createdAt ($ref) sent in a request', () => {
    expect(checkRequest(contracts['3.0'], post('/users', { ...userToSend, id: 7, createdAt: 'x' })).findings).toEqual([
      requestWarning('createUser', '/id', '/components/schemas/User/properties/id/readOnly'),
      requestWarning('createUser', '/createdAt', '/components/schemas/Timestamp/readOnly'),
    ]);
  });

  it('3.0: warns of a writeOnly password sent in a response, without showing it', () => {
    expect(checkExchange(contracts['3.0'], created('/users', user)).findings).toEqual([
      responseWarning('createUser', '/password', '/components/schemas/User/properties/password/writeOnly'),
    ]);
  });

  it('3.0: warns of marked properties through allOf and nested in items', () => {
    const team = { key: 'k', title: 'core', members: [userToSend, { ...userToSend, id: 3 }] };
    expect(checkRequest(contracts['3.0'], post('/teams', team)).findings).toEqual([
      requestWarning('createTeam', '/key', '/components/schemas/Named/properties/key/readOnly'),
      requestWarning('createTeam', '/members/1/id', '/components/schemas/User/properties/id/readOnly'),
    ]);
    const answered = { key: 'k', title: 'core', members: [user] };
    expect(checkExchange(contracts['3.0'], created('/teams', answered)).findings).toEqual([
      responseWarning('createTeam', '/members/0/password', '/components/schemas/User/properties/password/writeOnly'),
    ]);
  });

  it('3.1: says nothing of marked properties present (annotations)', () => {
    expect(checkRequest(contracts['3.1'], post('/users', { ...userToSend, id: 7 })).findings).toEqual([]);
    expect(checkExchange(contracts['3.1'], created('/users', user)).findings).toEqual([]);
  });
});
