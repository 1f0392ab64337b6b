// The resource model of a spec: which operations create, read, update, replace, delete, list and act on which
// resource, and where each parameter's value comes from (the spec's links first, then inference), on specs of the
// shapes users bring: no links, links, nested resources with page numbers, prefixed string ids with cursor pages,
// PUT-create with ETag/412 and an action with 409, and a spec where nothing can be bound.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../../src/core/load-spec.js';
import { buildResourceModel } from '../../../src/core/resource-model/build-resource-model.js';
import type { Binding, ModelOperation, Resource, ResourceModel } from '../../../src/core/resource-model/types.js';
import { root } from '../../helpers/paths.js';

const fixture = async (name: string): Promise<ResourceModel> =>
  buildResourceModel((await loadSpec(path.join(root, 'tests/fixtures/resource-model', `${name}.yaml`))).document);

const noRoles = { create: [], read: [], update: [], replace: [], delete: [], list: [], actions: [] };
const resource = (fields: Partial<Resource> & Pick<Resource, 'name'>): Resource => ({
  schema: undefined,
  collectionPath: undefined,
  itemPath: undefined,
  id: undefined,
  parent: undefined,
  ...noRoles,
  ...fields,
});
const bindingsOf = (model: ResourceModel): Record<string, Binding[]> =>
  Object.fromEntries(model.operations.filter((o) => o.bindings.length > 0).map((o) => [o.operationId, o.bindings]));
const operation = (model: ResourceModel, id: string): Omit<ModelOperation, 'bindings'> => {
  const { bindings: _, ...rest } = model.operations.find((candidate) => candidate.operationId === id)!;
  return rest;
};
const body = (operationId: string, status: string, pointer: string) =>
  ({ kind: 'response-body', operationId, status, expression: `$response.body#${pointer}` }) as const;
const listed = (operationId: string, status: string, pointer: string) =>
  ({ kind: 'list-item', operationId, status, expression: `$response.body#${pointer}` }) as const;
const sent = (operationId: string, parameter: string) =>
  ({ kind: 'request-path', operationId, expression: `$request.path.${parameter}` }) as const;
const path_ = (parameter: string, sources: Binding['sources']): Binding => ({ parameter, in: 'path', sources });

describe('buildResourceModel', () => {
  it.each<[string, string, Resource[], Record<string, Binding[]>]>([
    [
      'infers every binding of petstore-expanded, which has no links, from the create and the list answers',
      'petstore-expanded',
      [
        resource({
          name: 'Pet',
          schema: 'Pet',
          collectionPath: '/pets',
          itemPath: '/pets/{id}',
          id: { parameter: 'id', field: 'id', rule: 'same name' },
          create: ['addPet'],
          read: ['find pet by id'],
          delete: ['deletePet'],
          list: ['findPets'],
        }),
      ],
      {
        'find pet by id': [path_('id', [body('addPet', '200', '/id'), listed('findPets', '200', '/0/id')])],
        deletePet: [path_('id', [body('addPet', '200', '/id'), listed('findPets', '200', '/0/id')])],
      },
    ],
    [
      "takes a link's expression over inference, and infers only where no link gives the parameter",
      'links-win',
      [
        resource({
          name: 'Thing',
          schema: 'Thing',
          collectionPath: '/things',
          itemPath: '/things/{thingId}',
          id: { parameter: 'thingId', field: 'id', rule: "the resource's name (thing) + id" },
          create: ['createThing'],
          read: ['getThing'],
          delete: ['deleteThing'],
        }),
      ],
      {
        getThing: [
          path_('thingId', [
            {
              kind: 'link',
              operationId: 'createThing',
              status: '201',
              link: 'ReadThing',
              expression: '$response.body#/key',
            },
          ]),
        ],
        deleteThing: [path_('thingId', [body('createThing', '201', '/id')])],
      },
    ],
    [
      'nests posts under users, binding userId from the value the post was created under first',
      'nested-pages',
      [
        resource({
          name: 'User',
          schema: 'User',
          collectionPath: '/users',
          itemPath: '/users/{userId}',
          id: { parameter: 'userId', field: 'id', rule: "the resource's name (user) + id" },
          create: ['createUser'],
          read: ['getUser'],
          delete: ['deleteUser'],
          list: ['listUsers'],
        }),
        resource({
          name: 'Post',
          schema: 'Post',
          collectionPath: '/users/{userId}/posts',
          itemPath: '/users/{userId}/posts/{postId}',
          id: { parameter: 'postId', field: 'post_id', rule: 'same name, case and separators aside' },
          parent: { resource: 'User', parameter: 'userId' },
          create: ['createPost'],
          read: ['getPost'],
          update: ['updatePost'],
          list: ['listPosts'],
        }),
      ],
      (() => {
        const user = [body('createUser', '201', '/id'), listed('listUsers', '200', '/0/id')];
        const post = [body('createPost', '201', '/post_id'), listed('listPosts', '200', '/items/0/post_id')];
        return {
          getUser: [path_('userId', user)],
          deleteUser: [path_('userId', user)],
          listPosts: [path_('userId', [sent('createPost', 'userId'), ...user])],
          createPost: [path_('userId', user)],
          getPost: [path_('userId', [sent('createPost', 'userId'), ...user]), path_('postId', post)],
          updatePost: [path_('userId', [sent('createPost', 'userId'), ...user]), path_('postId', post)],
        };
      })(),
    ],
    [
      'binds prefixed string ids from the body, the Location header and the list, and a query id by its name',
      'cursor-ids',
      [
        resource({
          name: 'Customer',
          schema: 'Customer',
          collectionPath: '/customers',
          itemPath: '/customers/{customer_id}',
          id: { parameter: 'customer_id', field: 'id', rule: "the resource's name (customer) + id" },
          create: ['createCustomer'],
          read: ['getCustomer'],
          list: ['listCustomers'],
        }),
        resource({ name: 'invoice', collectionPath: '/invoices', list: ['listInvoices'] }),
      ],
      (() => {
        const customer = [
          body('createCustomer', '201', '/id'),
          {
            kind: 'location',
            operationId: 'createCustomer',
            status: '201',
            expression: '$response.header.Location',
            template: '/customers/{customer_id}',
          } as const,
          listed('listCustomers', '200', '/data/0/id'),
        ];
        return {
          getCustomer: [path_('customer_id', customer)],
          listInvoices: [{ parameter: 'customerId', in: 'query', sources: customer }],
        };
      })(),
    ],
    [
      'reads a PUT that documents 201 as create-or-replace, whose id the client chooses, and a POST under an item as an action',
      'put-create',
      [
        resource({
          name: 'Document',
          schema: 'Document',
          collectionPath: '/documents',
          itemPath: '/documents/{documentId}',
          id: { parameter: 'documentId', field: undefined, rule: 'no field of its schema matches documentId' },
          create: ['putDocument'],
          read: ['getDocument'],
          replace: ['putDocument'],
          delete: ['deleteDocument'],
          list: ['listDocuments'],
        }),
        resource({
          name: 'Order',
          schema: 'Order',
          collectionPath: '/orders',
          itemPath: '/orders/{orderId}',
          id: { parameter: 'orderId', field: 'id', rule: "the resource's name (order) + id" },
          create: ['createOrder'],
          read: ['getOrder'],
          actions: ['cancelOrder'],
        }),
      ],
      {
        getDocument: [path_('documentId', [sent('putDocument', 'documentId')])],
        putDocument: [
          {
            parameter: 'documentId',
            in: 'path',
            sources: [],
            unbound: 'this operation creates the Document its path names: the client chooses the value',
          },
        ],
        deleteDocument: [path_('documentId', [sent('putDocument', 'documentId')])],
        getOrder: [path_('orderId', [body('createOrder', '201', '/id')])],
        cancelOrder: [path_('orderId', [body('createOrder', '201', '/id')])],
      },
    ],
    [
      'says why each parameter it cannot bind is unbound',
      'unbound',
      [
        resource({
          name: 'report',
          itemPath: '/reports/{reportId}',
          id: { parameter: 'reportId', field: undefined, rule: 'no answer of the resource has a JSON schema' },
          read: ['getReport'],
        }),
        resource({ name: 'status', itemPath: '/regions/{region}/status', read: ['regionStatus'] }),
      ],
      {
        getReport: [
          {
            parameter: 'reportId',
            in: 'path',
            sources: [],
            unbound:
              'no operation creates or lists a report: give it a value (an example, a default or a variable), or add a link',
          },
        ],
        regionStatus: [
          {
            parameter: 'region',
            in: 'path',
            sources: [],
            unbound:
              'no resource has the item path /regions/{region} and none is named like region: give it a value (an example, a default or a variable)',
          },
        ],
        search: [
          {
            parameter: 'sessionId',
            in: 'query',
            sources: [],
            unbound: 'no resource is named like sessionId: give it a value (an example, a default or a variable)',
          },
        ],
      },
    ],
  ])('%s', async (_, name, resources, bindings) => {
    const model = await fixture(name);
    expect(model.resources).toEqual(resources);
    expect(bindingsOf(model)).toEqual(bindings);
    expect(model.problems).toEqual([]);
  });

  it('records each operation’s security, documented conflicts, Location, patch format and pagination', async () => {
    const nested = await fixture('nested-pages');
    const cursor = await fixture('cursor-ids');
    const put = await fixture('put-create');
    const base = { conflicts: [], gone: [], location: [], patchFormats: [], pagination: [], itemsPointer: undefined };
    expect([
      operation(nested, 'listPosts'),
      operation(nested, 'updatePost'),
      operation(nested, 'deleteUser'),
      operation(cursor, 'listCustomers'),
      operation(cursor, 'createCustomer'),
      operation(cursor, 'listInvoices'),
      operation(put, 'putDocument'),
      operation(put, 'listDocuments'),
      operation(put, 'cancelOrder'),
    ]).toEqual([
      {
        ...base,
        operationId: 'listPosts',
        method: 'get',
        path: '/users/{userId}/posts',
        resource: 'Post',
        roles: ['list'],
        secured: false,
        success: ['200'],
        pagination: [{ kind: 'page', parameter: 'page', sizeParameter: 'page_size' }],
        itemsPointer: '/items',
      },
      {
        ...base,
        operationId: 'updatePost',
        method: 'patch',
        path: '/users/{userId}/posts/{postId}',
        resource: 'Post',
        roles: ['update'],
        secured: false,
        success: ['200'],
        patchFormats: ['merge-patch'],
      },
      {
        ...base,
        operationId: 'deleteUser',
        method: 'delete',
        path: '/users/{userId}',
        resource: 'User',
        roles: ['delete'],
        secured: false,
        success: ['204'],
        conflicts: ['410'],
        gone: ['410'],
      },
      {
        ...base,
        operationId: 'listCustomers',
        method: 'get',
        path: '/customers',
        resource: 'Customer',
        roles: ['list'],
        secured: true,
        success: ['200'],
        pagination: [
          { kind: 'link-header', status: '200' },
          { kind: 'cursor', parameter: 'cursor', nextField: '/meta/next_cursor' },
        ],
        itemsPointer: '/data',
      },
      {
        ...base,
        operationId: 'createCustomer',
        method: 'post',
        path: '/customers',
        resource: 'Customer',
        roles: ['create'],
        secured: true,
        success: ['201'],
        location: ['201'],
        conflicts: ['409'],
      },
      {
        ...base,
        operationId: 'listInvoices',
        method: 'get',
        path: '/invoices',
        resource: 'invoice',
        roles: ['list'],
        // `security: [{}, { key: [] }]`: the empty requirement makes the credentials optional.
        secured: false,
        success: ['200'],
        itemsPointer: '',
      },
      {
        ...base,
        operationId: 'putDocument',
        method: 'put',
        path: '/documents/{documentId}',
        resource: 'Document',
        roles: ['create', 'replace'],
        secured: true,
        success: ['200', '201'],
        conflicts: ['412'],
      },
      {
        ...base,
        operationId: 'listDocuments',
        method: 'get',
        path: '/documents',
        resource: 'Document',
        roles: ['list'],
        secured: false,
        success: ['200'],
        pagination: [{ kind: 'offset', parameter: 'offset', sizeParameter: 'limit' }],
        itemsPointer: '/results',
      },
      {
        ...base,
        operationId: 'cancelOrder',
        method: 'post',
        path: '/orders/{orderId}/cancel',
        resource: 'Order',
        roles: ['action'],
        secured: true,
        success: ['200'],
        conflicts: ['409'],
      },
    ]);
  });

  it('gives the same model twice for the same document', async () => {
    const document = (await loadSpec(path.join(root, 'tests/fixtures/resource-model/nested-pages.yaml'))).document;
    expect(buildResourceModel(document)).toEqual(buildResourceModel(document));
  });
});

describe('buildResourceModel on shallow nesting', () => {
  it('joins a collection under a parent item with the top-level item path of the same word and schema', async () => {
    const model = await fixture('shallow-nesting');
    expect(model.resources.find((found) => found.name === 'Book')).toEqual(
      resource({
        name: 'Book',
        schema: 'Book',
        collectionPath: '/shelves/{shelfId}/books',
        itemPath: '/books/{bookId}',
        id: { parameter: 'bookId', field: 'id', rule: "the resource's name (book) + id" },
        parent: { resource: 'Shelf', parameter: 'shelfId' },
        create: ['addBook'],
        read: ['getBook'],
        delete: ['removeBook'],
        list: ['listBooks'],
      }),
    );
    const bindings = bindingsOf(model);
    expect(bindings.getBook).toEqual([
      path_('bookId', [body('addBook', '201', '/id'), listed('listBooks', '200', '/0/id')]),
    ]);
    expect(bindings.listBooks).toEqual([
      path_('shelfId', [sent('addBook', 'shelfId'), body('createShelf', '201', '/id')]),
    ]);
  });

  it('keeps them apart when the item path answers another schema than the collection makes', async () => {
    const model = await fixture('shallow-nesting');
    const comments = model.resources.filter((found) => found.name === 'Comment' || found.name === 'Moderation');
    expect(comments.map(({ name, collectionPath, itemPath }) => ({ name, collectionPath, itemPath }))).toEqual([
      { name: 'Comment', collectionPath: '/articles/{articleId}/comments', itemPath: undefined },
      { name: 'Moderation', collectionPath: undefined, itemPath: '/comments/{commentId}' },
    ]);
  });
});
