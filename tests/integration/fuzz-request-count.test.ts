// Every request fuzz sends is in the report's count and in --har-out: the count and the HAR missed about 6 % of what
// reached Unleash (cases sent ahead of a failure under --workers and then discarded, clean-up requests).
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMain } from '../helpers/run-main.js';

const spec = `openapi: 3.1.0
info: { title: t, version: "1" }
paths:
  /items:
    get:
      operationId: listItems
      parameters:
        - { name: n, in: query, schema: { type: integer } }
        - { name: q, in: query, schema: { type: string, maxLength: 20 } }
      responses: { "200": { description: ok }, "400": { description: bad } }
  /other:
    get: { operationId: other, responses: { "200": { description: ok } } }
`;

describe('contracts fuzz request count', () => {
  it.each([1, 4])(
    'counts, and writes to the HAR, every request the server received (--workers %i)',
    async (workers) => {
      let received = 0;
      const server = http.createServer((req, res) => {
        received++;
        const url = new URL(req.url ?? '/', 'http://x');
        const n = url.searchParams.get('n');
        // A server error on odd numbers: failures in the random phase, with cases in flight beside them.
        if (n !== null && !/^-?\d+$/.test(n)) return void res.writeHead(400).end();
        res.writeHead(n !== null && Math.abs(Number(n)) % 2 === 1 ? 500 : 200).end();
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      try {
        const dir = await mkdtemp(path.join(os.tmpdir(), 'contracts-count-'));
        await writeFile(path.join(dir, 'api.yaml'), spec);
        await writeFile(path.join(dir, 'contracts.config.yaml'), 'apis:\n  - name: t\n    spec: api.yaml\n');
        const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
        const { output } = await runMain(
          [
            'fuzz',
            '--base-url',
            baseUrl,
            '--seed',
            '7',
            '--workers',
            String(workers),
            '--max-examples',
            '40',
            '--rate',
            '0',
            '--har-out',
            'run.har',
            '--report',
            'json:r.json',
          ],
          dir,
        );
        const report = JSON.parse(await readFile(path.join(dir, 'r.json'), 'utf8')) as { requests: number };
        const har = JSON.parse(await readFile(path.join(dir, 'run.har'), 'utf8')) as { log: { entries: unknown[] } };
        expect(received, output).toBeGreaterThan(0);
        expect({ report: report.requests, har: har.log.entries.length }).toEqual({ report: received, har: received });
      } finally {
        await new Promise((resolve) => server.close(resolve));
      }
    },
    120_000,
  );
});
