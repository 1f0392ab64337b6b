import { describe, expect, it } from 'vitest';
import { bindLink, linkGraph, resolveLinkSource, statusMatches, type LinkEdge } from '../../src/core/link-graph.js';
import { loadSpec, type OpenApiDocument } from '../../src/core/load-spec.js';
import { specFile } from '../helpers/paths.js';

const onHook = [
  'getWebhook',
  'updateWebhook',
  'deleteWebhook',
  'getWebhookConfig',
  'updateWebhookConfig',
  'pingWebhook',
  'testPushWebhook',
  'listWebhookDeliveries',
];

describe('the link graph of the webhooks spec', () => {
  it('leads from a created hook to every operation on it, and from a delivery list to its detail and its redelivery', async () => {
    const { edges, problems } = linkGraph((await loadSpec(specFile('repository-webhooks'))).document);
    expect(problems).toEqual([]);
    const summary = edges.map(
      (edge) =>
        `${edge.from} ${edge.status} -> ${edge.to} ${edge.parameters.map(({ name, source }) => `${name}=${source.from === 'request.path' ? `path.${source.name}` : `body${source.pointer}`}`).join(' ')}`,
    );
    expect(summary.sort()).toEqual(
      [
        ...onHook.map((to) => `createWebhook 201 -> ${to} owner=path.owner repo=path.repo hook_id=body#/id`),
        'getWebhookDelivery 200 -> redeliverWebhookDelivery owner=path.owner repo=path.repo hook_id=path.hook_id delivery_id=body#/id',
        'listWebhookDeliveries 200 -> getWebhookDelivery owner=path.owner repo=path.repo hook_id=path.hook_id delivery_id=body#/0/id',
        'listWebhookDeliveries 200 -> redeliverWebhookDelivery owner=path.owner repo=path.repo hook_id=path.hook_id delivery_id=body#/0/id',
      ].sort(),
    );
  });

  it('has no links in the client-session spec, which has no resource to follow', async () => {
    expect(linkGraph((await loadSpec(specFile('client-session'))).document)).toEqual({ edges: [], problems: [] });
  });
});

const document = (links: Record<string, unknown>): OpenApiDocument => ({
  openapi: '3.1.0',
  paths: {
    '/things': {
      post: { operationId: 'createThing', responses: { '201': { $ref: '#/components/responses/Created' } } },
    },
    '/things/{id}': { get: { operationId: 'getThing', responses: { '200': { description: 'ok' } } } },
  },
  components: {
    responses: { Created: { description: 'made', links } },
    links: { Read: { operationId: 'getThing', parameters: { 'path.id': '$response.body#/id' } } },
  },
});

describe('linkGraph', () => {
  it.each([
    [
      'follows a $ref to a response and to a link, and drops a location prefix from the parameter name',
      { links: { read: { $ref: '#/components/links/Read' } }, edges: 1, problems: [] },
    ],
    [
      'reports a link to an operationId the spec does not have',
      {
        links: { gone: { operationId: 'nope' } },
        edges: 0,
        problems: ['createThing 201 link gone: operationId nope names no operation'],
      },
    ],
    [
      'reports a link by operationRef, which it does not follow',
      {
        links: { ref: { operationRef: '#/paths/~1things~1{id}/get' } },
        edges: 0,
        problems: ['createThing 201 link ref: only links by operationId are followed'],
      },
    ],
    [
      'reports an expression it cannot evaluate and drops that link',
      {
        links: { q: { operationId: 'getThing', parameters: { id: '$request.query.id' } } },
        edges: 0,
        problems: ['createThing 201 link q: parameter id: "$request.query.id" is not a supported runtime expression'],
      },
    ],
  ])('%s', (_name, { links, edges, problems }) => {
    const graph = linkGraph(document(links));
    expect(graph.edges).toHaveLength(edges);
    expect(graph.problems).toEqual(problems);
    if (edges === 1)
      expect(graph.edges[0]!.parameters).toEqual([{ name: 'id', source: { from: 'response.body', pointer: '#/id' } }]);
  });
});

describe('binding a link in an exchange', () => {
  const edge: LinkEdge = {
    from: 'listWebhookDeliveries',
    status: '200',
    name: 'detail',
    to: 'getWebhookDelivery',
    parameters: [
      { name: 'hook_id', source: { from: 'request.path', name: 'hook_id' } },
      { name: 'delivery_id', source: { from: 'response.body', pointer: '#/0/id' } },
    ],
  };

  it.each([
    [
      'binds the first item of a list and the request path',
      { body: [{ id: 7 }, { id: 6 }], want: { hook_id: 3, delivery_id: 7 } },
    ],
    ['binds nothing from an empty list', { body: [], want: undefined }],
    ['binds nothing from a body that is not JSON', { body: undefined, want: undefined }],
    [
      'binds nothing where the pointer meets an object, not a value',
      { body: [{ id: { nested: 1 } }], want: undefined },
    ],
    ['does not read inherited properties', { body: [{ constructor: 1 }], want: undefined }],
  ])('%s', (_name, { body, want }) => {
    expect(bindLink(edge, { path: { hook_id: 3 }, body })).toEqual(want);
  });

  it('reads JSON pointer escapes (~1 for /, ~0 for ~)', () => {
    expect(
      resolveLinkSource({ from: 'response.body', pointer: '#/a~1b/c~0d' }, { path: {}, body: { 'a/b': { 'c~d': 5 } } }),
    ).toBe(5);
  });

  it.each([
    ['201', 201, true],
    ['201', 200, false],
    ['2XX', 204, true],
    ['2XX', 404, false],
    ['default', 500, true],
  ] as const)('status key %s matches %d: %s', (key, status, want) => {
    expect(statusMatches(key, status)).toBe(want);
  });
});
