// `contracts lint --api NAME` lints an API of the config, as `init` says it can (it was refused as an unknown option).
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMain } from '../helpers/run-main.js';

async function lint(args: string[]) {
  const project = await mkdtemp(path.join(os.tmpdir(), 'contracts-lint-api-'));
  await writeFile(
    path.join(project, 'inventory.yaml'),
    'openapi: 3.1.0\ninfo: { title: inventory, version: "1" }\npaths:\n  /items:\n    get:\n      responses: { "200": { description: ok } }\n',
  );
  await writeFile(
    path.join(project, 'contracts.config.yaml'),
    'apis:\n  - name: inventory\n    spec: inventory.yaml\n',
  );
  return runMain(['lint', ...args], project);
}

describe('contracts lint --api', () => {
  it.each([[['--api', 'inventory']], [['--api', 'all']], [[]]])('lints the config API’s spec: %j', async (args) => {
    const result = await lint(args);
    expect(result.output).toMatch(/^inventory\.yaml:5:9 #\/paths\/~1items\/get warning operation-operationId /m);
    expect(result.output).toMatch(/1 spec linted: 0 errors/);
    expect(result.code).toBe(0);
  });

  it.each([
    [['--api', 'nope'], /unknown API "nope"\. The APIs: inventory/],
    [['--api', 'inventory', 'x.yaml'], /give SPEC files or --api, not both/],
  ])('refuses %j in one line, exit 2', async (args, message) => {
    const result = await lint(args);
    expect(result.output).toMatch(message);
    expect(result.code).toBe(2);
  });
});
