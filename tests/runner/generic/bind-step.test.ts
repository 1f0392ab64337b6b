// How the generic pass binds a step's path from earlier answers: by the model's sources and their runtime
// expressions; a step that changes state only from what the run created; and why, when it cannot.
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSpec } from '../../../src/core/load-spec.js';
import { operationModels, type OperationModel } from '../../../src/core/request-model.js';
import { buildResourceModel } from '../../../src/core/resource-model/build-resource-model.js';
import type { BindingSource } from '../../../src/core/resource-model/types.js';
import { bindStep, evaluate } from '../../../src/runner/generic/bind-step.js';
import { conformancePlan, type ConformanceStep } from '../../../src/runner/generic/conformance-plan.js';
import { RunLedger, type SentExchange } from '../../../src/runner/generic/run-ledger.js';
import { root } from '../../helpers/paths.js';

const created: SentExchange = {
  operationId: 'createItem',
  status: 201,
  path: { shelf: 'a' },
  json: { id: 'i7', nested: { n: 3 }, empty: '', list: [{ id: 'x' }] },
  location: 'https://api.example.com/v1/items/i%207',
};
const body = (expression: string): BindingSource => ({
  kind: 'response-body',
  operationId: 'createItem',
  status: '201',
  expression,
});

describe('evaluate', () => {
  it.each<[string, { source: BindingSource; want: unknown }]>([
    ['a body field at a pointer', { source: body('$response.body#/id'), want: 'i7' }],
    ['a nested number', { source: body('$response.body#/nested/n'), want: 3 }],
    ['an item of a list', { source: body('$response.body#/list/0/id'), want: 'x' }],
    ['nothing for a missing field', { source: body('$response.body#/nope'), want: undefined }],
    ['nothing for an empty string (no path segment)', { source: body('$response.body#/empty'), want: undefined }],
    ['nothing for an object', { source: body('$response.body#/nested'), want: undefined }],
    [
      'nothing from an answer of another status',
      {
        source: { kind: 'response-body', operationId: 'createItem', status: '200', expression: '$response.body#/id' },
        want: undefined,
      },
    ],
    [
      'the last segment of a Location under a base path, decoded',
      {
        source: {
          kind: 'location',
          operationId: 'createItem',
          status: '201',
          expression: '$response.header.Location',
          template: '/items/{itemId}',
        },
        want: 'i 7',
      },
    ],
    [
      'a path value the request was sent with',
      { source: { kind: 'request-path', operationId: 'createItem', expression: '$request.path.shelf' }, want: 'a' },
    ],
  ])('reads %s', (_name, { source, want }) => {
    expect(evaluate(source, created)).toEqual(want);
  });
});

describe('bindStep on the inventory API', () => {
  let steps: Map<string, ConformanceStep>;
  let models: Map<string, OperationModel>;
  let creates: Set<string>;
  beforeAll(async () => {
    const spec = await loadSpec(path.join(root, 'tests/runner/fixtures/inventory.yaml'));
    const model = buildResourceModel(spec.document);
    steps = new Map(conformancePlan(model).map((step) => [step.operationId, step]));
    models = new Map(operationModels(spec).map((entry) => [entry.operationId, entry]));
    creates = new Set(model.resources.flatMap((resource) => resource.create));
  });
  const bind = (operationId: string, ledger: RunLedger) =>
    bindStep(steps.get(operationId)!, models.get(operationId)!, ledger, ledger.live('Item')[0], creates);
  const listed = (ledger: RunLedger) =>
    ledger.succeeded({
      operationId: 'listItems',
      status: 200,
      path: {},
      json: [{ id: 'theirs' }],
      location: undefined,
    });

  it('binds a read from the item a list answered, when the run created none', () => {
    const ledger = new RunLedger();
    listed(ledger);
    expect(bind('getItem', ledger)).toEqual({ path: { itemId: 'theirs' }, query: {}, headers: {} });
  });

  it('never binds an update or a delete to an item the run did not create', () => {
    const ledger = new RunLedger();
    listed(ledger);
    for (const operationId of ['updateItem', 'deleteItem'])
      expect(bind(operationId, ledger)).toEqual({
        reason: 'no value for path parameter itemId: createItem was not sent before it',
        cause: 'spec',
      });
  });

  it('binds them to the item the create answered', () => {
    const ledger = new RunLedger();
    listed(ledger);
    ledger.succeeded({ ...created, path: {} }, 'Item');
    expect(bind('deleteItem', ledger)).toEqual({ path: { itemId: 'i7' }, query: {}, headers: {} });
  });

  it('blames the target when the create it depends on was refused', () => {
    const ledger = new RunLedger();
    ledger.failed('createItem', { sent: true, why: 'createItem answered 500' });
    expect(bind('updateItem', ledger)).toEqual({
      reason: 'no value for path parameter itemId: createItem answered 500',
      cause: 'target',
    });
  });

  it('says why a path no operation produces cannot be bound', () => {
    expect(bind('getReport', new RunLedger())).toEqual({
      reason:
        'path parameter reportId: no operation creates or lists a report: give it a value (an example, a default or a variable), or add a link',
      cause: 'spec',
    });
  });
});

describe('bindStep on state changes that name no resource', () => {
  it.each([
    ['putSettings', 'PUT /settings'],
    ['reindex', 'POST /reindex'],
  ])('leaves %s unsent: it would change what the run did not create', async (operationId, request) => {
    const spec = await loadSpec(path.join(root, 'tests/runner/fixtures/settings.yaml'));
    const model = buildResourceModel(spec.document);
    const step = conformancePlan(model).find((candidate) => candidate.operationId === operationId)!;
    const operation = operationModels(spec).find((candidate) => candidate.operationId === operationId)!;
    expect(bindStep(step, operation, new RunLedger(), undefined, new Set())).toEqual({
      reason: `${request} changes state, and no path parameter binds it to a resource this run created`,
      cause: 'spec',
    });
  });

  it('still reads the singleton', async () => {
    const spec = await loadSpec(path.join(root, 'tests/runner/fixtures/settings.yaml'));
    const step = conformancePlan(buildResourceModel(spec.document)).find(
      (entry) => entry.operationId === 'getSettings',
    )!;
    const operation = operationModels(spec).find((candidate) => candidate.operationId === 'getSettings')!;
    expect(bindStep(step, operation, new RunLedger(), undefined, new Set())).toEqual({
      path: {},
      query: {},
      headers: {},
    });
  });
});
