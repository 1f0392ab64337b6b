// The matchers read contracts.config.yaml as the CLI does (here the one CONTRACTS_CONFIG names): an API the config
// adds is checked against its own spec. Before, `unknown API "inventory"`: only the seed names were known.
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import '../../src/vitest/setup.js';

const project = mkdtempSync(path.join(os.tmpdir(), 'contracts-matchers-config-'));
writeFileSync(
  path.join(project, 'inventory.yaml'),
  `openapi: 3.1.0
info: { title: inventory, version: "1" }
paths:
  /items/{id}:
    get:
      operationId: getItem
      parameters: [{ name: id, in: path, required: true, schema: { type: integer } }]
      responses:
        "200":
          description: an item
          content:
            application/json:
              schema: { type: object, required: [id], properties: { id: { type: integer } } }
`,
);
writeFileSync(path.join(project, 'contracts.config.yaml'), 'apis:\n  - name: inventory\n    spec: inventory.yaml\n');
process.env.CONTRACTS_CONFIG = path.join(project, 'contracts.config.yaml');
// The worker runs other test files after this one: they read the project's own config.
afterAll(() => {
  delete process.env.CONTRACTS_CONFIG;
});

const answer = (body: string) => ({
  method: 'GET',
  path: '/items/7',
  status: 200,
  headers: { 'content-type': 'application/json' },
  body,
});

describe('the matchers with a config API', () => {
  it('pass a conforming answer of an API the config adds', async () => {
    await expect(answer('{"id":7}')).toSatisfyContract({ api: 'inventory' });
  });

  it('fail a breaking one, naming what broke', async () => {
    await expect(expect(answer('{"id":"seven"}')).toSatisfyContract({ api: 'inventory' })).rejects.toThrow(
      /response_schema_conformance/,
    );
  });

  it('name the config APIs for an unknown one', async () => {
    await expect(expect(answer('{}')).toSatisfyContract({ api: 'payments' })).rejects.toThrow(
      /unknown API "payments": choose one of inventory/,
    );
  });
});
