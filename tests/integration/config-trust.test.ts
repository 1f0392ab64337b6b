// A config decides what fuzz and check send. One another user planted above the checkout, or one from a pull
// request naming the user's cloud key, must not make them send it: a loopback server records what arrives.
import { chmod, chown, mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

const secret = 'aws-secret-canary-0f3e9d';
const spec =
  'openapi: 3.1.0\ninfo: { title: t, version: "1" }\npaths:\n  /a:\n    get:\n      operationId: a\n' +
  '      responses:\n        "200": { description: ok }\n';
const leaky =
  'apis:\n  - name: notes\n    spec: openapi.yaml\n    credentials:\n      - { env: AWS_SECRET_ACCESS_KEY, header: X-Debug }\n';

let dir: string;
let server: http.Server;
let baseUrl: string;
const received: http.IncomingHttpHeaders[] = [];

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'contracts-config-trust-'));
  server = http.createServer((request, response) => {
    received.push(request.headers);
    response.writeHead(200).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const env = { AWS_SECRET_ACCESS_KEY: secret, CONTRACTS_CONFIG: '' };
const sent = () => received.filter((headers) => headers['x-debug'] !== undefined);

/** A planted config in `parent`, and the user's checkout below it with a spec and no config of its own. */
async function planted(name: string): Promise<{ parent: string; checkout: string; config: string }> {
  const parent = path.join(dir, name);
  const checkout = path.join(parent, 'checkout');
  await mkdir(checkout, { recursive: true });
  await writeFile(path.join(checkout, 'openapi.yaml'), spec);
  await writeFile(path.join(parent, 'openapi.yaml'), spec);
  const config = path.join(parent, 'contracts.config.yaml');
  await writeFile(config, leaky.replace('AWS_SECRET_ACCESS_KEY', 'CONTRACTS_NOTES_KEY'));
  return { parent, checkout, config };
}

const fuzz = (cwd: string, extra: string[] = [], environment: Record<string, string> = env) =>
  runCli(['fuzz', '--base-url', baseUrl, '--max-examples', '1', '--seed', '1', ...extra], { cwd, env: environment });

describe('a config found above the checkout that another user could have put there', () => {
  it('in a folder anyone can write to (0777, no sticky bit): passed over, said in one line, nothing sent', async () => {
    const { parent, checkout, config } = await planted('world-writable');
    await chmod(parent, 0o777);
    received.length = 0;
    const result = await fuzz(checkout, ['--spec', 'openapi.yaml'], { CONTRACTS_NOTES_KEY: secret });
    expect(result.stderr).toContain(`contracts: ignoring ${config}: ${parent} is writable by anyone (no sticky bit)`);
    expect(received.length).toBeGreaterThan(0);
    expect(sent()).toEqual([]);
  }, 60_000);

  it.runIf(process.getuid?.() === 0)(
    'owned by another user (chown 12345, as root): passed over, nothing sent',
    async () => {
      const { checkout, config } = await planted('other-owner');
      await chown(config, 12345, 12345);
      received.length = 0;
      const result = await fuzz(checkout, ['--spec', 'openapi.yaml'], { CONTRACTS_NOTES_KEY: secret });
      expect(result.stderr).toContain(`contracts: ignoring ${config}: it is owned by another user (uid 12345)`);
      expect(received.length).toBeGreaterThan(0);
      expect(sent()).toEqual([]);
    },
    60_000,
  );
});

describe("a config naming a variable outside contracts-kit's namespace for its API", () => {
  it('is refused by fuzz and check in one line saying how to allow it, before anything is sent', async () => {
    const project = path.join(dir, 'pull-request');
    await mkdir(project, { recursive: true });
    await writeFile(path.join(project, 'openapi.yaml'), spec);
    await writeFile(path.join(project, 'contracts.config.yaml'), leaky);
    received.length = 0;
    for (const command of ['fuzz', 'check']) {
      const result = await runCli([command, '--api', 'notes', '--base-url', baseUrl], { cwd: project, env });
      expect(result.stderr).toBe(
        `contracts ${command}: contracts.config.yaml sends the variable AWS_SECRET_ACCESS_KEY as a credential of notes, but a config may name only variables in contracts-kit's namespace for its API (CONTRACTS_NOTES_…): rename it, or give --allow-env AWS_SECRET_ACCESS_KEY to send it\n`,
      );
      expect(result.code).toBe(2);
    }
    expect(received).toEqual([]);

    // Allowed on the command line, it is sent, and the config in use is said first.
    const allowed = await fuzz(project, ['--api', 'notes', '--allow-env', 'AWS_SECRET_ACCESS_KEY']);
    expect(allowed.stderr.split('\n')[0]).toBe(
      `contracts fuzz: sending credentials as the config ${path.join(project, 'contracts.config.yaml')} names them`,
    );
    expect(sent().length).toBeGreaterThan(0);
    expect(allowed.stdout + allowed.stderr).not.toContain(secret);
  }, 90_000);
});

describe('a config from a pull request that names its API after the secret it wants', () => {
  // The API's name is the config's choice too: named aws or github, a prefix rule built on the name alone would let
  // it reach AWS_SECRET_ACCESS_KEY or GITHUB_TOKEN.
  it.each([
    ['aws', 'AWS_SECRET_ACCESS_KEY'],
    ['github', 'GITHUB_TOKEN'],
  ])(
    'an API named %s sending %s: fuzz and check refuse it in one line, nothing is sent',
    async (api, variable) => {
      const project = path.join(dir, `named-${api}`);
      await mkdir(project, { recursive: true });
      await writeFile(path.join(project, 'openapi.yaml'), spec);
      await writeFile(
        path.join(project, 'contracts.config.yaml'),
        leaky.replace('name: notes', `name: ${api}`).replace('AWS_SECRET_ACCESS_KEY', variable),
      );
      const environment = { [variable]: secret, CONTRACTS_CONFIG: '' };
      received.length = 0;
      const results: [string, Awaited<ReturnType<typeof runCli>>][] = [];
      for (const command of ['fuzz', 'check'])
        results.push([
          command,
          await runCli([command, '--api', api, '--base-url', baseUrl], { cwd: project, env: environment }),
        ]);
      // What reached the target first: before the fix, the secret itself, as X-Debug.
      expect(sent().map((headers) => headers['x-debug'])).toEqual([]);
      expect(received).toEqual([]);
      for (const [command, result] of results) {
        expect(result.stderr).toBe(
          `contracts ${command}: contracts.config.yaml sends the variable ${variable} as a credential of ${api}, but a config may name only variables in contracts-kit's namespace for its API (CONTRACTS_${api.toUpperCase()}_…): rename it, or give --allow-env ${variable} to send it\n`,
        );
        expect(result.stdout).not.toContain(secret);
        expect(result.code).toBe(2);
      }
    },
    90_000,
  );
});
