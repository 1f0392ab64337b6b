// A target or a file that holds newlines cannot write lines of its own into our output (issue 42, item 7): GitHub
// Actions obeys any output line that starts with `::` (`::error::`, `::add-mask::`), so a JSON key, a HAR's method or
// header, or a spec's operationId holding `\n::error::…` would forge CI commands. Each is printed escaped, on our line.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

const env = {
  CLIENT_SESSION_API_KEY: 'forged-key-5f2a91',
  CLIENT_SESSION_CLIENT_TOKEN: 'forged-token-0c7e44',
  WEBHOOKS_TOKEN: 'forged-bearer-aa19d3',
};
/** Keys a target answers: a newline, a carriage return, a CRLF, each before a workflow command. */
const answer = '{"a\\n::error::forged":1,"\\r::add-mask::cr":2,"b\\r\\n::warning::crlf":[1]}';
const array = `[${answer}]`;

let dir: string;
let server: http.Server;
let url: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'contracts-forged-'));
  server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(request.url?.endsWith('/hooks') ? array : answer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  await writeFile(path.join(dir, 'body.json'), array);
  const entry = (method: string, target: string, contentType: string) => ({
    request: { method, url: `http://h${target}`, headers: [{ name: 'x-note', value: 'n\n::error::request-header' }] },
    response: { status: 200, headers: [{ name: 'content-type', value: contentType }], content: { text: array } },
  });
  await writeFile(
    path.join(dir, 'capture.har'),
    JSON.stringify({
      log: {
        entries: [
          entry('G\n::error::method', '/repos/o/r/hooks', 'application/json'),
          entry('GET', '/repos/o/r/hooks', 'text/x\r\n::error::content-type'),
          entry('GET', '/repos/o/r/hooks', 'application/json'),
        ],
      },
    }),
  );
  // A project whose spec's operationId holds a command, fuzzed against the same target.
  await writeFile(
    path.join(dir, 'spec.yaml'),
    `openapi: 3.1.0
info: { title: forged, version: "1" }
paths:
  /things:
    get:
      operationId: "list\\n::error::operationId"
      responses: { "200": { description: ok, content: { application/json: { schema: { type: array } } } } }
`,
  );
  await writeFile(path.join(dir, 'contracts.config.yaml'), 'apis:\n  - name: forged\n    spec: spec.yaml\n');
  // Two revisions of a spec from a pull request: a path and a property whose names hold a command go.
  const revision = (extra: string) => `openapi: 3.1.0
info: { title: forged, version: "1" }
paths:
${extra}  /b:
    get:
      responses:
        "200":
          description: ok
          content: { application/json: { schema: { type: object, properties: { ${extra ? '"k\\n::error::property": { type: string }' : ''} } } } }
`;
  await writeFile(
    path.join(dir, 'base.yaml'),
    revision('  "/a\\r\\n::error::path":\n    get: { responses: { "200": { description: ok } } }\n'),
  );
  await writeFile(path.join(dir, 'revision.yaml'), revision(''));
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

/** Every output line that a CI runner would read as a workflow command. */
const commandLines = (output: string) => output.split(/\r\n|\r|\n/).filter((line) => /^\s*::/.test(line));

describe('newlines a target or a file supplies', () => {
  it.each([
    [
      'validate --body',
      ['validate', '--strict', '--api', 'repository-webhooks', '--operation', 'listWebhooks', '--status', '200'],
      ['--header', 'content-type: application/json', '--body', 'body.json'],
      ['"a\\u000a::error::forged"', '"\\u000d::add-mask::cr"', '"b\\u000d\\u000a::warning::crlf"'],
    ],
    [
      'validate --har',
      ['validate', '--strict', '--api', 'repository-webhooks', '--har', 'capture.har'],
      [],
      ['#1 G\\u000a::error::method', 'text/x\\u000d\\u000a::error::content-type', '"a\\u000a::error::forged"'],
    ],
    ['check', ['check', '--strict', '--base-url', '$URL'], [], ['"a\\u000a::error::forged"']],
    [
      'fuzz',
      ['fuzz', '--strict', '--base-url', '$URL', '--max-examples', '2', '--seed', '1'],
      [],
      // One failure per cause (operation, check, status, value kind): the finding it shows first.
      ['"a\\u000a::error::forged"'],
    ],
  ])(
    'are printed escaped by %s, on a line of ours',
    async (_name, args, more, shown) => {
      const config = ['--config', path.join(process.cwd(), 'contracts.config.yaml')];
      const result = await runCli([...args.map((arg) => (arg === '$URL' ? url : arg)), ...more, ...config], {
        cwd: dir,
        env,
      });
      const output = result.stdout + result.stderr;
      expect(result.code, output).toBe(1);
      expect(commandLines(output)).toEqual([]);
      for (const text of shown) expect(output).toContain(text);
    },
    180_000,
  );

  it.each([['text'], ['markdown']])(
    'are printed escaped by diff --format %s',
    async (format) => {
      const result = await runCli(['diff', 'base.yaml', 'revision.yaml', '--format', format], { cwd: dir });
      const output = result.stdout + result.stderr;
      expect(result.code, output).toBe(1);
      expect(commandLines(output)).toEqual([]);
      expect(output).toMatch(/path-removed/);
    },
    60_000,
  );

  it("are printed escaped from a spec's operationId", async () => {
    const result = await runCli(['fuzz', '--api', 'forged', '--base-url', url, '--max-examples', '2', '--seed', '1'], {
      cwd: dir,
    });
    const output = result.stdout + result.stderr;
    expect(commandLines(output)).toEqual([]);
    expect(output).toContain('list\\u000a::error::operationId');
  }, 120_000);
});
