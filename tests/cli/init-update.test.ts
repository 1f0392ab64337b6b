// `contracts init --update SPEC` brings the entry init wrote before up to date: a credential stub for each security
// scheme the spec gained, the spec path or port when asked, and nothing else of the user's entry or comments.
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runMain } from '../helpers/run-main.js';

const spec = (schemes: string) => `openapi: 3.1.0
info: { title: Inventory API, version: "1" }
paths: {}
components:
  securitySchemes:
${schemes}`;
const apiKey = '    apiKey: { type: apiKey, in: header, name: X-Inventory-Key }\n';
const bearer = '    bearerAuth: { type: http, scheme: Bearer }\n';

async function project(config?: string) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'contracts-init-update-'));
  await writeFile(path.join(dir, 'openapi.yaml'), spec(apiKey));
  if (config !== undefined) await writeFile(path.join(dir, 'contracts.config.yaml'), config);
  return dir;
}

describe('contracts init --update', () => {
  it('adds a stub for the scheme the spec gained, keeping the entry and the comments the user wrote', async () => {
    const dir = await project();
    expect((await runMain(['init', 'openapi.yaml'], dir)).code).toBe(0);
    const configFile = path.join(dir, 'contracts.config.yaml');
    const edited = (await readFile(configFile, 'utf8')).replace(
      '    mockPort: 4010',
      '    # the staging port\n    mockPort: 4010\n    fuzz:\n      exclude-path: [/admin]',
    );
    await writeFile(configFile, edited);
    await writeFile(path.join(dir, 'openapi.yaml'), spec(apiKey + bearer));
    const { code, output } = await runMain(['init', '--update', 'openapi.yaml'], dir);
    expect(code, output).toBe(0);
    expect(output).toContain(
      'updated inventory in contracts.config.yaml: credential CONTRACTS_INVENTORY_BEARER_AUTH added for the security scheme bearerAuth',
    );
    expect(output).toContain(
      'credentials: set CONTRACTS_INVENTORY_BEARER_AUTH for the security scheme bearerAuth (Authorization: Bearer)',
    );
    const text = await readFile(configFile, 'utf8');
    expect(text).toContain('# the staging port');
    expect(parse(text).apis).toEqual([
      {
        name: 'inventory',
        spec: 'openapi.yaml',
        generated: 'generated/inventory.ts',
        mockPort: 4010,
        fuzz: { 'exclude-path': ['/admin'] },
        credentials: [
          { env: 'CONTRACTS_INVENTORY_API_KEY', securityScheme: 'apiKey' },
          { env: 'CONTRACTS_INVENTORY_BEARER_AUTH', securityScheme: 'bearerAuth' },
        ],
      },
    ]);
  });

  it('says the entry is up to date, and writes nothing, when there is nothing to change', async () => {
    const dir = await project();
    expect((await runMain(['init', 'openapi.yaml'], dir)).code).toBe(0);
    const before = await readFile(path.join(dir, 'contracts.config.yaml'), 'utf8');
    const { code, output } = await runMain(['init', '--update', 'openapi.yaml'], dir);
    expect(code, output).toBe(0);
    expect(output).toContain('inventory in contracts.config.yaml is up to date with openapi.yaml: nothing to change');
    expect(await readFile(path.join(dir, 'contracts.config.yaml'), 'utf8')).toBe(before);
  });

  it('keeps a credential whose scheme the spec lost, and says so', async () => {
    const dir = await project();
    expect((await runMain(['init', 'openapi.yaml'], dir)).code).toBe(0);
    await writeFile(path.join(dir, 'openapi.yaml'), spec(bearer));
    const { code, output } = await runMain(['init', '--update', 'openapi.yaml'], dir);
    expect(code, output).toBe(0);
    expect(output).toContain(
      'kept the credential CONTRACTS_INVENTORY_API_KEY, although the spec has no security scheme apiKey any more',
    );
    const apis = parse(await readFile(path.join(dir, 'contracts.config.yaml'), 'utf8')).apis;
    expect(apis[0].credentials.map((credential: { env: string }) => credential.env)).toEqual([
      'CONTRACTS_INVENTORY_API_KEY',
      'CONTRACTS_INVENTORY_BEARER_AUTH',
    ]);
  });

  it('moves the spec of the API --name names, and sets the port --port gives', async () => {
    const dir = await project();
    expect((await runMain(['init', 'openapi.yaml'], dir)).code).toBe(0);
    await writeFile(path.join(dir, 'v2.yaml'), spec(apiKey));
    const { code, output } = await runMain(
      ['init', '--update', '--name', 'inventory', '--port', '4100', 'v2.yaml'],
      dir,
    );
    expect(code, output).toBe(0);
    expect(output).toContain(
      'updated inventory in contracts.config.yaml: spec openapi.yaml → v2.yaml; mock port 4010 → 4100',
    );
    const [entry] = parse(await readFile(path.join(dir, 'contracts.config.yaml'), 'utf8')).apis;
    expect(entry).toMatchObject({ spec: 'v2.yaml', mockPort: 4100 });
  });

  it('refuses to update what is not there, and points a second plain init at --update', async () => {
    const dir = await project();
    const missing = await runMain(['init', '--update', 'openapi.yaml'], dir);
    expect(missing.code).toBe(2);
    expect(missing.output).toContain(
      'contracts.config.yaml has no API for openapi.yaml to update: leave out --update to add it',
    );
    expect((await runMain(['init', 'openapi.yaml'], dir)).code).toBe(0);
    const again = await runMain(['init', 'openapi.yaml'], dir);
    expect(again.code).toBe(2);
    expect(again.output).toContain(
      'already has an API named inventory: choose another with --name, or update it with --update',
    );
  });
});
