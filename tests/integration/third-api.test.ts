// A third API added by config alone (no code change): every generic command works on it from its spec, `check`
// with the generic conformance pass.
import { spawn } from 'node:child_process';
import { copyFile, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/free-port.js';
import { fixture, root, specFile } from '../helpers/paths.js';
import { runCli } from '../helpers/run-cli.js';

let dir: string;
let config: string;
let port: number;
const secret = 'petstore-secret-3f9c2a71';

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'contracts-third-api-'));
  await copyFile(fixture('specs', 'openapi-30', 'pets.yaml'), path.join(dir, 'pets.yaml'));
  // A config names only files in its own project (confine-path.ts): the seed specs are copied beside it.
  for (const name of ['client-session', 'repository-webhooks'])
    await copyFile(specFile(name), path.join(dir, `${name}.yaml`));
  port = await freePort();
  config = path.join(dir, 'contracts.config.yaml');
  await writeFile(
    config,
    [
      'apis:',
      '  - name: client-session',
      '    spec: client-session.yaml',
      '  - name: repository-webhooks',
      '    spec: repository-webhooks.yaml',
      '  - name: petstore',
      '    spec: pets.yaml',
      `    mockPort: ${port}`,
      '    credentials:',
      '      - env: CONTRACTS_PETSTORE_TOKEN',
      '        header: Authorization',
      '        prefix: "Bearer "',
      '',
    ].join('\n'),
  );
});

const validateArgs = [
  'validate',
  '--api',
  'petstore',
  '--operation',
  'getPet',
  '--status',
  '200',
  '--header',
  'Content-Type: application/json',
  '--body',
  '-',
];

describe('a third API in contracts.config.yaml (real process)', () => {
  it('is linted with the seeds', async () => {
    const result = await runCli(['lint', '--config', config]);
    expect(result.stderr).toContain('3 specs linted: 0 errors, 0 warnings');
    expect(result.code).toBe(0);
  });

  it('gets generated types where the config says, with 3.0 nullable as | null', async () => {
    const result = await runCli(['generate', '--config', config]);
    expect(result.stdout).toContain('pets.yaml -> ');
    expect(result.code).toBe(0);
    const types = await readFile(path.join(dir, 'generated', 'petstore.ts'), 'utf8');
    expect(types).toMatch(/nickname\?: string \| null;/);
    expect((await runCli(['generate', '--check', '--config', config])).code).toBe(0);
  });

  it('is validated by name, with 3.0 semantics', async () => {
    const ok = await runCli([...validateArgs, '--config', config], {
      input: JSON.stringify({ petType: 'dog', name: 'Rex', weight: 30, nickname: null }),
    });
    expect(ok.stdout).toMatch(/^✓ conforms \(getPet: /);
    expect(ok.code).toBe(0);
    const bad = await runCli([...validateArgs, '--config', config], {
      input: JSON.stringify({ petType: 'dog', name: 'Rex', weight: 0 }),
    });
    expect(bad.code).toBe(1);
  });

  it('is mocked on the port the config gives it', async () => {
    const child = spawn(
      process.execPath,
      [path.join(root, 'bin/contracts.js'), 'mock', '--config', config, '--api', 'petstore'],
      { cwd: root, env: { ...process.env, SCARF_ANALYTICS: 'false' } },
    );
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      const output = await new Promise<string>((resolve, reject) => {
        let text = '';
        child.stdout.on('data', (chunk: Buffer) => {
          text += chunk.toString();
          if (/Ctrl-C to stop/.test(text)) resolve(text);
        });
        child.once('exit', (code) => reject(new Error(`contracts mock exited (${code}): ${text}`)));
      });
      expect(output).toContain(`petstore             http://127.0.0.1:${port}`);
      const response = await fetch(`http://127.0.0.1:${port}/pets/1`);
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ name: 'Tom' });
    } finally {
      child.kill('SIGINT');
      await exited;
    }
  }, 60_000);

  it('is checked by the generic conformance pass, each operation it cannot bind reported with the reason', async () => {
    const result = await runCli(['check', '--config', config, '--api', 'petstore']);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toContain(
      '- status_code_conformance skipped: not exercised: path parameter petId: no operation creates or lists a Pet: give it a value (an example, a default or a variable), or add a link',
    );
    expect(result.stdout).not.toMatch(/client-session|repository-webhooks/);
  }, 60_000);

  it('never shows the value of a credential its config names', async () => {
    const result = await runCli(
      [
        'validate',
        '--config',
        config,
        '--api',
        'petstore',
        '--method',
        'GET',
        '--path',
        `/nope/${secret}`,
        '--status',
        '200',
      ],
      {
        env: { CONTRACTS_PETSTORE_TOKEN: secret },
      },
    );
    expect(result.stdout + result.stderr).not.toContain(secret);
    expect(result.stdout + result.stderr).toContain('[REDACTED]');
  });

  it('is refused in one line naming the file and line when the config is wrong', async () => {
    const bad = path.join(dir, 'bad.config.yaml');
    await writeFile(bad, 'apis:\n  - name: petstore\n    spec: pets.yaml\n    mockPrt: 4999\n');
    const result = await runCli(['lint', '--config', bad]);
    expect(result.stderr.trim().split('\n')[0]).toBe(
      `contracts lint: ${path.relative(root, bad)}:4:5: apis[0] has an unknown field "mockPrt" (see schemas/contracts-config.schema.json)`,
    );
    expect(result.code).toBe(2);
  });
});

describe('contracts init (real process)', () => {
  it('adds an entry to the config of the directory, keeping its comments, and the API works by name', async () => {
    const project = await mkdtemp(path.join(os.tmpdir(), 'contracts-init-'));
    await copyFile(fixture('specs', 'openapi-30', 'pets.yaml'), path.join(project, 'pets.yaml'));
    await copyFile(fixture('specs', 'openapi-30', 'multi-file.yaml'), path.join(project, 'owners.yaml'));
    const first = await runCli(['init', 'pets.yaml'], { cwd: project });
    expect(first.stdout.trim()).toBe(
      'added pets to contracts.config.yaml: spec pets.yaml (OpenAPI 3.0.3), mock port 4010, types generated/pets.ts',
    );
    expect(first.code).toBe(0);
    const configFile = path.join(project, 'contracts.config.yaml');
    await writeFile(configFile, `# our APIs\n${await readFile(configFile, 'utf8')}`);
    const again = await runCli(['init', 'pets.yaml', '--name', 'pets2'], { cwd: project });
    expect(again.stderr).toMatch(/already has this spec, as pets/);
    expect(again.code).toBe(2);

    const validate = await runCli(
      [
        'validate',
        '--api',
        'pets',
        '--operation',
        'getPet',
        '--status',
        '200',
        '--header',
        'Content-Type: application/json',
        '--body',
        '-',
      ],
      {
        cwd: project,
        input: JSON.stringify({ petType: 'cat', name: 'Tom', weight: 1 }),
      },
    );
    expect(validate.code).toBe(0);
    expect(await readFile(configFile, 'utf8')).toMatch(/^# our APIs\n/);
  });
});
