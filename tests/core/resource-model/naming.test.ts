// Which body field a path parameter names: by the stated rules only. A parameter that is not named like an id
// (`username`, `org`, `sha`) is never taken for a resource's `id` field: GitHub's users have both a numeric `id`
// and a `login`, and sending one where the other is asked proves nothing about the server.
import { describe, expect, it } from 'vitest';
import { matchIdField, singular } from '../../../src/core/resource-model/naming.js';
import { buildResourceModel } from '../../../src/core/resource-model/build-resource-model.js';

describe('matchIdField', () => {
  it.each<[string, string[], string[], { field: string; rule: string } | undefined]>([
    ['petId', ['Pet'], ['id', 'petId'], { field: 'petId', rule: 'same name' }],
    ['pet_id', ['Pet'], ['id', 'petId'], { field: 'petId', rule: 'same name, case and separators aside' }],
    ['petId', ['Pet', 'pet'], ['id', 'name'], { field: 'id', rule: "the resource's name (pet) + id" }],
    [
      'pull_number',
      ['pull-request', 'pull'],
      ['id', 'number'],
      { field: 'number', rule: "the resource's name (pull) + number" },
    ],
    ['id', ['Pet'], ['petId', 'name'], { field: 'petId', rule: "petId: the resource's name + id" }],
    ['image_definition_id', ['image'], ['id'], { field: 'id', rule: 'an id-named parameter and the resource has id' }],
    ['username', ['simple-user', 'user'], ['id', 'login'], undefined],
    ['org', ['organization-full'], ['id', 'login'], undefined],
    ['sha', ['commit'], ['id', 'url'], undefined],
  ])('%s in %j with fields %j', (parameter, words, fields, expected) => {
    expect(matchIdField(parameter, words, fields)).toEqual(expected);
  });
});

describe('singular', () => {
  it.each([
    ['pets', 'pet'],
    ['categories', 'category'],
    ['boxes', 'box'],
    ['status', 'status'],
    ['addresses', 'address'],
    ['config', 'config'],
    ['v1', 'v1'],
  ])('%s → %s', (word, expected) => expect(singular(word)).toBe(expected));
});

describe('a user path named by login', () => {
  it('leaves {username} unbound rather than bind it to the user’s numeric id', () => {
    const user = { type: 'object', properties: { id: { type: 'integer' }, login: { type: 'string' } } };
    const model = buildResourceModel({
      openapi: '3.1.0',
      paths: {
        '/users': {
          get: {
            operationId: 'listUsers',
            responses: {
              '200': {
                description: 'users',
                content: { 'application/json': { schema: { type: 'array', items: user } } },
              },
            },
          },
        },
        '/users/{username}': {
          get: {
            operationId: 'getUser',
            parameters: [{ name: 'username', in: 'path', required: true, schema: { type: 'string' } }],
            responses: { '200': { description: 'user', content: { 'application/json': { schema: user } } } },
          },
        },
      },
    });
    expect(model.resources[0]!.id).toEqual({
      parameter: 'username',
      field: undefined,
      rule: 'no field of its schema matches username',
    });
    expect(model.operations[1]!.bindings).toEqual([
      {
        parameter: 'username',
        in: 'path',
        sources: [],
        unbound:
          "the user's id field is not known (no field of its schema matches username), and no create documents a Location header: add a link",
      },
    ]);
  });
});
