// A pull request that adds `refs.roots` and a `$ref` to a secrets file must not make a command print the secret:
// roots leave the repository only never (confine-path.ts), and a file or value a `$ref` names that is no object of
// a spec (a .env file reads as one string) is refused by where it is named, never shown.
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

const secret = 'wJalrXUtnFEMI-K7MDENG-leak-5a1e';

let dir: string;
let repo: string;

function spec(ref: string): string {
  return (
    'openapi: 3.1.0\ninfo: { title: t, version: "1" }\npaths:\n  /a:\n    get:\n      operationId: a\n' +
    '      responses:\n        "200":\n          description: ok\n          content:\n            application/json:\n' +
    `              schema: { type: string, pattern: { $ref: "${ref}" } }\n`
  );
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'contracts-ref-leaks-'));
  repo = path.join(dir, 'repo');
  await mkdir(path.join(repo, '.git'), { recursive: true });
  await mkdir(path.join(repo, 'specs'), { recursive: true });
  await writeFile(path.join(dir, '.env'), `AWS_SECRET_ACCESS_KEY=${secret}\n`);
  await writeFile(path.join(repo, '.env'), `AWS_SECRET_ACCESS_KEY=${secret}\nOTHER=1\n`);
  await writeFile(path.join(repo, 'secrets.yaml'), `token: ${secret}\n`);
  await writeFile(path.join(repo, 'body.json'), '"x"');
});

const cases: [string, { roots: string; ref: string; message: RegExp }][] = [
  [
    'refs.roots above the repository',
    { roots: '[../..]', ref: '../../.env', message: /refs\.roots\[0\] "\.\.\/\.\." leads outside the project/ },
  ],
  [
    'a .env file in the repository',
    { roots: '[.]', ref: '../.env', message: /\$ref "\.\.\/\.env" names a file that is not a YAML or JSON mapping/ },
  ],
  [
    'a string in a YAML file',
    {
      roots: '[.]',
      ref: '../secrets.yaml#/token',
      message: /\$ref "\.\.\/secrets\.yaml#\/token" names a value that is not an object/,
    },
  ],
];

describe('a $ref to a secrets file, with refs.roots from the same pull request', () => {
  it.each(cases)(
    '%s: lint and validate refuse it in one line and print no secret',
    async (_name, { roots, ref, message }) => {
      await writeFile(path.join(repo, 'specs', 'api.yaml'), spec(ref));
      await writeFile(
        path.join(repo, 'contracts.config.yaml'),
        `apis:\n  - name: evil\n    spec: specs/api.yaml\nrefs:\n  roots: ${roots}\n`,
      );
      for (const args of [
        // The schema check of a body that misses the pattern used to print it: `must match pattern "AWS_…"`.
        [
          'validate',
          '--api',
          'evil',
          '--operation',
          'a',
          '--status',
          '200',
          '--header',
          'Content-Type: application/json',
          '--body',
          'body.json',
        ],
        ['lint'],
      ]) {
        const result = await runCli(args, { cwd: repo });
        expect(result.stdout + result.stderr, args[0]).not.toContain(secret);
        expect(result.stdout + result.stderr, args[0]).not.toContain('AWS_SECRET');
        expect(result.stderr, args[0]).toMatch(message);
        expect(result.code, args[0]).toBe(2);
      }
    },
    60_000,
  );
});
