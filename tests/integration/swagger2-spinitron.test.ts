// A public Swagger 2.0 description from the APIs.guru OpenAPI Directory (Spinitron v2: basePath /v2/api, path, query
// and formData parameters, an apiKey header; tests/fixtures/swagger2-public/README.md) through every command, each a
// real process: lint, generate, validate, fuzz against a stand-in that keeps the description, mock, sandbox, and diff
// (a revised 2.0 with one breaking change; the 2.0 against its own 3.0 conversion, where nothing breaks).
import { spawn } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import type http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkExchange } from '../../src/core/check-exchange.js';
import { compileContract } from '../../src/core/compile-contract.js';
import { loadSpec } from '../../src/core/load-spec.js';
import { root } from '../helpers/paths.js';
import { runCli } from '../helpers/run-cli.js';
import { spawnServer, type ServerProcess } from '../helpers/spawn-server.js';
import { startSpinitronStandIn } from '../helpers/spinitron-stand-in.js';

const spec = 'tests/fixtures/swagger2-public/spinitron-2.0.yaml';
const loaded = await loadSpec(path.join(root, spec));
const contract = compileContract(loaded);
const children: ServerProcess[] = [];
let standIn: http.Server;
let baseUrl: string;
let scratch: string;

beforeAll(async () => {
  ({ server: standIn, baseUrl } = await startSpinitronStandIn());
  scratch = await mkdtemp(path.join(os.tmpdir(), 'swagger2-spinitron-'));
});
afterAll(async () => {
  for (const child of children) child.kill('SIGINT');
  await rm(scratch, { recursive: true, force: true });
  await new Promise((resolve) => standIn.close(resolve));
});

/** GET `route` (under the description's paths) from a server at `base`; its status and our error findings. */
async function judgedGet(base: string, route: string) {
  const response = await fetch(`${base}${route}`, { headers: { authorization: 'any' } });
  const body = await response.text();
  const exchange = {
    method: 'GET',
    path: route.split('?')[0]!,
    status: response.status,
    headers: Object.fromEntries(response.headers),
    body,
  };
  const findings = checkExchange(contract, exchange).findings.filter((finding) => finding.severity === 'error');
  return { status: response.status, findings };
}

describe("Spinitron's public Swagger 2.0 description (real processes)", () => {
  it('lints with no error, each warning located in the 2.0 file', async () => {
    const result = await runCli(['lint', spec]);
    expect(result.stderr).toMatch(/1 spec linted: 0 errors/);
    expect(result.stdout).toContain(
      `${spec}:475:17 #/definitions/Persona/properties/since/format warning contracts-format-unknown format "integer" has no check here`,
    );
    expect(result.code).toBe(0);
  });

  it('generates types for its paths', async () => {
    const result = await runCli(['generate', '--spec', path.join(root, spec)], { cwd: scratch });
    expect(result.code, result.stderr).toBe(0);
    const types = await readFile(path.join(scratch, 'generated/spinitron-2-0.ts'), 'utf8');
    expect(types).toMatch(/"\/personas\/\{id\}": \{/);
  }, 60_000);

  it('validates an answer under the basePath, naming what its definition refuses', async () => {
    const body = path.join(scratch, 'persona.json');
    await writeFile(body, '{"id":"seven","name":"DJ"}');
    const result = await runCli([
      'validate', '--spec', spec, '--method', 'GET', '--path', '/v2/api/personas/7', '--status', '200',
      '--header', 'content-type: application/json', '--body', body,
    ]); // biome-ignore format: one argument list
    expect([result.stdout.trim(), result.code]).toEqual([
      '✗ response_schema_conformance: /id must be integer, not "seven"',
      1,
    ]);
  });

  it('fuzzes a stand-in that keeps the description, finding nothing', async () => {
    const args = [
      'fuzz',
      '--spec',
      path.join(root, spec),
      '--base-url',
      baseUrl,
      '--max-examples',
      '10',
      '--seed',
      '1',
    ];
    const result = await runCli(args, { cwd: scratch });
    const report = result.stdout + result.stderr;
    expect(report).toMatch(/✓ POST \/spins +\d+ passed/);
    expect(report).toMatch(/\d+ passed, 0 failed/);
    expect(result.code, report).toBe(0);
  }, 240_000);

  it('is served by the sandbox under its basePath with answers its checks accept', async () => {
    const port = await spawnServer(
      ['sandbox', '--spec', spec, '--port', '0'],
      /statefully at (http:\/\/\S+)/,
      children,
    );
    const base = `http://127.0.0.1:${port}/v2/api`;
    const answers = [await judgedGet(base, '/personas'), await judgedGet(base, '/spins?count=2')];
    expect(answers).toEqual([
      { status: 200, findings: [] },
      { status: 200, findings: [] },
    ]);
  }, 60_000);

  it('is served by the mock (Prism) with answers its checks accept', async () => {
    const project = path.join(scratch, 'mock-project');
    await mkdir(project, { recursive: true });
    await copyFile(path.join(root, spec), path.join(project, 'spinitron-2.0.yaml'));
    await writeFile(
      path.join(project, 'contracts.config.yaml'),
      'apis:\n  - name: spinitron\n    spec: spinitron-2.0.yaml\n',
    );
    const args = [path.join(root, 'bin/contracts.js'), 'mock', '--api', 'spinitron', '--port-spinitron', '0'];
    const child = spawn(process.execPath, args, {
      cwd: project,
      env: { ...process.env, SCARF_ANALYTICS: 'false' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let output = '';
    const base = await new Promise<string>((resolve, reject) => {
      const collect = (chunk: Buffer) => {
        output += chunk.toString();
        const url = /spinitron\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
        if (url && /Ctrl-C/.test(output)) resolve(url);
      };
      child.stdout.on('data', collect);
      child.stderr.on('data', collect);
      child.once('close', () => reject(new Error(`contracts mock exited: ${output}`)));
    });
    // Prism routes at the root, not under the basePath (tests/integration/swagger2-mock-sandbox.test.ts).
    expect(await judgedGet(base, '/personas/1')).toEqual({ status: 200, findings: [] });
  }, 90_000);

  it('diffs a revision that makes a query parameter required as one breaking change, located in the 2.0 file', async () => {
    const text = await readFile(path.join(root, spec), 'utf8');
    const head = path.join(scratch, 'spinitron-revised-2.0.yaml');
    const revised = text.replace(
      '          in: query\n          name: name\n',
      '          in: query\n          name: name\n          required: true\n',
    );
    expect(revised).not.toBe(text);
    await writeFile(head, revised);
    const result = await runCli(['diff', spec, head]);
    expect(result.stdout).toMatch(/^\S+spinitron-revised-2\.0\.yaml:\d+:\d+ error \S+ .*\[GET \/personas\]\n$/);
    expect(result.stderr).toMatch(/1 change: 1 breaking \(error\)/);
    expect(result.code).toBe(1);
  });

  it('diffs against its own OpenAPI 3.0 conversion with nothing breaking', async () => {
    const converted = path.join(scratch, 'spinitron-3.0.json');
    await writeFile(converted, JSON.stringify(loaded.document));
    const result = await runCli(['diff', spec, converted]);
    expect(result.stderr).toMatch(/ 0 breaking \(error\)/);
    expect(result.code).toBe(0);
  });
});
