// `contracts fuzz` on a spec nobody here wrote, as a real process: an array-typed query parameter whose generator
// was filtered for scalars looped for ever, with the event loop blocked, so neither --max-time nor Ctrl-C stopped
// it (Twilio, DigitalOcean, GitHub). Generation always ends, and SIGINT stops a run within seconds.
import { spawn } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { root } from '../helpers/paths.js';

const spec = `openapi: 3.1.0
info: { title: pets, version: "1" }
paths:
  /pets/{petId}:
    get:
      operationId: getPet
      parameters:
        - { name: petId, in: path, required: true, schema: { type: string } }
        - { name: tags, in: query, required: true, schema: { type: array, items: { type: string, enum: [a, b] } } }
        - { name: ids, in: query, schema: { type: array, items: { type: integer } } }
      responses: { "200": { description: ok } }
`;

let project: string;
let server: http.Server;
let baseUrl: string;
let requests = 0;

beforeAll(async () => {
  project = await mkdtemp(path.join(os.tmpdir(), 'contracts-any-spec-'));
  await writeFile(path.join(project, 'pets.yaml'), spec);
  await writeFile(path.join(project, 'contracts.config.yaml'), 'apis:\n  - name: pets\n    spec: pets.yaml\n');
  server = http.createServer((_req, res) => {
    requests++;
    res.writeHead(200).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise((resolve) => server.close(resolve)));

/** Runs fuzz; kills it after `killAfterMs` if it has not ended (a hang is then a failed test, not a stuck suite). */
function fuzz(args: string[], killAfterMs: number, onFirstRequest?: (child: ReturnType<typeof spawn>) => void) {
  const child = spawn(process.execPath, [path.join(root, 'bin/contracts.js'), 'fuzz', '--api', 'pets', ...args], {
    cwd: project,
    env: { ...process.env, SCARF_ANALYTICS: 'false' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const killer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
  const start = requests;
  const watcher = setInterval(() => {
    if (requests > start && onFirstRequest) {
      onFirstRequest(child);
      onFirstRequest = undefined;
    }
  }, 20);
  return new Promise<{ code: number | null; signal: NodeJS.Signals | null; output: string }>((resolve) =>
    child.on('close', (code, signal) => {
      clearTimeout(killer);
      clearInterval(watcher);
      resolve({ code, signal, output });
    }),
  );
}

describe('contracts fuzz on an array-typed query parameter', () => {
  it('ends by itself, every phase run', async () => {
    const result = await fuzz(['--base-url', baseUrl, '--max-examples', '30', '--seed', '1'], 90_000);
    expect(result.signal, result.output).toBeNull();
    expect(result.output).not.toMatch(/internal error/);
    expect([0, 1]).toContain(result.code);
  }, 100_000);

  it('stops within seconds of SIGINT, saying so, exit 2', async () => {
    let interruptedAt = 0;
    const result = await fuzz(['--base-url', baseUrl, '--max-examples', '2000', '--rate', '50'], 60_000, (child) =>
      setTimeout(() => {
        interruptedAt = Date.now();
        child.kill('SIGINT');
      }, 2000),
    );
    expect(result.signal, result.output).toBeNull();
    expect(Date.now() - interruptedAt).toBeLessThan(10_000);
    expect(result.output).toMatch(/SIGINT/);
    expect(result.code).toBe(2);
  }, 70_000);
});
