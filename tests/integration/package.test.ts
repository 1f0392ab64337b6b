// The package as a user gets it: `npm pack` (prepack builds dist/), the tarball installed with npm into a scratch
// project outside the repository (`npm ci --offline` from a lock made of this repository's: every dependency comes
// from npm's cache, no network), and there, on the project's own small spec (no copy of ours), what a new user
// runs: the README's "Use it in your project" block as written (init, lint, generate, mock, fuzz), then diff, proxy,
// a vitest test with the matchers and the library entry.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/free-port.js';
import { root } from '../helpers/paths.js';
import { parseReadme } from '../readme/readme-blocks.js';
import { scratchLock } from '../helpers/install-lock.js';

// The README's first run copies this spec out of the installed package (examples/notes/, shipped for that).
const spec = readFileSync(path.join(root, 'examples/notes/openapi.yaml'), 'utf8');

const vitestTest = `import 'contracts-kit/vitest';
import { expect, it } from 'vitest';

it('the mock answers as the spec says, and a wrong body fails', async () => {
  const response = await fetch(process.env.NOTES_URL + '/notes', { headers: { 'X-Notes-Key': 'any' } });
  await expect(response).toSatisfyContract({ api: 'notes', method: 'GET' });
  const wrong = { method: 'GET', path: '/notes', status: 200, headers: { 'content-type': 'application/json' }, body: '[{"id":"one"}]' };
  await expect(expect(wrong).toSatisfyContract({ api: 'notes' })).rejects.toThrow(/must be integer/);
});
`;

const library = `import { checkExchange, diffSpecs, loadContract } from 'contracts-kit';
const contract = await loadContract('openapi.yaml');
const result = checkExchange(contract, { method: 'GET', path: '/notes', status: 200,
  headers: { 'content-type': 'application/json' }, body: '[{"id":"one","text":"x"}]' });
console.log(result.operationId, result.findings.map((finding) => finding.message).join('; '));
for (const change of await diffSpecs('openapi.yaml', 'openapi-next.yaml')) console.log(change.level, change.rule);
`;

let scratch = '';
let packDir = '';
const servers: ChildProcess[] = [];
// What a user's shell has: no loader or config of this repository's test run.
const env = {
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  ...(process.env.npm_config_cache ? { npm_config_cache: process.env.npm_config_cache } : {}),
  CONTRACTS_NOTES_KEY: 'scratch-key-0017',
  SCARF_ANALYTICS: 'false',
};

function run(command: string, args: string[], timeout = 180_000) {
  const result = spawnSync(command, args, { cwd: scratch, env, encoding: 'utf8', timeout });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}
const contracts = (...args: string[]) => run('npx', ['contracts', ...args]);

/** Starts a server command and waits for its "Ctrl-C to stop"; stopped with Ctrl-C (SIGINT) after the tests. */
function serve(args: string[]): Promise<string> {
  const child = spawn('npx', ['contracts', ...args], { cwd: scratch, env, detached: true });
  servers.push(child);
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not ready in 60 s:\n${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (/Ctrl-C to stop/.test(output)) {
        clearTimeout(timer);
        resolve(output);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => reject(new Error(`exited ${code}:\n${output}`)));
  });
}

beforeAll(async () => {
  packDir = mkdtempSync(path.join(os.tmpdir(), 'contracts-pack-'));
  scratch = mkdtempSync(path.join(os.tmpdir(), 'contracts-scratch-'));
  const packed = spawnSync('npm', ['pack', '--pack-destination', packDir, '--json'], {
    cwd: root,
    encoding: 'utf8',
    timeout: 240_000,
  });
  expect(packed.status, packed.stderr).toBe(0);
  // prepack (npm run build) prints before npm's JSON: the build ran, then the list of what was packed.
  expect(packed.stdout).toContain('built dist/');
  const [{ filename, files }] = JSON.parse(packed.stdout.slice(packed.stdout.search(/^\[/m))) as [
    { filename: string; files: { path: string }[] },
  ];
  expect(files.map((file) => file.path)).toContain('dist/src/cli/run-cli.js');
  const { packageJson, lock } = scratchLock(path.join(packDir, filename), ['vitest']);
  writeFileSync(path.join(scratch, 'package.json'), JSON.stringify(packageJson, null, 2));
  writeFileSync(path.join(scratch, 'package-lock.json'), JSON.stringify(lock, null, 2));
  const installed = run('npm', ['ci', '--offline', '--no-audit', '--no-fund'], 240_000);
  expect(installed.code, installed.stderr).toBe(0);
  writeFileSync(path.join(scratch, 'openapi-next.yaml'), spec.replace('maxLength: 200', 'maxLength: 100'));
  writeFileSync(path.join(scratch, 'notes.test.ts'), vitestTest);
  writeFileSync(path.join(scratch, 'library.mjs'), library);
}, 600_000);

afterAll(async () => {
  await Promise.all(
    servers.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          const signal = (name: NodeJS.Signals) => {
            try {
              process.kill(-child.pid!, name);
            } catch {
              resolve();
            }
          };
          // Ctrl-C, as a user stops them; a server still up 20 s later (a loaded machine) is killed, so the clean-up
          // cannot outlive the hook.
          const kill = setTimeout(() => signal('SIGKILL'), 20_000);
          child.once('exit', () => {
            clearTimeout(kill);
            resolve();
          });
          signal('SIGINT');
        }),
    ),
  );
  rmSync(scratch, { recursive: true, force: true });
  rmSync(packDir, { recursive: true, force: true });
  // Removing the scratch project (its node_modules: thousands of files) takes most of a minute on a loaded machine.
}, 180_000);

describe('the packed package, installed in a project of its own', () => {
  it('is a copy in the project, with built JavaScript and no TypeScript source or tests', () => {
    const installed = realpathSync(path.join(scratch, 'node_modules/contracts-kit'));
    expect(installed.startsWith(realpathSync(scratch))).toBe(true);
    expect(existsSync(path.join(installed, 'dist/src/index.js'))).toBe(true);
    expect(existsSync(path.join(installed, 'dist/src/index.d.ts'))).toBe(true);
    for (const absent of ['src', 'tests', 'bench', 'scripts', 'node_modules/tsx'])
      expect(existsSync(path.join(installed, absent)), absent).toBe(false);
  });

  it("runs the README's first steps as written: init, lint, generate, mock, fuzz", async () => {
    const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Use it in your project'));
    const block = parseReadme(section).find((candidate) => candidate.lang === 'sh');
    const [install, ...commands] = block!.commands;
    expect(install!.bare).toBe('npm i -D contracts-kit'); // done above, from the tarball
    expect(existsSync(path.join(scratch, 'openapi.yaml'))).toBe(false); // an empty folder: the README brings a spec
    const outputs: string[] = [];
    for (const command of commands) {
      if (command.bare.startsWith('cp ')) {
        const copied = run('bash', ['-c', command.bare]);
        expect(copied.code, `${command.text}\n${copied.stderr}`).toBe(0);
        continue;
      }
      const [npx, bin, ...args] = command.bare.split(/\s+/);
      expect([npx, bin]).toEqual(['npx', 'contracts']);
      if (command.server) {
        outputs.push(await serve(args));
        continue;
      }
      const result = contracts(...args);
      expect(result.code, `${command.text}\n${result.stdout}${result.stderr}`).toBe(0);
      outputs.push(result.stdout + result.stderr);
    }
    const all = outputs.join('\n');
    expect(all).toContain('credentials: set CONTRACTS_NOTES_KEY for the security scheme key (header X-Notes-Key)');
    expect(all).toContain('1 spec linted: 0 errors, 0 warnings');
    expect(all).toContain('http://127.0.0.1:4610');
    expect(all).toMatch(/\d+ passed, 0 failed/);
    expect(all).not.toContain(root);
    const config = readFileSync(path.join(scratch, 'contracts.config.yaml'), 'utf8');
    expect(config).toContain('$schema: node_modules/contracts-kit/schemas/contracts-config.schema.json');
    expect(config).not.toContain(root);
    expect(readFileSync(path.join(scratch, 'generated/notes.ts'), 'utf8')).toContain('listNotes');
    // Six processes in turn (init, lint, generate, Prism, fuzz and its embedded mock): minutes on a loaded machine.
  }, 300_000);

  it('diffs two versions of the spec, checks traffic through the proxy, passes a vitest test with the matchers', async () => {
    const diff = contracts('diff', 'openapi.yaml', 'openapi-next.yaml');
    expect(diff.stdout).toMatch(
      /openapi-next\.yaml:\d+:\d+ error request-max-lowered request body \/text: maxLength 200 → 100/,
    );
    expect(diff.code).toBe(1);
    const proxyPort = await freePort();
    await serve(['proxy', '--api', 'notes', '--target', 'http://127.0.0.1:4610', '--port', String(proxyPort)]);
    const through = await fetch(`http://127.0.0.1:${proxyPort}/notes`, { headers: { 'X-Notes-Key': 'any' } });
    expect(through.status).toBe(200);
    expect(await through.json()).toEqual([{ id: 1, text: 'buy milk' }]);

    const vitest = spawnSync('npx', ['vitest', 'run'], {
      cwd: scratch,
      env: { ...env, NOTES_URL: 'http://127.0.0.1:4610', NO_COLOR: '1' },
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(vitest.stdout).toMatch(/Tests\s+1 passed/);
    expect(vitest.status, vitest.stdout + vitest.stderr).toBe(0);
  }, 180_000);

  it("types the matchers' api with the names the project declares, from the package's .d.ts", () => {
    writeFileSync(
      path.join(scratch, 'contract-apis.d.ts'),
      "import 'contracts-kit/vitest';\ndeclare module 'contracts-kit/vitest' {\n  interface ContractApis {\n    notes: true;\n  }\n}\n",
    );
    writeFileSync(
      path.join(scratch, 'typed.ts'),
      [
        "import 'contracts-kit/vitest';",
        "import { expect } from 'vitest';",
        "export const right = expect({}).toSatisfyContract({ api: 'notes' });",
        '// @ts-expect-error a name the project did not declare',
        "export const wrong = expect({}).toSatisfyContract({ api: 'nots' });",
        '',
      ].join('\n'),
    );
    writeFileSync(
      path.join(scratch, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          noEmit: true,
          skipLibCheck: true,
        },
        files: ['contract-apis.d.ts', 'typed.ts'],
      }),
    );
    // TypeScript comes with the package (openapi-typescript needs it).
    const tsc = run(process.execPath, ['node_modules/typescript/bin/tsc', '-p', '.']);
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.code).toBe(0);
    // Without the declaration, any name compiles and the @ts-expect-error is unused: the check above can fail.
    writeFileSync(path.join(scratch, 'contract-apis.d.ts'), 'export {};\n');
    const untyped = run(process.execPath, ['node_modules/typescript/bin/tsc', '-p', '.']);
    expect(untyped.stdout).toContain("Unused '@ts-expect-error' directive");
  }, 180_000);

  it('offers the engine as a library: load a contract, check an exchange, diff two specs', () => {
    const result = run(process.execPath, ['library.mjs']);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe('listNotes /0/id must be integer, not "one"\nerror request-max-lowered\n');
  }, 180_000);
});
