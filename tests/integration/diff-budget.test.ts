// Past the branch budget (more than 64 combinations: allOf of two anyOf of nine), diff could not look inside a
// composition, and a schema whose `amount` turned from integer to string and which gained a required field was
// "0 changes", exit 0. Now such a change is schema-change-undecided, which fails --fail-on error in a body until
// the user says otherwise; and a schema the same on both sides is no change, whatever its combinations.
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

const anyOfNine = (prefix: string) =>
  `{ anyOf: [${Array.from({ length: 9 }, (_, i) => `{ required: [${prefix}${i}] }`).join(', ')}] }`;

const spec = (amount: string, required: string) => `openapi: 3.1.0
info: { title: pay, version: "1" }
paths:
  /payments:
    post:
      operationId: pay
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [${required}]
              properties:
                id: { type: string }
                amount: { type: ${amount} }
                note: { type: string }
              allOf: [${anyOfNine('a')}, ${anyOfNine('b')}]
      responses:
        "200": { description: ok }
`;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'contracts-diff-budget-'));
  await writeFile(path.join(dir, 'base.yaml'), spec('integer', 'id'));
  await writeFile(path.join(dir, 'copy.yaml'), spec('integer', 'id'));
  await writeFile(path.join(dir, 'head.yaml'), spec('string', 'id, note'));
});

const diff = (...args: string[]) => runCli(['diff', ...args], { cwd: dir });

describe('diff of a composition past the branch budget', () => {
  it('says a change inside it is undecided, and fails --fail-on error', async () => {
    const result = await diff('base.yaml', 'head.yaml', '--fail-on', 'error');
    expect(result.stdout).toMatch(/error schema-change-undecided request body: .*more than 64 combinations/);
    expect(result.stderr).not.toMatch(/^0 changes/m);
    expect(result.code).toBe(1);
  }, 60_000);

  it('passes when the user sets the rule to a warning, and still says it', async () => {
    const result = await diff('base.yaml', 'head.yaml', '--level', 'schema-change-undecided=warning');
    expect(result.stdout).toMatch(/warning schema-change-undecided request body/);
    expect(result.code).toBe(0);
  }, 60_000);

  it.each([
    ['itself', 'base.yaml'],
    ['an identical copy', 'copy.yaml'],
  ])(
    'finds no change against %s',
    async (_name, other) => {
      const result = await diff('base.yaml', other, '--fail-on', 'warning');
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/^0 changes/m);
      expect(result.code).toBe(0);
    },
    60_000,
  );
});
