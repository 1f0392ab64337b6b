// Acceptance on a public Swagger 2.0 description (OAI's petstore-expanded, Apache-2.0; see the fixture's header):
// lint, validate, fuzz against a stand-in service that keeps the description, and diff, each as a real process.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { root } from '../helpers/paths.js';
import { runCli } from '../helpers/run-cli.js';

const spec = 'tests/fixtures/swagger2/oai-petstore-expanded-2.0.yaml';
const int32 = (text: string | null) => text === null || (/^-?\d+$/.test(text) && Math.abs(Number(text)) < 2 ** 31);
const int64 = (text: string) => /^-?\d+$/.test(text) && BigInt(text) < 2n ** 63n && BigInt(text) >= -(2n ** 63n);

/** The petstore as its description says: a 400 with an Error for what the description forbids. */
function standIn(): http.Server {
  const pets = new Map<string, { id: number; name: string; tag?: string }>([['1', { id: 1, name: 'Rex' }]]);
  let next = 2;
  return http.createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', () => {
      const send = (status: number, body?: unknown) =>
        body === undefined
          ? res.writeHead(status).end()
          : res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      const url = new URL(req.url ?? '/', 'http://stand-in');
      const id = /^\/api\/pets\/([^/]+)$/.exec(url.pathname)?.[1];
      if (url.pathname === '/api/pets' && req.method === 'GET')
        return int32(url.searchParams.get('limit'))
          ? send(200, [...pets.values()])
          : send(400, { code: 400, message: 'limit' });
      if (url.pathname === '/api/pets' && req.method === 'POST') {
        let pet: { name?: unknown; tag?: unknown } | null = null;
        try {
          pet = JSON.parse(raw);
        } catch {}
        const ok = pet !== null && typeof pet === 'object' && !Array.isArray(pet) && typeof pet.name === 'string';
        if (!ok || (pet!.tag !== undefined && typeof pet!.tag !== 'string'))
          return send(400, { code: 400, message: 'pet' });
        const made = { ...(pet as object), id: next++ } as { id: number; name: string };
        pets.set(String(made.id), made);
        return send(200, made);
      }
      if (id !== undefined && (req.method === 'GET' || req.method === 'DELETE')) {
        if (!int64(id)) return send(400, { code: 400, message: 'id' });
        const pet = pets.get(String(BigInt(id)));
        if (pet === undefined) return send(404, { code: 404, message: 'no such pet' });
        if (req.method === 'GET') return send(200, pet);
        pets.delete(String(pet.id));
        return send(204);
      }
      send(404, { code: 404, message: 'no route' });
    });
  });
}

let server: http.Server;
let baseUrl: string;
beforeAll(async () => {
  server = standIn();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

describe('a public Swagger 2.0 description (real process)', () => {
  it('lints with no error', async () => {
    const result = await runCli(['lint', spec]);
    expect(result.stderr).toMatch(/1 spec linted: 0 errors/);
    expect(result.code).toBe(0);
  });

  it('validates an answer, naming what its definition refuses', async () => {
    const body = path.join(os.tmpdir(), `swagger2-public-${process.pid}.json`);
    await writeFile(body, '{"message":"gone"}');
    const result = await runCli([
      'validate', '--spec', spec, '--operation', 'deletePet', '--status', '404',
      '--header', 'content-type: application/json', '--body', body,
    ]); // biome-ignore format: one argument list
    expect(result.stdout.trim()).toBe('✗ response_schema_conformance: body must have required property "code"');
    expect(result.code).toBe(1);
  });

  it('fuzzes a stand-in that keeps the description, finding nothing', async () => {
    // In a folder without a config, the file is the API of the run.
    const dir = await mkdtemp(path.join(os.tmpdir(), 'swagger2-public-'));
    const args = [
      'fuzz',
      '--spec',
      path.join(root, spec),
      '--base-url',
      baseUrl,
      '--max-examples',
      '15',
      '--seed',
      '1',
    ];
    const result = await runCli(args, { cwd: dir });
    await rm(dir, { recursive: true, force: true });
    expect(result.stdout + result.stderr).toMatch(/\d+ passed, 0 failed/);
    expect(result.code, result.stdout).toBe(0);
  }, 240_000);

  it('diffs against itself with no change', async () => {
    const result = await runCli(['diff', spec, spec]);
    expect(result.stdout).toBe('');
    expect(result.code).toBe(0);
  });
});
