// A spec from a pull request is hostile: one malicious spec per way a `$ref` could reach outside its folder, run
// through every command that reads a spec. None may read, fetch or print anything outside the spec's folder, and
// each answers within seconds (/dev/zero and a FIFO would otherwise grow or block for ever).
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { startMocks } from '../../src/mock/start-mocks.js';
import { runCli } from '../helpers/run-cli.js';
import { seedConfig } from '../helpers/paths.js';
import { seedProject } from '../../src/config/seed-project.js';

const canary = 'CANARY_OUTSIDE_9d4c';
const envCanary = 'CANARY_ENVIRON_71ab';

let dir: string;
let project: string;
let urlHits = 0;
let urlServer: http.Server;
let urlBase: string;
let standIn: http.Server;
let standInUrl: string;

async function run(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const started = Date.now();
  const code = await main(args, {
    out: (line) => out.push(line),
    err: (line) => err.push(line),
    cwd: project,
    env: { PATH: process.env.PATH, CONTRACTS_CONFIG: seedConfig },
  });
  return { code, output: [...out, ...err].join('\n'), ms: Date.now() - started };
}

const listen = (server: http.Server) =>
  new Promise<string>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'contracts-hostile-'));
  project = path.join(dir, 'project');
  await mkdir(path.join(dir, 'outside'), { recursive: true });
  await mkdir(path.join(project, 'spec'), { recursive: true });
  await writeFile(path.join(dir, 'outside', 'canary.yaml'), `Owner: ${canary}\n`);
  await symlink(path.join(dir, 'outside', 'canary.yaml'), path.join(project, 'spec', 'link-out.yaml'));
  execFileSync('mkfifo', [path.join(project, 'spec', 'fifo.yaml')]);
  urlServer = http.createServer((_req, res) => {
    urlHits++;
    res.end(`Owner: ${canary}\n`);
  });
  urlBase = await listen(urlServer);
  standIn = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  standInUrl = await listen(standIn);
  await writeFile(path.join(project, 'body.json'), '{}');
  await writeFile(path.join(project, 'clean.yaml'), specWith('operationId: a'));
});

afterAll(async () => {
  await new Promise((resolve) => urlServer.close(resolve));
  await new Promise((resolve) => standIn.close(resolve));
});

function specWith(operationId: string, extra = ''): string {
  return (
    'openapi: 3.1.0\ninfo: { title: evil, version: "1" }\npaths:\n  /a:\n    get:\n' +
    `      ${operationId}\n      summary: s\n      responses:\n        "200":\n          description: ok\n` +
    `          content:\n            application/json:\n              schema: { type: object${extra} }\n`
  );
}

/** Writes the spec and a config naming it as API `evil`; returns the spec's path relative to the project. */
async function hostile(name: string, text: string): Promise<string> {
  const file = `spec/evil-${name}.yaml`;
  await writeFile(path.join(project, file), text);
  await writeFile(path.join(project, `${name}.config.yaml`), `apis:\n  - name: evil\n    spec: ${file}\n`);
  await writeFile(path.join(project, `init-${name}.config.yaml`), 'apis:\n  - name: clean\n    spec: clean.yaml\n');
  return file;
}

/** Every command that reads a spec, as a user would call it on this one. */
function commands(name: string, file: string): [string, string[]][] {
  const config = `${name}.config.yaml`;
  return [
    ['lint', ['lint', file]],
    ['diff --format markdown', ['diff', 'clean.yaml', file, '--format', 'markdown']],
    ['generate', ['generate', '--config', config, '--out-dir', path.join(dir, 'generated', name)]],
    ['mock', ['mock', '--config', config, '--api', 'evil']],
    [
      'validate',
      ['validate', '--spec', file, '--method', 'GET', '--path', '/a', '--status', '200', '--body', 'body.json'],
    ],
    ['check', ['check', '--api', 'client-session', '--spec', file, '--base-url', standInUrl]],
    ['fuzz', ['fuzz', '--config', config, '--api', 'evil', '--base-url', standInUrl, '--max-examples', '1']],
    ['proxy', ['proxy', '--config', config, '--api', 'evil', '--target', standInUrl, '--port', '0']],
    ['receive', ['receive', '--spec', file, '--port', '0']],
    ['init', ['init', file, '--config', `init-${name}.config.yaml`]],
  ];
}

const structural: [string, (outside: string) => string][] = [
  ['absolute', (outside) => `${outside}/canary.yaml#/Owner`],
  ['dotdot', () => '../../outside/canary.yaml#/Owner'],
  ['symlink', () => './link-out.yaml#/Owner'],
  ['environ', () => '/proc/self/environ'],
  ['devzero', () => '/dev/zero'],
  ['fifo', () => './fifo.yaml#/Owner'],
  ['url', () => `${urlBase}/canary.yaml#/Owner`],
];

describe('a $ref in the structure of a hostile spec', () => {
  it.each(structural)(
    '%s: every command refuses it in one line at the $ref, exit 2, reading nothing',
    async (name, ref) => {
      const file = await hostile(name, specWith(`operationId: { $ref: "${ref(path.join(dir, 'outside'))}" }`));
      for (const [command, args] of commands(name, file)) {
        const result = await run(args);
        expect(result.output, command).not.toContain(canary);
        expect(result.output, command).toMatch(new RegExp(`${file.replace('.', '\\.')}:6:\\d+: \\$ref "`));
        expect(result.code, command).toBe(2);
        expect(result.ms, command).toBeLessThan(10_000);
      }
      expect(urlHits).toBe(0);
    },
    120_000,
  );
});

describe('a $ref inside example, default, enum and const values', () => {
  const literal = (outside: string) =>
    `, example: { $ref: "${outside}/canary.yaml#/Owner" }, default: { $ref: "../../outside/canary.yaml" }` +
    `, enum: [{ $ref: "/dev/zero" }, { $ref: "./fifo.yaml" }], const: { $ref: "${urlBase}/x.yaml" }`;

  it('is data: no command reads, fetches or prints what it names', async () => {
    const file = await hostile('literal', specWith('operationId: a', literal(path.join(dir, 'outside'))));
    for (const [command, args] of commands('literal', file)) {
      if (command === 'mock' || command === 'proxy' || command === 'receive') continue; // they serve until stopped
      const result = await run(args);
      expect(result.output, command).not.toContain(canary);
      expect(result.output, command).not.toMatch(/internal error/);
      expect(result.ms, command).toBeLessThan(30_000);
    }
    const generated = path.join(dir, 'generated', 'literal');
    for (const name of await readdir(generated))
      expect(await readFile(path.join(generated, name), 'utf8')).not.toContain(canary);
    expect(urlHits).toBe(0);
  }, 180_000);

  it('the mock follows no $ref of the example, and serves no answer its schema refuses', async () => {
    const file = await hostile('literal-mock', specWith('operationId: a', literal(path.join(dir, 'outside'))));
    const mocks = await startMocks({
      apis: [seedProject.api('client-session')],
      ports: { 'client-session': 0 },
      specFiles: { 'client-session': path.join(project, file) },
    });
    try {
      const response = await fetch(`${mocks.urls['client-session']}/a`);
      const body = await response.text();
      // No value satisfies this schema (its const is not among its enum values): Prism serves the example as
      // written, and the mock's front, which serves only what the spec accepts, answers its own 500 naming it.
      expect([response.status, response.headers.get('contracts-mock')]).toEqual([500, 'no-valid-answer']);
      expect(body).toContain('could not make a valid 200 answer for a');
      expect(body).not.toContain(canary);
    } finally {
      await mocks.stop();
    }
    expect(urlHits).toBe(0);
  }, 60_000);
});

describe("an Example Object's externalValue", () => {
  // openapi-typescript fetched it (PeerTube's description in the corpus: "fetch failed"): a spec named a URL and a
  // tool went there. Now no command fetches it, and generate still writes the types.
  it('is fetched by no command', async () => {
    const hitsBefore = urlHits;
    const text =
      'openapi: 3.1.0\ninfo: { title: evil, version: "1" }\npaths:\n  /a:\n    get:\n      operationId: a\n' +
      '      summary: s\n      responses:\n        "200":\n          description: ok\n          content:\n' +
      '            application/json:\n              schema: { type: object }\n              examples:\n' +
      `                nightly: { externalValue: "${urlBase}/config.json" }\n`;
    const file = await hostile('external-value', text);
    for (const [command, args] of commands('external-value', file)) {
      if (command === 'mock' || command === 'proxy' || command === 'receive') continue; // they serve until stopped
      const result = await run(args);
      expect(result.output, command).not.toMatch(/internal error|fetch failed/);
      if (command === 'generate') expect(result.code, result.output).toBe(0);
    }
    expect(urlHits - hitsBefore).toBe(0);
  }, 180_000);
});

describe('/proc/self/environ, as a real process sees it', () => {
  it.each([
    ['lint', (file: string) => ['lint', file]],
    ['diff --format markdown', (file: string) => ['diff', 'clean.yaml', file, '--format', 'markdown']],
  ])(
    '%s prints nothing of the environment',
    async (_name, args) => {
      const file = await hostile('environ-process', specWith('operationId: { $ref: "/proc/self/environ" }'));
      const result = await runCli(args(file), {
        cwd: project,
        env: { LEAK_CANARY: envCanary, CONTRACTS_CONFIG: seedConfig },
      });
      expect(result.stdout + result.stderr).not.toContain(envCanary);
      expect(result.stderr).toMatch(/\$ref "\/proc\/self\/environ" is an absolute path/);
      expect(result.code).toBe(2);
    },
    30_000,
  );
});

// Names a spec may give a property, a path, a component, a parameter, a header or a security scheme, which a plain
// object also answers to (Object.prototype's members), or which sets its prototype (`__proto__`).
const inherited = ['__proto__', 'constructor', 'isPrototypeOf', 'toString', 'hasOwnProperty'];

/** A spec naming everything it can after `names`; `amount` is the type of the `constructor` property. */
function namedSpec(names: string[], amount = 'integer', extraRequired = ''): string {
  const props = names.map((name) => `        ${name}: { type: ${name === 'constructor' ? amount : 'string'} }`);
  const ops = names.map(
    (name) =>
      `  /${name}/{${name}}:\n    post:\n      operationId: ${name}\n      summary: s\n` +
      `      security: [{ ${name}: [] }]\n      parameters:\n` +
      `        - { name: ${name}, in: path, required: true, schema: { type: string } }\n` +
      `        - { name: ${name}, in: query, schema: { type: string } }\n` +
      `      requestBody:\n        content:\n          application/json:\n` +
      `            schema: { $ref: "#/components/schemas/${name}" }\n` +
      `      responses:\n        "200":\n          description: ok\n` +
      `          headers:\n            ${name}: { schema: { type: string } }\n` +
      `          content:\n            application/json:\n              schema: { $ref: "#/components/schemas/${name}" }\n`,
  );
  const schemes = names.map((name) => `    ${name}: { type: apiKey, in: header, name: X-${name.replaceAll('_', '')} }`);
  const schemas = names.map(
    (name) =>
      `    ${name}:\n      type: object\n      required: [${extraRequired}]\n      properties:\n${props.join('\n')}`,
  );
  return (
    'openapi: 3.1.0\ninfo: { title: inherited, version: "1" }\npaths:\n' +
    ops.join('') +
    `components:\n  securitySchemes:\n${schemes.join('\n')}\n  schemas:\n${schemas.join('\n')}\n`
  );
}

describe('names a plain object answers to (__proto__, constructor, isPrototypeOf, toString, hasOwnProperty)', () => {
  it('lint, validate, fuzz and diff read them as names: no internal error, the verdicts a spec of other names gets', async () => {
    const file = await hostile('inherited', namedSpec(inherited));
    await writeFile(path.join(project, 'spec/inherited-head.yaml'), namedSpec(inherited, 'string', 'toString'));
    await writeFile(path.join(project, 'empty.json'), '{}');
    const check = async (args: string[]) => {
      const result = await run(args);
      expect(result.output, args[0]).not.toMatch(/internal error|is not a function|Cannot convert/);
      return result;
    };
    // Spectral cannot read __proto__ or hasOwnProperty: its skip is said, and our rules and swagger-parser run.
    const lint = await check(['lint', file]);
    expect(lint.output).toMatch(/contracts-spectral-skipped .*"(__proto__|hasOwnProperty)"/);
    expect(lint.output).toMatch(/0 errors/);
    expect(lint.code).toBe(0);
    for (const name of inherited) {
      // `{}` has none of the properties: none is read from Object.prototype, so it conforms (no "must be integer").
      const validate = await check([
        'validate', '--spec', file, '--method', 'POST', '--path', `/${name}/x`, '--status', '200',
        '--header', 'content-type: application/json', '--body', 'empty.json',
      ]); // biome-ignore format: one argument list
      expect(validate.output, name).toMatch(/✓ conforms/);
      expect(validate.code, name).toBe(0);
    }
    const same = await check(['diff', file, file]);
    expect(same.output).toMatch(/^0 changes/m);
    expect(same.code).toBe(0);
    const changed = await check(['diff', file, 'spec/inherited-head.yaml']);
    expect(changed.output).toMatch(/response-type-changed response body \/constructor/);
    expect(changed.output).toMatch(/request-property-required-added request body \/toString/);
    expect(changed.code).toBe(1);
    const fuzz = await check(['fuzz', '--config', 'inherited.config.yaml', '--api', 'evil', '--base-url', standInUrl]);
    // The stand-in answers `{}` to everything: conforming answers; only its acceptance of every request is a failure.
    expect(fuzz.output).not.toMatch(/response_schema_conformance|response_headers_conformance/);
    expect(fuzz.output).toMatch(/negative_data_rejection/);
    expect(fuzz.code).toBe(1);
  }, 180_000);

  it('generate writes the types of __proto__ and toString, and names a key openapi-typescript cannot read', async () => {
    await hostile('inherited-gen', namedSpec(['__proto__', 'toString']));
    const out = path.join(dir, 'generated', 'inherited');
    const written = await run(['generate', '--config', 'inherited-gen.config.yaml', '--out-dir', out]);
    expect(written.code, written.output).toBe(0);
    expect(await readFile(path.join(out, 'evil.ts'), 'utf8')).toMatch(/__proto__\?: string;\s*toString\?: string;/);
    // Its resolver looks keys up in its own plain objects: a security scheme named constructor ends it (a TypeError).
    for (const name of ['constructor', 'isPrototypeOf', 'hasOwnProperty']) {
      await hostile(`inherited-${name}`, namedSpec([name]));
      const refused = await run(['generate', '--config', `inherited-${name}.config.yaml`, '--out-dir', out]);
      expect(refused.output.trim()).toMatch(
        new RegExp(`^contracts generate: .*cannot read a key named "${name}"[^\\n]*$`),
      );
      expect(refused.code).toBe(2);
    }
  }, 60_000);
});
