// `contracts fuzz --scripts` on a spec from a pull request whose operationId, path and parameter values are shell
// (issue 42, item 1): the reproduction scripts it writes, and the curl lines it prints, run by bash against the
// target, run nothing of the spec's. Each payload tries to `touch` a marker file; none may exist afterwards.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

let dir: string;
let markers: string;
let server: http.Server;
let url: string;

/** Shell that runs `touch MARKERS/<name>-<n>` if anything reads it as code (JSON-quoted for YAML). */
function payload(name: string, lineBreaks = true): string {
  const touch = (n: number) => `touch ${markers}/${name}-${n}`;
  const parts = [
    `$(${touch(1)})`,
    `\`${touch(2)}\``,
    `'; ${touch(3)}; '`,
    `"; ${touch(4)}; "`,
    `\\'; ${touch(5)} #`,
    `; ${touch(6)}`,
    ...(lineBreaks ? [`\n${touch(7)}\n`, `\r\n${touch(8)}`] : []),
  ];
  return JSON.stringify(parts.join(' '));
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'contracts-hostile-scripts-'));
  markers = path.join(dir, 'markers');
  await mkdir(markers);
  const spec = `openapi: 3.1.0
info: { title: hostile, version: "1" }
paths:
  /things/{id}/$(touch ${markers}/path-1)/x;touch ${markers}/path-2:
    post:
      operationId: ${payload('operationId')}
      parameters:
        - { name: id, in: path, required: true, schema: { type: string, enum: [${payload('id', false)}] } }
        - { name: q, in: query, required: true, schema: { type: string, enum: [${payload('query')}] } }
        - { name: X-Note, in: header, required: true, schema: { type: string, enum: [${payload('header', false)}] } }
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [note]
              properties: { note: { type: string, enum: [${payload('body')}] } }
      responses: { "200": { description: ok } }
`;
  await writeFile(path.join(dir, 'spec.yaml'), spec);
  await writeFile(path.join(dir, 'contracts.config.yaml'), 'apis:\n  - name: hostile\n    spec: spec.yaml\n');
  // Every request is answered 500: each case is a failure with a script.
  server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(500, { 'content-type': 'application/json' }).end('{}'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

function bash(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      'bash',
      args,
      { cwd: dir, env: { PATH: process.env.PATH, BASE_URL: url, CONTRACTS: 'false' }, timeout: 30_000 },
      (_error, _stdout, stderr) => resolve({ code: child.exitCode, stderr: String(stderr) }),
    );
  });
}

describe('fuzz --scripts on a spec whose text is shell', () => {
  it('writes scripts and prints curl lines that bash runs without running any of it', async () => {
    const result = await runCli(
      ['fuzz', '--api', 'hostile', '--base-url', url, '--max-examples', '3', '--seed', '1', '--scripts', 'out'],
      { cwd: dir },
    );
    expect(result.code, result.stderr).toBe(1);
    const scripts = (await readdir(path.join(dir, 'out'))).filter((file) => file.endsWith('.sh'));
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) {
      const run = await bash([path.join(dir, 'out', script)]);
      // Exit 1: the failure reproduced, every request sent as the run sent it.
      expect(run.code, `${script}: ${run.stderr}`).toBe(1);
    }
    const curls = result.stdout
      .split('\n')
      .flatMap((line) => /^\s+(?:reproduce|the last): (curl .*)$/.exec(line)?.[1] ?? []);
    expect(curls.length).toBeGreaterThan(0);
    for (const curl of curls) expect((await bash(['-c', `${curl} -o /dev/null`])).code).toBe(0);
    expect(await readdir(markers)).toEqual([]);
  }, 120_000);
});
