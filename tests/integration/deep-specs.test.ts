// A spec nested deeper than any real one (allOf 400 levels in a 5 KB file, 1,500 levels, properties and items
// nested, a chain of 400 $refs) ended lint in "Maximum call stack size exceeded" and validate and diff at 1,500.
// Every command that reads a spec refuses it in one line at the place it goes too deep, exit 2, no stack trace.
import { mkdtemp, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { seedConfig } from '../helpers/paths.js';

let dir: string;
let server: http.Server;
let baseUrl: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'contracts-deep-'));
  await writeFile(path.join(dir, 'empty.json'), '{}');
  server = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise((resolve) => server.close(resolve)));

const head =
  'openapi: 3.1.0\ninfo: { title: deep, version: "1" }\npaths:\n  /a:\n    post:\n      operationId: a\n' +
  '      responses:\n        "200":\n          description: ok\n          content:\n            application/json:\n' +
  '              schema: { $ref: "#/components/schemas/Deep" }\ncomponents:\n  schemas:\n';

const wrap = (levels: number, open: string, close: string) =>
  `    Deep: ${open.repeat(levels)}{ type: string }${close.repeat(levels)}\n`;

const specs: [string, string][] = [
  ['allOf nested 400 levels (5 KB)', head + wrap(400, '{ allOf: [', '] }')],
  ['allOf nested 1,500 levels', head + wrap(1500, '{ allOf: [', '] }')],
  ['properties nested 400 levels', head + wrap(400, '{ type: object, properties: { a: ', ' } }')],
  ['items nested 1,500 levels', head + wrap(1500, '{ type: array, items: ', ' }')],
  [
    'a chain of 400 $refs',
    head.replace('/Deep', '/C0') +
      Array.from(
        { length: 400 },
        (_, i) => `    C${i}: { allOf: [{ $ref: "#/components/schemas/C${i + 1}" }] }\n`,
      ).join('') +
      '    C400: { type: string }\n',
  ],
  [
    'allOf nested 400 levels in JSON',
    JSON.stringify({
      openapi: '3.1.0',
      info: { title: 'deep', version: '1' },
      paths: {},
      components: { schemas: { Deep: JSON.parse(`${'{"allOf":['.repeat(400)}{}${']}'.repeat(400)}`) } },
    }),
  ],
];

describe('a spec nested too deeply', () => {
  it.each(specs.map(([name, text], index) => [name, text, index] as const))(
    '%s: lint, validate, diff, fuzz and generate refuse it in one line, exit 2',
    async (_name, text, index) => {
      const file = `deep-${index}.${text.startsWith('{') ? 'json' : 'yaml'}`;
      await writeFile(path.join(dir, file), text);
      await writeFile(path.join(dir, `deep-${index}.config.yaml`), `apis:\n  - name: deep\n    spec: ${file}\n`);
      const config = `deep-${index}.config.yaml`;
      const commands = [
        ['lint', file],
        ['validate', '--spec', file, '--method', 'POST', '--path', '/a', '--status', '200', '--body', 'empty.json'],
        ['diff', file, file],
        ['fuzz', '--config', config, '--api', 'deep', '--base-url', baseUrl, '--max-examples', '1'],
        ['generate', '--config', config, '--out-dir', path.join(dir, 'generated')],
      ];
      const results = await Promise.all(
        commands.map((args) => runCli(args, { cwd: dir, env: { CONTRACTS_CONFIG: seedConfig } })),
      );
      results.forEach((result, at) => {
        const command = commands[at]![0];
        expect(result.stdout + result.stderr, command).not.toMatch(/internal error|Maximum call stack|\n\s+at /);
        expect(result.stderr.trim(), command).toMatch(
          new RegExp(
            `^contracts ${command}: \\S*${file.replace('.', '\\.')}:\\d+:\\d+: nesting (deeper than 256 levels .* at #/components/schemas/|too deep to parse)[^\\n]*$`,
          ),
        );
        expect(result.code, command).toBe(2);
      });
    },
    180_000,
  );
});
