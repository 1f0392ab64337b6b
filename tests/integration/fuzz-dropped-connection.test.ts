// A target that answers, then drops the connection on one request (Discord's reset a very long URL): that is its
// answer to that request, one finding for the operation, and the run goes on. Before, the whole run ended
// "cannot reach", exit 2, as if the target were down.
import { mkdtemp, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMain } from '../helpers/run-main.js';

const spec = `openapi: 3.1.0
info: { title: t, version: "1" }
paths:
  /search:
    get:
      operationId: search
      parameters: [{ name: q, in: query, allowEmptyValue: true, schema: { type: string, maxLength: 5000 } }]
      responses: { "200": { description: ok } }
  /health:
    get:
      operationId: health
      responses: { "200": { description: ok } }
`;

describe('contracts fuzz when the target drops one request', () => {
  it('reports it for that operation and fuzzes the rest', async () => {
    const project = await mkdtemp(path.join(os.tmpdir(), 'contracts-dropped-'));
    await writeFile(path.join(project, 'api.yaml'), spec);
    await writeFile(path.join(project, 'contracts.config.yaml'), 'apis:\n  - name: search\n    spec: api.yaml\n');
    let healthChecked = 0;
    const server = http.createServer((req, res) => {
      // As a server that resets what it cannot handle: here an empty search.
      if (/[?&]q=(&|$)/.test(req.url ?? '')) return void req.socket.destroy();
      if (req.url === '/health') healthChecked++;
      res.writeHead(200).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const { code, output } = await runMain(
        ['fuzz', '--api', 'search', '--base-url', baseUrl, '--max-examples', '10', '--seed', '2'],
        project,
      );
      expect(output).toMatch(/✗ search/);
      expect(output).not.toMatch(/cannot reach .* \(GET \/health\)/);
      expect(healthChecked).toBeGreaterThan(0);
      expect(code, output).toBe(1);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  }, 60_000);
});
