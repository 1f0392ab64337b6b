// Ctrl-C's line says what the run cleans up: on a spec without webhooks it spoke of deleting webhooks.
import { spawn } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { root } from '../helpers/paths.js';

const spec = `openapi: 3.1.0
info: { title: t, version: "1" }
paths:
  /a:
    get: { operationId: a, responses: { "200": { description: ok } } }
`;

describe('contracts fuzz on SIGINT, on an API without webhooks', () => {
  it('says it stops after the request in flight, and nothing of webhooks', async () => {
    let first: () => void = () => {};
    const arrived = new Promise<void>((resolve) => (first = resolve));
    // Answers slowly, so the run is mid-request when it is interrupted.
    const server = http.createServer((_req, res) => {
      first();
      setTimeout(() => res.writeHead(200).end(), 200);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const dir = await mkdtemp(path.join(os.tmpdir(), 'contracts-sigint-'));
    await writeFile(path.join(dir, 'api.yaml'), spec);
    await writeFile(path.join(dir, 'contracts.config.yaml'), 'apis:\n  - name: t\n    spec: api.yaml\n');
    try {
      const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const child = spawn(process.execPath, [path.join(root, 'bin/contracts.js'), 'fuzz', '--base-url', baseUrl], {
        cwd: dir,
        env: { ...process.env, SCARF_ANALYTICS: 'false' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      await arrived;
      child.kill('SIGINT');
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect(stderr.split('\n').filter((line) => line.includes('SIGINT'))).toEqual([
        'contracts fuzz: SIGINT: stopping after the request in flight (press Ctrl-C again to abort)…',
      ]);
      expect(code).toBe(2);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  }, 60_000);
});
