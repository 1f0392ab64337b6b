// An id a target answers goes into a path only as one percent-encoded segment. `contracts fuzz` reads the id of what
// a create made (its ignored_auth probes act on it, then delete it with the credential); an id `..` once made that
// `DELETE /svc/items/..`, which every URL parser sends as `DELETE /svc/`: the API's root, with the key. Here a real
// server answers each create with a hostile id and records every request it gets: none leaves the collection, the
// key never goes elsewhere, and the run says which id it did not send.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onLoopback } from '../helpers/loopback.js';
import { runCli } from '../helpers/run-cli.js';

const key = 'svc-key-3f9a61';
const spec = `openapi: 3.1.0
info: { title: items, version: "1" }
components:
  securitySchemes:
    key: { type: apiKey, in: header, name: X-Key }
security: [{ key: [] }]
paths:
  /items:
    get:
      operationId: listItems
      responses:
        "200":
          description: the items
          content:
            application/json:
              schema: { type: array, items: { type: object, properties: { id: { type: string } } } }
        "401": { description: no key }
    post:
      operationId: createItem
      requestBody:
        required: true
        content:
          application/json:
            schema: { type: object, required: [name], properties: { name: { type: string, maxLength: 8 } } }
      responses:
        "201":
          description: made
          content:
            application/json:
              schema: { type: object, required: [id], properties: { id: { type: string } } }
        "400": { description: a bad item }
        "401": { description: no key }
  /items/{itemId}:
    parameters:
      - { name: itemId, in: path, required: true, schema: { type: string } }
    get:
      operationId: getItem
      responses:
        "200":
          description: the item
          content:
            application/json:
              schema: { type: object, properties: { id: { type: string } } }
        "401": { description: no key }
        "404": { description: no such item }
    delete:
      operationId: deleteItem
      responses:
        "204": { description: deleted }
        "401": { description: no key }
        "404": { description: no such item }
`;

interface Seen {
  method: string;
  /** The request target as it arrived. */
  target: string;
  keyed: boolean;
}

let project: string;
let base: string;
let close: () => Promise<void>;
let answeredId = '';
const seen: Seen[] = [];

beforeAll(async () => {
  project = await mkdtemp(path.join(tmpdir(), 'contracts-hostile-ids-'));
  await writeFile(path.join(project, 'openapi.yaml'), spec);
  await writeFile(
    path.join(project, 'contracts.config.yaml'),
    'apis:\n  - name: svc\n    spec: openapi.yaml\n    credentials:\n      - { env: CONTRACTS_SVC_KEY, securityScheme: key }\n',
  );
  const server = http.createServer((request, response) => {
    request.resume();
    const target = request.url ?? '';
    const keyed = request.headers['x-key'] === key;
    seen.push({ method: request.method ?? '', target, keyed });
    const json = (status: number, body?: unknown) =>
      request.on('end', () =>
        response
          .writeHead(status, body === undefined ? {} : { 'content-type': 'application/json' })
          .end(body === undefined ? undefined : JSON.stringify(body)),
      );
    const pathname = target.split('?')[0]!;
    if (!keyed) return json(401);
    if (pathname === '/svc/items' && request.method === 'POST') return json(201, { id: answeredId });
    if (pathname === '/svc/items') return json(200, []);
    if (pathname.startsWith('/svc/items/') && request.method === 'DELETE') return json(204);
    return json(404);
  });
  const loopback = await onLoopback(server);
  base = `${loopback.url}/svc`;
  close = loopback.close;
});
afterAll(async () => {
  await close?.();
  await rm(project, { recursive: true, force: true });
});

/** The path a server resolves the target to (dot segments removed, as every URL parser does). */
const resolved = (target: string) => new URL(target, 'http://server.invalid').pathname;

describe('contracts fuzz, with a target whose creates answer hostile ids', () => {
  it.each([
    ['..', true],
    ['.', true],
    ['%2e%2e', true],
    ['%2E%2e', true],
    ['a/../b', true],
    ['?x', false],
    ['#', false],
  ])(
    'sends no request outside the collection for the id %j, and never the key',
    async (id, refused) => {
      answeredId = id;
      seen.length = 0;
      const result = await runCli(
        ['fuzz', '--api', 'svc', '--base-url', base, '--seed', '1', '--max-examples', '3', '--phases', 'negative'],
        { cwd: project, env: { CONTRACTS_SVC_KEY: key } },
      );
      const output = result.stdout + result.stderr;
      expect(output).not.toContain('internal error');
      expect(
        seen.some((request) => request.method === 'POST'),
        output,
      ).toBe(true);
      for (const request of seen) {
        expect(resolved(request.target), `${request.method} ${request.target}`).toMatch(/^\/svc\/items(\/[^/]+)?$/);
        expect(request.target, `${request.method} ${request.target}`).toMatch(/^\/svc\/items(\/[^/?#]+)?(\?|$)/);
      }
      const items = seen.filter((request) => /^\/svc\/items\/[^/?]/.test(request.target));
      if (refused) {
        const named = items.filter(
          (request) => request.target.split('?')[0] === `/svc/items/${encodeURIComponent(id)}`,
        );
        expect(named, 'no request names the item by the refused id').toEqual([]);
        expect(output).toContain(`the itemId from the createItem answer is ${JSON.stringify(id)}: not sent as a path`);
      } else {
        // A safe id is sent encoded, as the one segment it is: probed without the key, deleted with it.
        const segment = `/svc/items/${encodeURIComponent(id)}`;
        expect(items.filter((request) => request.target === segment && !request.keyed).length).toBeGreaterThan(0);
        expect(
          items.some((request) => request.target === segment && request.method === 'DELETE' && request.keyed),
        ).toBe(true);
      }
      expect(output).not.toContain(key);
    },
    60_000,
  );
});
