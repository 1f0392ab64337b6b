// The resource model as a user reads it: per resource its operations by role, pagination, conflicts and security;
// per operation where each parameter comes from, or why nothing gives it; nothing from the spec starts a line.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../../src/core/load-spec.js';
import { buildResourceModel } from '../../../src/core/resource-model/build-resource-model.js';
import { explainResourceModel } from '../../../src/core/resource-model/explain-resource-model.js';
import { root } from '../../helpers/paths.js';

const explained = async (name: string) =>
  explainResourceModel(
    buildResourceModel((await loadSpec(path.join(root, 'tests/fixtures/resource-model', `${name}.yaml`))).document),
  );

describe('explainResourceModel', () => {
  it('prints the roles, the pages and every source of a parameter, in order', async () => {
    expect(await explained('cursor-ids')).toEqual([
      'resource Customer: collection /customers, item /customers/{customer_id}',
      "  id: {customer_id} = body field id (the resource's name (customer) + id)",
      '  create  createCustomer (POST /customers) · Location on 201 · conflicts 409 · secured',
      '  read    getCustomer (GET /customers/{customer_id}) · secured',
      `  list    listCustomers (GET /customers) · pages: Link header rel="next" (on 200); cursor parameter cursor from the answer's /meta/next_cursor · items at /data · secured`,
      'resource invoice: collection /invoices',
      '  list    listInvoices (GET /invoices) · pages: none declared · items at the body · no credentials needed',
      '',
      'getCustomer (GET /customers/{customer_id})',
      '  customer_id (path) ← inferred: createCustomer 201 $response.body#/id | inferred: createCustomer 201 $response.header.Location as /customers/{customer_id} | inferred: listCustomers 200 $response.body#/data/0/id',
      'listInvoices (GET /invoices)',
      '  customerId (query) ← inferred: createCustomer 201 $response.body#/id | inferred: createCustomer 201 $response.header.Location as /customers/{customer_id} | inferred: listCustomers 200 $response.body#/data/0/id',
    ]);
  });

  it('says why each parameter nothing gives is unbound, and lists the operations on no resource', async () => {
    expect(await explained('unbound')).toEqual([
      'resource report: item /reports/{reportId}',
      '  id: {reportId} matches no body field (no answer of the resource has a JSON schema)',
      '  read    getReport (GET /reports/{reportId}) · no credentials needed',
      'resource status: item /regions/{region}/status',
      '  read    regionStatus (GET /regions/{region}/status) · no credentials needed',
      'not on any resource: search (GET /search)',
      '',
      'getReport (GET /reports/{reportId})',
      '  reportId (path): unbound: no operation creates or lists a report: give it a value (an example, a default or a variable), or add a link',
      'regionStatus (GET /regions/{region}/status)',
      '  region (path): unbound: no resource has the item path /regions/{region} and none is named like region: give it a value (an example, a default or a variable)',
      'search (GET /search)',
      '  sessionId (query): unbound: no resource is named like sessionId: give it a value (an example, a default or a variable)',
    ]);
  });

  it('never lets a name from the spec start a line of its own', () => {
    const lines = explainResourceModel(
      buildResourceModel({
        openapi: '3.1.0',
        paths: {
          '/a\n::error::x/{id}': {
            get: {
              operationId: 'read\u2028::add-mask::y',
              parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
              responses: { '200': { description: 'ok' } },
            },
          },
        },
      }),
    );
    expect(lines.every((line) => !/[\n\u2028]/.test(line))).toBe(true);
    expect(lines).toContain('read\\u2028::add-mask::y (GET /a\\u000a::error::x/{id})');
  });
});
