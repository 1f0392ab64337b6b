// How the walk reads an instance's id from a create's answer, and its list's next page, as the model says.
import { describe, expect, it } from 'vitest';
import { atPointer, boundValue, fromLocation } from '../../../src/fuzz/stateful/bind-instance.js';
import { nextLinkQuery } from '../../../src/fuzz/stateful/walk-pages.js';
import type { Binding } from '../../../src/core/resource-model/types.js';

const binding: Binding = {
  parameter: 'customer_id',
  in: 'path',
  sources: [
    { kind: 'response-body', operationId: 'createCustomer', status: '201', expression: '$response.body#/id' },
    {
      kind: 'location',
      operationId: 'createCustomer',
      status: '201',
      expression: '$response.header.Location',
      template: '/customers/{customer_id}',
    },
    { kind: 'list-item', operationId: 'listCustomers', status: '200', expression: '$response.body#/data/0/id' },
  ],
};

describe('the id of what a create made', () => {
  it.each([
    ['the answer body first', { id: 'cus_1' }, '/customers/cus_2', 'cus_1'],
    ['the Location header when the body has no id', {}, 'https://api.example/v1/customers/cus_2', 'cus_2'],
    ['a percent-encoded Location segment, decoded', undefined, '/customers/cus%203', 'cus 3'],
    ['nothing when neither gives one (never a list item: the run did not make it)', {}, undefined, undefined],
  ])('comes from %s', (_name, json, location, want) => {
    expect(boundValue(binding, { operationId: 'createCustomer', path: {}, json, location })).toBe(want);
  });

  it("comes from the request's own path for a PUT-create", () => {
    const put: Binding = {
      parameter: 'documentId',
      in: 'path',
      sources: [{ kind: 'request-path', operationId: 'putDocument', expression: '$request.path.documentId' }],
    };
    expect(
      boundValue(put, { operationId: 'putDocument', path: { documentId: 'd1' }, json: {}, location: undefined }),
    ).toBe('d1');
  });

  it('reads JSON pointers with escapes and array indexes', () => {
    expect(atPointer({ 'a/b': [{ '~c': 1 }] }, '#/a~1b/0/~0c')).toBe(1);
    expect(fromLocation('/users/u1/posts/p2', '/users/{userId}/posts/{postId}', 'postId')).toBe('p2');
  });
});

describe('the next page of a Link header (RFC 8288)', () => {
  it.each([
    [
      'rel=next',
      '<https://x/items?cursor=b&limit=1>; rel="next", <https://x/items>; rel="first"',
      { cursor: 'b', limit: '1' },
    ],
    ['a rel list holding next', '<https://x/items?page=3>; rel="last next"', { page: '3' }],
    ['no next link', '<https://x/items?page=1>; rel="prev"', undefined],
    ['no header', undefined, undefined],
  ])('%s', (_name, header, want) => {
    expect(nextLinkQuery(header)).toEqual(want);
  });
});
