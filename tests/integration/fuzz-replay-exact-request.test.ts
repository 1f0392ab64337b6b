// `contracts fuzz --replay` re-sends the saved request exactly: the body's bytes under the Content-Type they went with
// (a multipart body's boundary is in it: RFC 2046 section 5.1.1), every header but the credentials. Against
// Directus, a multipart failure went out again as `multipart/form-data` with no boundary: the target answered
// otherwise, and the replay said "no longer fails". Each server here fails only on the exact saved request.
// And a read of an item gone since the run (a 404 now, a 200 then) is sent once more on an item the replay makes,
// and says it was not re-sent unchanged; a read refused then and answered now says the item exists now (Directus: a
// collection the run's own PATCH made after the read), never "no longer fails".
import { mkdtemp, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMain } from '../helpers/run-main.js';

const spec = `openapi: 3.1.0
info: { title: exact, version: "1" }
components:
  schemas:
    Thing: { type: object, required: [id], properties: { id: { type: integer } } }
paths:
  /import:
    post:
      operationId: importFile
      requestBody:
        required: true
        content: { multipart/form-data: { schema: { type: object, required: [file], properties: { file: { type: string } } } } }
      responses: { "200": { description: imported }, "400": { description: refused } }
  /numbers:
    post:
      operationId: addNumber
      requestBody:
        required: true
        content: { application/json: { schema: { type: object, properties: { n: { type: number } } } } }
      responses: { "200": { description: added }, "400": { description: refused } }
  /traced:
    get:
      operationId: traced
      responses: { "200": { description: ok } }
  /things:
    post:
      operationId: createThing
      requestBody:
        required: true
        content: { application/json: { schema: { type: object } } }
      responses:
        "201": { description: made, content: { application/json: { schema: { $ref: "#/components/schemas/Thing" } } } }
  /things/{id}:
    parameters:
      - { name: id, in: path, required: true, schema: { type: integer } }
    get:
      operationId: getThing
      responses:
        "200": { description: it, content: { application/json: { schema: { $ref: "#/components/schemas/Thing" } } } }
        "404": { description: none }
    delete:
      operationId: deleteThing
      responses: { "204": { description: gone }, "404": { description: none } }
`;

const multipart = '--b-1\r\nContent-Disposition: form-data; name="file"\r\n\r\na\r\n--b-1--\r\n';

/** Each saved failure, and the request its server fails on (every other answer is a documented success). */
const cases = [
  {
    id: 'multi001',
    operation: 'importFile',
    request: {
      method: 'POST',
      path: '/import',
      headers: [['content-type', 'multipart/form-data; boundary=b-1']],
      body: multipart,
    },
  },
  {
    id: 'bytes001',
    operation: 'addNumber',
    request: { method: 'POST', path: '/numbers', headers: [['content-type', 'application/json']], body: '{"n":1.0}' },
  },
  {
    id: 'trace001',
    operation: 'traced',
    request: { method: 'GET', path: '/traced', headers: [['x-trace', 'a b']] },
  },
];

let project: string;
let server: http.Server;
let baseUrl: string;
const things = new Set<number>([42]);
let made = 0;

/** Whether a request is one of the saved ones, byte for byte (content type, body, headers). */
function savedOne(req: http.IncomingMessage, body: string): boolean {
  return cases.some(({ request }) => {
    if (req.method !== request.method || req.url !== request.path || body !== (request.body ?? '')) return false;
    return request.headers.every(([name, value]) => req.headers[name!] === value);
  });
}

beforeAll(async () => {
  project = await mkdtemp(path.join(os.tmpdir(), 'contracts-replay-exact-'));
  await writeFile(path.join(project, 'exact.yaml'), spec);
  await writeFile(path.join(project, 'contracts.config.yaml'), 'apis:\n  - name: exact\n    spec: exact.yaml\n');
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('latin1')));
    req.on('end', () => {
      const json = (status: number, value: unknown) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
      const thing = /^\/things\/(\d+)$/.exec(req.url ?? '');
      if (req.url === '/things' && req.method === 'POST') return things.add(++made), json(201, { id: made });
      if (thing && req.method === 'DELETE') return things.delete(Number(thing[1])), res.writeHead(204).end();
      // The planted bug of reads: an item that exists comes back as its id alone, not the object documented.
      if (thing) return things.has(Number(thing[1])) ? json(200, Number(thing[1])) : json(404, {});
      if (savedOne(req, body)) return json(500, { error: 'the planted bug' });
      return res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const failure = (id: string, operation: string, check: string, status: number, request: object) => ({
    id,
    api: 'exact',
    operation,
    check,
    status,
    message: `status ${status}`,
    phase: 'examples',
    note: 'saved',
    curl: 'curl …',
    seed: 1,
    request,
  });
  const failures = [
    ...cases.map(({ id, operation, request: { path: at, ...request } }) =>
      failure(id, operation, 'not_a_server_error', 500, { ...request, url: `${baseUrl}${at}` }),
    ),
    // Thing 7 existed in the run and is gone now.
    failure('gone0001', 'getThing', 'response_schema_conformance', 200, {
      method: 'GET',
      url: `${baseUrl}/things/7`,
      headers: [],
    }),
    // Thing 42 did not exist in the run (a 403, as Directus hides what is not there), and someone made it since.
    failure('made0001', 'getThing', 'status_code_conformance', 403, {
      method: 'GET',
      url: `${baseUrl}/things/42`,
      headers: [],
    }),
    // A query value the report redacted by its name alone (`key`: redact-fields.ts): the replay has no value to send.
    failure('redact01', 'traced', 'not_a_server_error', 500, {
      method: 'GET',
      url: `${baseUrl}/traced?key=[REDACTED]`,
      headers: [],
    }),
    // Directus "Under pressure" (its load shedding) on a loaded machine: the run's 503 was the target's load.
    failure('busy0001', 'traced', 'not_a_server_error', 503, { method: 'GET', url: `${baseUrl}/traced`, headers: [] }),
  ];
  await writeFile(path.join(project, 'run.json'), JSON.stringify({ seed: 1, results: [], failures }));
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

describe('contracts fuzz --replay re-sends the saved request exactly', () => {
  it('says still fails for each failure a server reproduces only on the exact saved request', async () => {
    const result = await runMain(['fuzz', '--api', 'exact', '--replay', 'run.json', '--base-url', baseUrl], project);
    const verdicts = result.output.split('\n').filter((line) => line.startsWith('['));
    expect({ code: result.code, verdicts }).toEqual({
      code: 1,
      verdicts: [
        '[multi001] not_a_server_error · importFile: still fails (answered 500)',
        '[bytes001] not_a_server_error · addNumber: still fails (answered 500)',
        '[trace001] not_a_server_error · traced: still fails (answered 500)',
        '[gone0001] response_schema_conformance · getThing: still fails (answered 200, not re-sent unchanged: on id 1, made by this replay in place of id "7")',
        '[made0001] status_code_conformance · getThing: could not reproduce: answered 200 where the run got 403 (what it names exists now: made since the run), so this says nothing of the bug',
        '[redact01] not_a_server_error · traced: not replayed: not re-sent unchanged: the query (the report redacted key) went out otherwise than saved, so its answer 200 says nothing of the saved one',
        "[busy0001] not_a_server_error · traced: could not reproduce: answered 200 where the run got 503 (the run's answer was the target's load or rate limit, not the request's), so this says nothing of the bug",
      ],
    });
    // The item the replay made for it is deleted again; the one it did not make is left alone.
    expect([...things]).toEqual([42]);
  });
});
