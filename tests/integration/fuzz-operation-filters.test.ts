// --include-*/--exclude-* and the config's `fuzz:` keys: which operations a fuzz run sends requests to, counted at a
// real server. Unleash's `POST /api/admin/maintenance` switched maintenance mode on and every later write answered 503:
// keeping fuzz away from it meant editing the spec.
import { mkdtemp, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMain } from '../helpers/run-main.js';

const spec = `openapi: 3.1.0
info: { title: t, version: "1" }
paths:
  /pets:
    get: { operationId: listPets, tags: [pets], responses: { "200": { description: ok } } }
    post: { operationId: createPet, tags: [pets], responses: { "200": { description: ok } } }
  /pets/{id}:
    delete:
      operationId: deletePet
      tags: [pets]
      parameters: [{ name: id, in: path, required: true, schema: { type: integer } }]
      responses: { "200": { description: ok } }
  /maintenance:
    post: { operationId: setMaintenance, tags: [admin], responses: { "200": { description: ok } } }
`;

let server: http.Server;
let baseUrl: string;
const hits = new Set<string>();

beforeAll(async () => {
  server = http.createServer((req, res) => {
    hits.add(`${req.method} ${(req.url ?? '').split('?')[0]!.replace(/^\/pets\/[^/]+$/, '/pets/{id}')}`);
    // A path id that is no integer is refused, as the spec's schema says.
    res.writeHead(/^\/pets\/(?!\d+$)/.test(req.url ?? '') ? 400 : 200).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

async function project(fuzz = ''): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'contracts-filters-'));
  await writeFile(path.join(dir, 'api.yaml'), spec);
  await writeFile(
    path.join(dir, 'contracts.config.yaml'),
    `apis:\n  - name: pets\n    spec: api.yaml\n${fuzz ? `    fuzz:\n${fuzz}` : ''}`,
  );
  return dir;
}

async function fuzz(args: string[], fuzzConfig = '') {
  hits.clear();
  const dir = await project(fuzzConfig);
  const common = ['fuzz', '--base-url', baseUrl, '--max-examples', '2', '--seed', '1', '--rate', '0'];
  return runMain([...common, ...args], dir);
}

const all = ['GET /pets', 'POST /pets', 'DELETE /pets/{id}', 'POST /maintenance'];

describe('contracts fuzz operation filters', () => {
  it.each<[string, { args: string[]; config?: string; want: string[] }]>([
    ['no filter fuzzes every operation', { args: [], want: all }],
    [
      '--exclude-path keeps fuzz away from that path',
      { args: ['--exclude-path', '/maintenance'], want: all.slice(0, 3) },
    ],
    [
      'includes of different kinds AND together, and excludes win',
      { args: ['--include-tag', 'pets', '--include-method', 'post', '--include-method', 'GET'], want: all.slice(0, 2) },
    ],
    [
      'an exclude wins over an include of the same operation',
      {
        args: ['--include-tag', 'pets', '--exclude-operation-id', 'createPet'],
        want: ['GET /pets', 'DELETE /pets/{id}'],
      },
    ],
    [
      "the config's fuzz keys filter, and an option replaces only its own key",
      {
        args: ['--include-method', 'POST'],
        config: '      exclude-operation-id: [setMaintenance]\n      include-method: [DELETE]\n',
        want: ['POST /pets'],
      },
    ],
  ])(
    '%s',
    async (_name, { args, config, want }) => {
      const { code, output } = await fuzz(args, config);
      expect(code, output).not.toBe(2);
      expect([...hits].sort()).toEqual([...want].sort());
    },
    60_000,
  );

  it.each<[string, { args: string[]; config?: string; want: string }]>([
    [
      'a value that matches no operation, with the close one',
      {
        args: ['--include-operation-id', 'listPet'],
        want: 'contracts fuzz: --include-operation-id "listPet" matches no operation of pets: Did you mean "listPets"?',
      },
    ],
    [
      'a config value that matches no operation, named where it is written',
      {
        args: [],
        config: '      exclude-tag: [admins]\n',
        want: `contracts fuzz: the config's apis[pets].fuzz.exclude-tag "admins" matches no operation of pets: Did you mean "admin"?`,
      },
    ],
    [
      'filters that leave nothing',
      {
        args: ['--include-tag', 'admin', '--exclude-method', 'POST'],
        want: 'contracts fuzz: the --include-*/--exclude-* filters leave no operation to fuzz',
      },
    ],
  ])(
    'refuses %s in one line, exit 2, before anything is sent',
    async (_name, { args, config, want }) => {
      const { code, output } = await fuzz(args, config);
      expect(code, output).toBe(2);
      expect(output.split('\n').filter((line) => line.startsWith('contracts fuzz:'))).toEqual([want]);
      expect([...hits]).toEqual([]);
    },
    60_000,
  );
});
