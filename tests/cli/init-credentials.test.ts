// `contracts init` in an empty folder writes a config (with --config NEW too), and a credentials stub for each
// security scheme a variable can carry, saying which variable to set: the user's first fuzz run then knows where
// the key goes, instead of being refused 401 on every request.
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runMain } from '../helpers/run-main.js';

const spec = `openapi: 3.1.0
info: { title: Inventory API, version: "1" }
paths: {}
components:
  securitySchemes:
    apiKey: { type: apiKey, in: header, name: X-Inventory-Key }
    bearerAuth: { type: http, scheme: Bearer }
    basic: { type: http, scheme: basic }
    oauth: { type: oauth2, flows: { clientCredentials: { tokenUrl: "https://example.com/token", scopes: {} } } }
    mtls: { type: mutualTLS }
`;

async function init(args: string[]) {
  const project = await mkdtemp(path.join(os.tmpdir(), 'contracts-init-'));
  await writeFile(path.join(project, 'openapi.yaml'), spec);
  const { code, output } = await runMain(['init', 'openapi.yaml', ...args], project);
  return { code, output, project };
}

describe('contracts init', () => {
  it.each([[[] as string[]], [['--config', 'new.config.yaml']]])(
    'writes a config with a credential per security scheme, in an empty folder: %j',
    async (args) => {
      const { code, output, project } = await init(args);
      expect(code, output).toBe(0);
      const written = parse(await readFile(path.join(project, args[1] ?? 'contracts.config.yaml'), 'utf8'));
      expect(written.apis[0].credentials).toEqual([
        { env: 'CONTRACTS_INVENTORY_API_KEY', securityScheme: 'apiKey' },
        { env: 'CONTRACTS_INVENTORY_BEARER_AUTH', securityScheme: 'bearerAuth' },
        { env: 'CONTRACTS_INVENTORY_BASIC', securityScheme: 'basic' },
        { env: 'CONTRACTS_INVENTORY_OAUTH', securityScheme: 'oauth' },
      ]);
      expect(output).toContain(
        'credentials: set CONTRACTS_INVENTORY_API_KEY for the security scheme apiKey (header X-Inventory-Key)',
      );
      expect(output).toContain('CONTRACTS_INVENTORY_BASIC for the security scheme basic (Authorization: Basic');
      expect(output).not.toMatch(/mtls/);
    },
  );

  it.each([
    ["GitHub's official OpenAPI spec + Octokit extension", 'github'],
    ['Inventory API', 'inventory'],
    ['Averyveryveryveryveryveryverylongtitlewithnospaces', 'averyveryveryveryveryver'],
    ['OpenAPI spec', 'api'],
  ])('names the API after its title, short: %s', async (title, name) => {
    const project = await mkdtemp(path.join(os.tmpdir(), 'contracts-init-'));
    await writeFile(path.join(project, 'openapi.yaml'), spec.replace('title: Inventory API', `title: "${title}"`));
    const { code, output } = await runMain(['init', 'openapi.yaml'], project);
    expect(code, output).toBe(0);
    const written = parse(await readFile(path.join(project, 'contracts.config.yaml'), 'utf8'));
    expect(written.apis[0].name).toBe(name);
  });
});
