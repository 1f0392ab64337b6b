// An OpenAPI 3.0 spec through the commands a user runs on it: lint, validate and mock, with 3.0 semantics.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort } from '../helpers/free-port.js';
import { root } from '../helpers/paths.js';
import { runCli } from '../helpers/run-cli.js';

const pets = 'tests/fixtures/specs/openapi-30/pets.yaml';
const badExamples = 'tests/fixtures/specs/openapi-30/bad-examples.yaml';
const cat = { petType: 'cat', name: 'Tom', weight: 4.5 };

describe('an OpenAPI 3.0 spec (real process)', () => {
  it('lints clean with exit 0', async () => {
    const result = await runCli(['lint', pets]);
    expect(result.stdout).toBe('');
    expect(result.code).toBe(0);
  });

  it('lints a bad example on the line the user wrote it, under a nullable schema too', async () => {
    const result = await runCli(['lint', badExamples]);
    expect(result.stdout.trim().split('\n')).toEqual([
      `${badExamples}:25:30 #/paths/~1things/get/responses/200/content/application~1json warning contracts-response-example response 200 application/json of listThings has a schema but no example: a mock can only make one up from the schema (add \`example\` or \`examples\`)`,
      `${badExamples}:37:20 #/components/schemas/Thing/properties/size/example error contracts-example-valid example does not match its schema: the example must be > 0`,
      `${badExamples}:43:24 #/components/schemas/Thing/properties/maker/properties/age/example error contracts-example-valid example does not match its schema: the example must be integer`,
    ]);
    expect(result.code).toBe(1);
  });

  const validateCases: [string, { body: unknown; code: number; output: RegExp }][] = [
    [
      'accepts null in a nullable: true field',
      { body: { ...cat, nickname: null, owner: null }, code: 0, output: /^✓ conforms \(getPet: / },
    ],
    [
      'refuses a weight at a bound that exclusiveMinimum: true excludes',
      { body: { ...cat, weight: 0 }, code: 1, output: /weight must be > 0/ },
    ],
  ];

  it.each(validateCases)('validate %s', async (_name, { body, code, output }) => {
    const args = [
      'validate',
      '--spec',
      pets,
      '--method',
      'GET',
      '--path',
      '/pets/1',
      '--status',
      '200',
      '--header',
      'Content-Type: application/json',
      '--body',
      '-',
    ];
    const result = await runCli(args, { input: JSON.stringify(body) });
    expect(result.stdout).toMatch(output);
    expect(result.code).toBe(code);
  });

  it('is served by the Prism mock, which applies 3.0 nullable and exclusive bounds to requests', async () => {
    const port = await freePort();
    const child = spawn(
      process.execPath,
      [
        path.join(root, 'bin/contracts.js'),
        'mock',
        '--api',
        'client-session',
        '--spec',
        `client-session=${pets}`,
        '--port-client-session',
        String(port),
      ],
      {
        cwd: root,
        env: { ...process.env, SCARF_ANALYTICS: 'false' },
      },
    );
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      await new Promise<void>((resolve, reject) => {
        let text = '';
        child.stdout.on('data', (chunk: Buffer) => {
          text += chunk.toString();
          if (/Ctrl-C to stop/.test(text)) resolve();
        });
        child.once('exit', (code) => reject(new Error(`contracts mock exited (${code}): ${text}`)));
      });
      const base = `http://127.0.0.1:${port}`;
      const got = await fetch(`${base}/pets/1`);
      expect(got.status).toBe(200);
      expect(await got.json()).toMatchObject({ name: 'Tom', nickname: null });
      const put = (body: unknown) =>
        fetch(`${base}/pets/1`, {
          method: 'PUT',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      expect((await put({ ...cat, nickname: null })).status).toBe(204);
      expect((await put({ ...cat, weight: 0 })).status).toBe(422);
    } finally {
      child.kill('SIGINT');
      await exited;
    }
  }, 60_000);
});

describe('a spec in several files (real process)', () => {
  const multiFile = 'tests/fixtures/specs/openapi-30/multi-file.yaml';

  it('lints clean with exit 0', async () => {
    const result = await runCli(['lint', multiFile]);
    expect(result.stdout).toBe('');
    expect(result.code).toBe(0);
  });

  it('reports a bad example from another file at the $ref that brings it in', async () => {
    const spec = 'tests/fixtures/specs/openapi-30/multi-file-bad-example.yaml';
    const result = await runCli(['lint', spec]);
    expect(result.stdout).toContain(`${spec}:12:`);
    expect(result.stdout).toMatch(/contracts-example-valid example does not match its schema: \/name must be string/);
    expect(result.code).toBe(1);
  });

  it('validates against a schema from another file', async () => {
    const args = [
      'validate',
      '--spec',
      multiFile,
      '--operation',
      'getOwner',
      '--status',
      '200',
      '--header',
      'Content-Type: application/json',
      '--body',
      '-',
    ];
    const bad = await runCli(args, { input: JSON.stringify({ name: 'Ann', pets: -1 }) });
    expect(bad.stdout).toMatch(/\/pets must be >= 0/);
    expect(bad.code).toBe(1);
    expect((await runCli(args, { input: JSON.stringify({ name: 'Ann', pets: 1, nickname: null }) })).code).toBe(0);
  });

  it('exits 2 naming the file and line of a $ref to a file that is not there', async () => {
    const result = await runCli(['lint', 'tests/fixtures/specs/openapi-30/broken-external-ref.yaml']);
    expect(result.stderr.trim()).toBe(
      'contracts lint: tests/fixtures/specs/openapi-30/broken-external-ref.yaml:10:7: $ref "./shared/nope.yaml#/Owner" does not resolve: no such file next to the spec',
    );
    expect(result.code).toBe(2);
  });
});
