// Our two example specs through the resource model: the webhooks spec shows the webhook resource, its deliveries
// nested under it, and every binding its links give (links win: nothing inferred where a link speaks); the
// client-session spec has one operation and no resource.
import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../../src/core/load-spec.js';
import { buildResourceModel } from '../../../src/core/resource-model/build-resource-model.js';
import type { BindingSource } from '../../../src/core/resource-model/types.js';
import { specFile } from '../../helpers/paths.js';

const link = (operationId: string, status: string, name: string, expression: string): BindingSource => ({
  kind: 'link',
  operationId,
  status,
  link: name,
  expression,
});

describe('the resource model of the example specs', () => {
  it('shows the webhook, its configuration and its deliveries, bound by the links the spec has', async () => {
    const model = buildResourceModel((await loadSpec(specFile('repository-webhooks'))).document);
    const none = { create: [], read: [], update: [], replace: [], delete: [], list: [], actions: [] };
    expect(model.resources).toEqual([
      {
        ...none,
        name: 'WebhookConfigResponse',
        schema: 'WebhookConfigResponse',
        collectionPath: undefined,
        itemPath: '/repos/{owner}/{repo}/hooks/{hook_id}/config',
        id: undefined,
        parent: { resource: 'Webhook', parameter: 'hook_id' },
        read: ['getWebhookConfig'],
        update: ['updateWebhookConfig'],
      },
      {
        ...none,
        name: 'DeliveryDetail',
        schema: 'DeliveryDetail',
        collectionPath: '/repos/{owner}/{repo}/hooks/{hook_id}/deliveries',
        itemPath: '/repos/{owner}/{repo}/hooks/{hook_id}/deliveries/{delivery_id}',
        id: { parameter: 'delivery_id', field: 'id', rule: "the resource's name (delivery) + id" },
        parent: { resource: 'Webhook', parameter: 'hook_id' },
        read: ['getWebhookDelivery'],
        list: ['listWebhookDeliveries'],
        actions: ['redeliverWebhookDelivery'],
      },
      {
        ...none,
        name: 'Webhook',
        schema: 'Webhook',
        collectionPath: '/repos/{owner}/{repo}/hooks',
        itemPath: '/repos/{owner}/{repo}/hooks/{hook_id}',
        id: { parameter: 'hook_id', field: 'id', rule: "the resource's name (hook) + id" },
        parent: undefined,
        create: ['createWebhook'],
        read: ['getWebhook'],
        update: ['updateWebhook'],
        delete: ['deleteWebhook'],
        list: ['listWebhooks'],
        actions: ['pingWebhook', 'testPushWebhook'],
      },
    ]);
    const bindings = Object.fromEntries(
      model.operations.map((operation) => [operation.operationId, operation.bindings]),
    );
    const fromCreate = (name: string) => [
      { parameter: 'owner', in: 'path', sources: [link('createWebhook', '201', name, '$request.path.owner')] },
      { parameter: 'repo', in: 'path', sources: [link('createWebhook', '201', name, '$request.path.repo')] },
      { parameter: 'hook_id', in: 'path', sources: [link('createWebhook', '201', name, '$response.body#/id')] },
    ];
    expect(bindings.getWebhook).toEqual(fromCreate('GetWebhook'));
    expect(bindings.deleteWebhook).toEqual(fromCreate('DeleteWebhook'));
    expect(bindings.listWebhookDeliveries).toEqual(fromCreate('ListWebhookDeliveries'));
    const inList = (name: string, expression: string) => link('listWebhookDeliveries', '200', name, expression);
    const inDetail = (expression: string) => link('getWebhookDelivery', '200', 'RedeliverWebhookDelivery', expression);
    expect(bindings.redeliverWebhookDelivery).toEqual(
      (['owner', 'repo', 'hook_id'] as string[])
        .map((name) => ({
          parameter: name,
          in: 'path',
          sources: [inList('RedeliverWebhookDelivery', `$request.path.${name}`), inDetail(`$request.path.${name}`)],
        }))
        .concat({
          parameter: 'delivery_id',
          in: 'path',
          sources: [inList('RedeliverWebhookDelivery', '$response.body#/0/id'), inDetail('$response.body#/id')],
        }),
    );
    // No link leads to the create: owner and repo come from outside (--owner, --repo in the webhooks walk).
    expect(bindings.createWebhook).toEqual([
      {
        parameter: 'owner',
        in: 'path',
        sources: [],
        unbound:
          'no resource has the item path /repos/{owner} and none is named like owner: give it a value (an example, a default or a variable)',
      },
      {
        parameter: 'repo',
        in: 'path',
        sources: [],
        unbound:
          'no resource has the item path /repos/{owner}/{repo} and none is named like repo: give it a value (an example, a default or a variable)',
      },
    ]);
    expect(model.problems).toEqual([]);
  });

  it('finds no resource in the client-session spec, whose one operation reads a singleton at the root', async () => {
    const model = buildResourceModel((await loadSpec(specFile('client-session'))).document);
    expect(model.resources).toEqual([]);
    expect(
      model.operations.map((operation) => [operation.operationId, operation.resource, operation.bindings]),
    ).toEqual([['retrieveClientSession', undefined, []]]);
  });
});
