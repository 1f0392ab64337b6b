// A finding of fuzz stands only when the core's request judge agrees (src/fuzz/second-opinion.ts). Stripe's
// `created` is a deepObject parameter whose schema also allows an integer: fuzz's own reading once called
// `created=2147483647` invalid, and a server accepting it was reported (a false positive). A truly invalid value
// (`limit=0` under `minimum: 1`) accepted by the same server is still a finding.
import http from 'node:http';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onLoopback } from '../helpers/loopback.js';
import { runCli } from '../helpers/run-cli.js';

const spec = `openapi: 3.0.3
info: { title: Charges, version: '1' }
paths:
  /charges:
    get:
      operationId: listCharges
      parameters:
        - name: created
          in: query
          style: deepObject
          explode: true
          schema:
            anyOf:
              - type: object
                properties: { gt: { type: integer }, lt: { type: integer } }
                additionalProperties: false
              - type: integer
        - name: limit
          in: query
          schema: { type: integer, minimum: 1, maximum: 100 }
      responses:
        '200':
          description: the charges
          content:
            application/json:
              schema: { type: object }
        '400':
          description: a bad query
`;

interface Report {
  failures: { check: string; curl?: string }[];
}

let dir: string;
let target: { url: string; close(): Promise<void> };

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'contracts-second-opinion-'));
  await writeFile(path.join(dir, 'charges.yaml'), spec);
  // Accepts every request: right for every `created` the spec allows, wrong for a `limit` out of its range.
  target = await onLoopback(
    http.createServer((request, response) => {
      request.resume();
      request.on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
    }),
  );
});

afterAll(async () => {
  await target?.close();
});

describe('fuzz reports a server wrong only when the core request judge agrees', () => {
  it('keeps the accepted out-of-range limit and drops the integer created its own reading refused', async () => {
    const run = await runCli(
      ['fuzz', '--spec', 'charges.yaml', '--base-url', target.url, '--seed', '1', '--report', 'json:r.json'],
      { cwd: dir },
    );
    const report = JSON.parse(await readFile(path.join(dir, 'r.json'), 'utf8')) as Report;
    const rejections = report.failures.filter((failure) => failure.check === 'negative_data_rejection');
    expect(rejections.length).toBeGreaterThan(0);
    for (const failure of rejections) {
      expect(failure.curl).toMatch(/limit=/);
      expect(failure.curl).not.toMatch(/created=-?\d/);
    }
    expect(run.code).toBe(1);
  });
});
