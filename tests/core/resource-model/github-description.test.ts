// GitHub's 13 MB description (@octokit/openapi) through the resource model: built in bounded time (it is linear in
// the spec: measured about 0.5-1.1 s on the shared 2-core machine), with the repository webhook inferred as a
// resource whose every binding comes from its create, its Location header or its list (the description has no links).
import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../../src/core/load-spec.js';
import { buildResourceModel } from '../../../src/core/resource-model/build-resource-model.js';
import { githubDescription } from '../../github/github-har.js';

describe("the resource model of GitHub's description", () => {
  it('builds within a few seconds and infers the repository webhook with its bindings', async () => {
    const { document } = await loadSpec(githubDescription);
    const started = performance.now();
    const model = buildResourceModel(document);
    const elapsed = performance.now() - started;
    expect(elapsed).toBeLessThan(5000);
    expect(model.resources.find((resource) => resource.itemPath === '/repos/{owner}/{repo}/hooks/{hook_id}')).toEqual({
      name: 'hook',
      schema: 'hook',
      collectionPath: '/repos/{owner}/{repo}/hooks',
      itemPath: '/repos/{owner}/{repo}/hooks/{hook_id}',
      id: { parameter: 'hook_id', field: 'id', rule: "the resource's name (hook) + id" },
      parent: { resource: 'full-repository', parameter: 'repo' },
      create: ['repos/create-webhook'],
      read: ['repos/get-webhook'],
      update: ['repos/update-webhook'],
      replace: [],
      delete: ['repos/delete-webhook'],
      list: ['repos/list-webhooks'],
      actions: ['repos/ping-webhook', 'repos/test-push-webhook'],
    });
    const getWebhook = model.operations.find((operation) => operation.operationId === 'repos/get-webhook')!;
    expect(getWebhook.bindings).toEqual([
      {
        parameter: 'owner',
        in: 'path',
        sources: [{ kind: 'request-path', operationId: 'repos/create-webhook', expression: '$request.path.owner' }],
      },
      {
        parameter: 'repo',
        in: 'path',
        sources: [
          { kind: 'request-path', operationId: 'repos/create-webhook', expression: '$request.path.repo' },
          // POST /orgs/{org}/repos makes what /repos/{owner}/{repo} reads: a shallow collection (its Location).
          {
            kind: 'location',
            operationId: 'repos/create-in-org',
            status: '201',
            expression: '$response.header.Location',
            template: '/repos/{owner}/{repo}',
          },
        ],
      },
      {
        parameter: 'hook_id',
        in: 'path',
        sources: [
          {
            kind: 'response-body',
            operationId: 'repos/create-webhook',
            status: '201',
            expression: '$response.body#/id',
          },
          {
            kind: 'location',
            operationId: 'repos/create-webhook',
            status: '201',
            expression: '$response.header.Location',
            template: '/repos/{owner}/{repo}/hooks/{hook_id}',
          },
          { kind: 'list-item', operationId: 'repos/list-webhooks', status: '200', expression: '$response.body#/0/id' },
        ],
      },
    ]);
    const list = model.operations.find((operation) => operation.operationId === 'repos/list-webhooks')!;
    expect(list.pagination).toEqual([
      { kind: 'link-header', status: '200' },
      { kind: 'page', parameter: 'page', sizeParameter: 'per_page' },
    ]);
  }, 120_000);
});
