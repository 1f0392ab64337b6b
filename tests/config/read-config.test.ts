import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { seedProject } from '../../src/config/seed-project.js';
import { configSchemaFile, readConfig } from '../../src/config/read-config.js';
import { ContractsError } from '../../src/core/errors.js';
import { configValidatorFile, configValidatorSource } from '../../scripts/config-validator.js';
import { root } from '../helpers/paths.js';

async function configFile(text: string): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'contracts-config-'));
  const file = path.join(dir, 'contracts.config.yaml');
  await writeFile(file, text);
  return file;
}

describe('contracts.config.yaml', () => {
  it('is checked by the validator ajv makes of its schema now (npm run generate:config rewrites it)', () => {
    expect(readFileSync(configValidatorFile, 'utf8') === configValidatorSource()).toBe(true);
  });

  it('is described by a schema that is itself valid JSON Schema 2020-12 (readConfig trusts it unchecked)', () => {
    const ajv = new Ajv2020({ strict: true, strictRequired: false });
    const schema = JSON.parse(readFileSync(configSchemaFile, 'utf8')) as object;
    expect(ajv.validateSchema(schema), ajv.errorsText()).toBe(true);
    expect(ajv.validateSchema({ ...schema, properties: { apis: { type: 'list' } } })).toBe(false);
  });

  it('ships with the seed APIs as its first two entries, as the built-in defaults have them', () => {
    const config = readConfig(path.join(root, 'contracts.config.yaml'));
    expect(config.apis.map((api) => api.name)).toEqual([...seedProject.names]);
    for (const api of config.apis) expect({ ...api, baseDir: root }).toEqual(seedProject.api(api.name));
  });

  it('gives an API without mockPort the first free port from 4010, and generated types under generated/', async () => {
    const config = readConfig(
      await configFile('apis:\n  - name: a\n    spec: a.yaml\n    mockPort: 4010\n  - name: b\n    spec: b.yaml\n'),
    );
    expect(config.apis[1]).toEqual({
      name: 'b',
      spec: 'b.yaml',
      mockPort: 4011,
      generated: 'generated/b.ts',
      credentials: [],
    });
  });

  const refused: [string, { given: string; message: RegExp; line: number }][] = [
    ['no apis', { given: 'apis: []\n', message: /apis must NOT have fewer than 1 items/, line: 1 }],
    ['an API without a spec', { given: 'apis:\n  - name: a\n', message: /apis\[0\] needs "spec"/, line: 2 }],
    [
      'a misspelt field',
      {
        given: 'apis:\n  - name: a\n    spec: a.yaml\n    mockport: 4012\n',
        message: /apis\[0\] has an unknown field "mockport"/,
        line: 4,
      },
    ],
    [
      'a name that is not lower-case',
      {
        given: 'apis:\n  - name: Pets\n    spec: a.yaml\n',
        message: /apis\[0\]\.name must be lower-case letters, digits and dashes/,
        line: 2,
      },
    ],
    [
      'a port out of range',
      {
        given: 'apis:\n  - name: a\n    spec: a.yaml\n    mockPort: 70000\n',
        message: /apis\[0\]\.mockPort must be <= 65535/,
        line: 4,
      },
    ],
    [
      'a name used twice',
      {
        given: 'apis:\n  - name: a\n    spec: a.yaml\n  - name: a\n    spec: b.yaml\n',
        message: /apis\[1\]\.name: "a" is already the name of another API/,
        line: 4,
      },
    ],
    [
      'a mock port used twice',
      {
        given:
          'apis:\n  - name: a\n    spec: a.yaml\n    mockPort: 5000\n  - name: b\n    spec: b.yaml\n    mockPort: 5000\n',
        message: /apis\[1\]\.mockPort: 5000 is already the mock port of a/,
        line: 7,
      },
    ],
    [
      'a credential that goes nowhere',
      {
        given: 'apis:\n  - name: a\n    spec: a.yaml\n    credentials:\n      - env: TOKEN\n',
        message: /apis\[0\]\.credentials\[0\] must name exactly one of header, query or securityScheme/,
        line: 5,
      },
    ],
    ['text that is not YAML', { given: 'apis: [\n', message: /not valid YAML or JSON/, line: 2 }],
  ];

  it.each(refused)('refuses %s in one line at its line', async (_name, { given, message, line }) => {
    const file = await configFile(given);
    let thrown: unknown;
    try {
      readConfig(file, 'contracts.config.yaml');
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(ContractsError);
    expect((thrown as ContractsError).code).toBe('CONFIG_INVALID');
    expect((thrown as ContractsError).message).toMatch(message);
    expect((thrown as ContractsError).location).toMatchObject({ file: 'contracts.config.yaml', line });
  });
});
