// The generic conformance pass's order: creates first (a parent's before its children's), then lists, reads and
// changes, deletes last (a child's before its parent's), whatever order the document lists them in.
import { describe, expect, it } from 'vitest';
import { buildResourceModel } from '../../../src/core/resource-model/build-resource-model.js';
import { conformancePlan } from '../../../src/runner/generic/conformance-plan.js';

const user = { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } } };
const post = { type: 'object', properties: { id: { type: 'integer' }, title: { type: 'string' } } };
const json = (schema: unknown) => ({ 'application/json': { schema } });
const answer = (status: string, schema: unknown) => ({ [status]: { description: status, content: json(schema) } });
const id = (name: string) => ({ name, in: 'path', required: true, schema: { type: 'integer' } });

// Deletes and the nested resource come first in the document: the plan reorders them.
const document = {
  openapi: '3.1.0',
  paths: {
    '/users/{userId}/posts/{postId}': {
      parameters: [id('userId'), id('postId')],
      delete: { operationId: 'deletePost', responses: { '204': { description: 'gone' } } },
      get: { operationId: 'getPost', responses: answer('200', post) },
    },
    '/users/{userId}': {
      parameters: [id('userId')],
      delete: { operationId: 'deleteUser', responses: { '204': { description: 'gone' } } },
      patch: { operationId: 'updateUser', requestBody: { content: json(user) }, responses: answer('200', user) },
      get: { operationId: 'getUser', responses: answer('200', user) },
    },
    '/users/{userId}/posts': {
      parameters: [id('userId')],
      post: { operationId: 'createPost', requestBody: { content: json(post) }, responses: answer('201', post) },
    },
    '/users': {
      get: { operationId: 'listUsers', responses: answer('200', { type: 'array', items: user }) },
      post: { operationId: 'createUser', requestBody: { content: json(user) }, responses: answer('201', user) },
    },
    '/search': { get: { operationId: 'search', responses: answer('200', { type: 'object' }) } },
  },
};

describe('conformancePlan', () => {
  it('creates parents first, then lists, reads and changes, and deletes children before parents last', () => {
    const steps = conformancePlan(buildResourceModel(document));
    expect(steps.map((step) => [step.operationId, step.stage])).toEqual([
      ['createUser', 'create'],
      ['createPost', 'create'],
      ['listUsers', 'list'],
      ['getPost', 'read'],
      ['getUser', 'read'],
      ['updateUser', 'change'],
      ['search', 'other'],
      ['deletePost', 'delete'],
      ['deleteUser', 'delete'],
    ]);
  });
});
