// A config from a pull request is hostile, beside the hostile spec (hostile-specs.test.ts): one per way its paths,
// refs.roots or credentials could reach outside the project, run through every command that reads a config, as real
// processes. None may read, write or print anything outside the project, and none may send the target (a loopback
// server recording every request) a variable the user did not allow. Every run is bounded: refused configs stop
// before Prism, the sandbox or a proxy starts, and a spawn is killed after 30 s.
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { root } from '../helpers/paths.js';

const canary = 'CANARY_OUTSIDE_c0f1';
const secret = 'aws-secret-canary-7b2d';
const neighbourMain = 'export const mine = 1;\n';
const spec =
  'openapi: 3.1.0\ninfo: { title: t, version: "1" }\npaths:\n  /a:\n    get:\n      operationId: a\n' +
  '      summary: s\n      responses:\n        "200":\n          description: ok\n          content:\n' +
  '            application/json:\n              schema: { type: object }\n';

let dir: string;
let outside: string;
let neighbour: string;
let server: http.Server;
let baseUrl: string;
const received: { url: string; headers: http.IncomingHttpHeaders }[] = [];

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'contracts-hostile-config-'));
  outside = path.join(dir, 'outside');
  neighbour = path.join(dir, 'neighbour');
  await mkdir(outside);
  await mkdir(path.join(neighbour, 'src'), { recursive: true });
  await writeFile(path.join(outside, 'secret.yaml'), `Owner: ${canary}\n`);
  await writeFile(path.join(outside, 'spec.yaml'), spec.replace('title: t', `title: ${canary}`));
  await writeFile(path.join(outside, '.env'), `AWS_SECRET_ACCESS_KEY=${canary}\n`);
  await writeFile(path.join(neighbour, 'src', 'main.ts'), neighbourMain);
  server = http.createServer((request, response) => {
    received.push({ url: request.url ?? '', headers: request.headers });
    response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

/** The CLI as a user runs it in `cwd`, killed after 30 s; the user's environment holds a cloud secret. */
function run(args: string[], cwd: string): Promise<{ code: number | null; output: string; ms: number }> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(root, 'bin/contracts.js'), ...args], {
      cwd,
      env: { PATH: process.env.PATH, SCARF_ANALYTICS: 'false', AWS_SECRET_ACCESS_KEY: secret },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output, ms: Date.now() - started });
    });
  });
}

/** A project (a git checkout) holding a clean spec and the hostile config. */
async function project(name: string, config: string): Promise<string> {
  const folder = path.join(dir, name);
  await mkdir(path.join(folder, '.git'), { recursive: true });
  await mkdir(path.join(folder, 'specs'), { recursive: true });
  await writeFile(path.join(folder, 'specs', 'openapi.yaml'), spec);
  await writeFile(path.join(folder, 'body.json'), '{}');
  await writeFile(path.join(folder, 'contracts.config.yaml'), config);
  return folder;
}

/** Every command that reads the config; the serving ones only where the config is refused before they serve. */
function commands(serving: boolean): [string, string[]][] {
  const list: [string, string[]][] = [
    ['lint', ['lint']],
    ['validate', ['validate', '--api', 'evil', '--operation', 'a', '--status', '200', '--body', 'body.json']],
    ['generate', ['generate']],
    ['generate --check', ['generate', '--check']],
    ['fuzz', ['fuzz', '--api', 'evil', '--base-url', baseUrl, '--max-examples', '1', '--seed', '1']],
    ['check', ['check', '--api', 'evil', '--base-url', baseUrl]],
    ['diff', ['diff', 'specs/openapi.yaml', 'specs/openapi.yaml']],
    ['init', ['init', 'specs/openapi.yaml', '--name', 'other']],
  ];
  if (serving)
    list.push(
      ['mock', ['mock', '--api', 'evil']],
      ['sandbox', ['sandbox', '--port', '0']],
      ['proxy', ['proxy', '--api', 'evil', '--target', baseUrl, '--port', '0']],
      ['receive', ['receive', '--port', '0']],
    );
  return list;
}

const api = (fields: string) => `apis:\n  - name: evil\n    spec: specs/openapi.yaml\n${fields}`;

// Each hostile config, and the line every command refuses it with (exit 2).
const refused: [string, (folder: string) => Promise<string>, RegExp][] = [
  [
    'generated: ../',
    async () => api('    generated: ../neighbour/src/main.ts\n'),
    /generated "\.\.\/neighbour\/src\/main\.ts" leads outside/,
  ],
  [
    'generated: absolute',
    async () => api(`    generated: ${JSON.stringify(path.join(neighbour, 'src', 'main.ts'))}\n`),
    /generated "\/\S+" is an absolute path outside/,
  ],
  [
    'spec: ../',
    async () => 'apis:\n  - name: evil\n    spec: ../outside/spec.yaml\n',
    /spec "\.\.\/outside\/spec\.yaml" leads outside/,
  ],
  [
    'spec through a symlink out',
    async (folder) => {
      await symlink(outside, path.join(folder, 'linked'));
      return 'apis:\n  - name: evil\n    spec: linked/spec.yaml\n';
    },
    /spec "linked\/spec\.yaml" leads outside/,
  ],
  [
    'generated through a symlinked folder out',
    async (folder) => {
      await symlink(path.join(neighbour, 'src'), path.join(folder, 'gen'));
      return api('    generated: gen/main.ts\n');
    },
    /generated "gen\/main\.ts" leads outside/,
  ],
  [
    'refs.roots outside',
    async () => `${api('')}refs:\n  roots: [../outside, /]\n`,
    /refs\.roots\[0\] "\.\.\/outside" leads outside/,
  ],
];

async function outsideUnchanged(): Promise<void> {
  expect((await readdir(outside)).sort()).toEqual(['.env', 'secret.yaml', 'spec.yaml']);
  expect(await readdir(path.join(neighbour, 'src'))).toEqual(['main.ts']);
  expect(await readFile(path.join(neighbour, 'src', 'main.ts'), 'utf8')).toBe(neighbourMain);
}

describe('a hostile config from a pull request, through every command', () => {
  it.each(refused)(
    '%s: refused in one line at its field, exit 2, nothing read, written or sent outside',
    async (name, config, message) => {
      const folder = await project(`refused-${name.replace(/\W+/g, '-')}`, '');
      await writeFile(path.join(folder, 'contracts.config.yaml'), await config(folder));
      received.length = 0;
      for (const [command, args] of commands(true)) {
        const result = await run(args, folder);
        expect(result.output, command).toMatch(
          new RegExp(`^contracts \\S+: contracts\\.config\\.yaml:\\d+:\\d+: \\S*${message.source}`),
        );
        expect(result.output.trim().split('\n'), command).toHaveLength(1);
        expect(result.output, command).not.toContain(canary);
        expect(result.code, command).toBe(2);
        expect(result.ms, command).toBeLessThan(30_000);
      }
      expect(received).toEqual([]);
      await outsideUnchanged();
    },
    240_000,
  );

  it('a credential from a variable the user did not allow: fuzz and check refuse it and send nothing', async () => {
    const folder = await project(
      'foreign-variable',
      api('    credentials:\n      - { env: AWS_SECRET_ACCESS_KEY, header: X-Debug }\n'),
    );
    received.length = 0;
    for (const [command, args] of commands(false)) {
      const result = await run(args, folder);
      expect(result.output, command).not.toContain(secret);
      expect(result.ms, command).toBeLessThan(30_000);
      if (command === 'fuzz' || command === 'check') {
        expect(result.output, command).toMatch(/sends the variable AWS_SECRET_ACCESS_KEY as a credential of evil/);
        expect(result.code, command).toBe(2);
      }
    }
    expect(received).toEqual([]);
    expect(JSON.stringify(received)).not.toContain(secret);
    await outsideUnchanged();
  }, 240_000);

  it('a $ref to a secrets file under roots the config adds inside the repository: refused, never shown', async () => {
    const folder = await project('env-ref', `${api('')}refs:\n  roots: [.]\n`);
    await writeFile(path.join(folder, '.env'), `AWS_SECRET_ACCESS_KEY=${canary}\n`);
    await writeFile(
      path.join(folder, 'specs', 'openapi.yaml'),
      spec.replace('schema: { type: object }', 'schema: { type: string, pattern: { $ref: "../.env" } }'),
    );
    for (const [command, args] of commands(false)) {
      // diff and init read the spec alone, without the config's roots; check has no sequences for this API.
      if (command === 'diff' || command === 'init' || command === 'check') continue;
      const result = await run(args, folder);
      expect(result.output, command).not.toContain(canary);
      expect(result.output, command).toMatch(/\$ref "\.\.\/\.env" names a file that is not a YAML or JSON mapping/);
      expect(result.code, command).toBe(2);
    }
  }, 240_000);

  it('init over a committed, dangling contracts.config.yaml symlink: refused, nothing created where it points', async () => {
    const folder = path.join(dir, 'dangling');
    await mkdir(path.join(folder, '.git'), { recursive: true });
    await writeFile(path.join(folder, 'openapi.yaml'), spec);
    await symlink(path.join(outside, 'planted.yaml'), path.join(folder, 'contracts.config.yaml'));
    const result = await run(['init', 'openapi.yaml'], folder);
    expect(result.output).toBe(
      'contracts init: cannot write contracts.config.yaml: it is a symbolic link, and a link may lead outside the project: replace it with a file\n',
    );
    expect(result.code).toBe(2);
    await outsideUnchanged();
  }, 60_000);
});
