// A target that dies on a request (Unleash exited on a NUL inside an array item): that request is the finding, with
// its curl line, exit 1, and the run stops there; before, every later operation was reported as an outage, exit 2.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runMain } from '../helpers/run-main.js';

const spec = `openapi: 3.1.0
info: { title: t, version: "1" }
paths:
  /health:
    get: { operationId: health, responses: { "200": { description: ok } } }
  /export:
    post: { operationId: exportAll, responses: { "200": { description: ok } } }
  /other:
    get: { operationId: other, responses: { "200": { description: ok } } }
`;

// A server process of its own that exits on the first POST /export, before answering it.
const server = `
const http = require('node:http');
const s = http.createServer((req, res) => {
  if (req.method === 'POST' && req.url.startsWith('/export')) process.exit(1);
  res.writeHead(200).end();
});
s.listen(0, '127.0.0.1', () => console.log('port ' + s.address().port));
`;

let child: ChildProcess | undefined;
afterEach(() => {
  child?.kill();
});

describe('contracts fuzz when the target dies on a request', () => {
  it('reports that request as a failure with its curl line, exit 1, and stops with one last line', async () => {
    child = spawn(process.execPath, ['-e', server], { stdio: ['ignore', 'pipe', 'inherit'] });
    const port = await new Promise<string>((resolve) =>
      child!.stdout!.on('data', (chunk: Buffer) => {
        const match = /port (\d+)/.exec(chunk.toString());
        if (match) resolve(match[1]!);
      }),
    );
    const dir = await mkdtemp(path.join(os.tmpdir(), 'contracts-dies-'));
    await writeFile(path.join(dir, 'api.yaml'), spec);
    await writeFile(path.join(dir, 'contracts.config.yaml'), 'apis:\n  - name: t\n    spec: api.yaml\n');
    const { code, output } = await runMain(
      ['fuzz', '--base-url', `http://127.0.0.1:${port}`, '--max-examples', '3', '--seed', '1'],
      dir,
    );
    const id = /^ {2}\[([0-9a-f]+)\] not_a_server_error · exportAll · 0 · [^·]+ · 1 occurrence$/m.exec(output)?.[1];
    expect(id, output).toBeDefined();
    expect(output).toMatch(/^ {6}reproduce: curl -sS -i -X POST 'http:\/\/127\.0\.0\.1:\d+\/export'$/m);
    expect(output).not.toMatch(/cannot reach/);
    expect(output).toMatch(
      /^ {6}exportAll got no answer \(the smallest valid request\): the connection broke \(ECONNRESET\) and the target answered nothing after it: it stopped on this request$/m,
    );
    expect(output.trim().split('\n').at(-1)).toBe(
      `contracts fuzz: the target stopped answering after the request of failure [${id}] (its curl line is above): the run stopped there`,
    );
    expect(code, output).toBe(1);
  }, 60_000);
});
