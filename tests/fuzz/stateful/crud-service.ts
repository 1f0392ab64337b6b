// A small CRUD service for the walk's tests (node:http on port 0): prefixed string ids, cursor pages with a limit,
// an API key, PATCH, DELETE, and an action that documents 409. Each switch plants one bug only a lifecycle rule
// finds; with none it is correct, so a run against it must be green.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type CrudBug =
  | 'unreadable'
  | 'still-there'
  | 'not-stored'
  | 'unlisted'
  | 'page-repeat'
  | 'archive-twice'
  | 'delete-ignores-key';

export const crudKey = 'walk-test-key';

export const crudSpec = `openapi: 3.1.0
info: { title: shop, version: "1" }
security: [{ key: [] }]
paths:
  /items:
    get:
      operationId: listItems
      parameters:
        - { name: cursor, in: query, schema: { type: string, maxLength: 40 } }
        - { name: limit, in: query, schema: { type: integer, minimum: 1, maximum: 100 } }
      responses:
        "200":
          description: a page
          content:
            application/json:
              schema:
                type: object
                required: [data, next_cursor]
                properties:
                  data: { type: array, items: { $ref: "#/components/schemas/Item" } }
                  next_cursor: { type: [string, "null"] }
        "400": { description: a bad query }
        "401": { description: no key }
    post:
      operationId: createItem
      requestBody:
        required: true
        content: { application/json: { schema: { $ref: "#/components/schemas/ItemInput" } } }
      responses:
        "201":
          description: made
          content: { application/json: { schema: { $ref: "#/components/schemas/Item" } } }
        "400": { description: a bad body }
        "401": { description: no key }
  /items/{itemId}:
    parameters:
      - { name: itemId, in: path, required: true, schema: { type: string, maxLength: 40 } }
    get:
      operationId: getItem
      responses:
        "200":
          description: the item
          content: { application/json: { schema: { $ref: "#/components/schemas/Item" } } }
        "400": { description: a bad id }
        "401": { description: no key }
        "404": { description: no such item }
    patch:
      operationId: updateItem
      requestBody:
        required: true
        content: { application/merge-patch+json: { schema: { $ref: "#/components/schemas/ItemPatch" } } }
      responses:
        "200":
          description: the item
          content: { application/json: { schema: { $ref: "#/components/schemas/Item" } } }
        "400": { description: a bad body }
        "401": { description: no key }
        "404": { description: no such item }
    delete:
      operationId: deleteItem
      responses:
        "204": { description: deleted }
        "400": { description: a bad id }
        "401": { description: no key }
        "404": { description: no such item }
  /items/{itemId}/archive:
    parameters:
      - { name: itemId, in: path, required: true, schema: { type: string, maxLength: 40 } }
    post:
      operationId: archiveItem
      responses:
        "200":
          description: archived
          content: { application/json: { schema: { $ref: "#/components/schemas/Item" } } }
        "400": { description: a bad id }
        "401": { description: no key }
        "404": { description: no such item }
        "409": { description: already archived }
components:
  securitySchemes:
    key: { type: apiKey, in: header, name: X-Key }
  schemas:
    Item:
      type: object
      required: [id, name, archived]
      properties:
        id: { type: string, readOnly: true }
        name: { type: string, maxLength: 40 }
        price: { type: integer, minimum: 0, maximum: 1000 }
        archived: { type: boolean, readOnly: true }
    ItemInput:
      type: object
      required: [name]
      additionalProperties: false
      properties:
        name: { type: string, maxLength: 40 }
        price: { type: integer, minimum: 0, maximum: 1000 }
    ItemPatch:
      type: object
      additionalProperties: false
      properties:
        name: { type: string, maxLength: 40 }
        price: { type: integer, minimum: 0, maximum: 1000 }
`;

interface Item {
  id: string;
  name: string;
  price?: number;
  archived: boolean;
}

function validInput(body: unknown, required: boolean): body is { name?: string; price?: number } {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return false;
  const record = body as Record<string, unknown>;
  if (Object.keys(record).some((key) => key !== 'name' && key !== 'price')) return false;
  if (required && record.name === undefined) return false;
  if (record.name !== undefined && (typeof record.name !== 'string' || record.name.length > 40)) return false;
  const price = record.price;
  return price === undefined || (Number.isInteger(price) && (price as number) >= 0 && (price as number) <= 1000);
}

/** One request as the service sees it. */
export interface CrudRequest {
  method: string;
  /** Path and query (`/items?limit=2`). */
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * The service as a function: a request in, a status and a JSON body (or none) out, over a store of its own. The
 * server below and the unit tests' fake transport (tests/fuzz/fuzz-transport.test.ts) both answer with it.
 */
export function crudService(
  bugs: readonly CrudBug[] = [],
): (request: CrudRequest) => { status: number; body?: unknown } {
  const items = new Map<string, Item>();
  let next = 1;
  const has = (bug: CrudBug) => bugs.includes(bug);
  return (req) => {
    const send = (status: number, body?: unknown) => ({ status, ...(body === undefined ? {} : { body }) });
    const url = new URL(req.url, 'http://x');
    const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
    const keyed = req.headers['x-key'] === crudKey;
    const deleting = req.method === 'DELETE' && parts.length === 2;
    if (!keyed && !(deleting && has('delete-ignores-key'))) return send(401);
    let body: unknown;
    try {
      body = req.body.length > 0 ? JSON.parse(req.body) : undefined;
    } catch {
      return send(400);
    }
    if (parts[0] !== 'items') return send(404);
    if (parts.length === 1 && req.method === 'POST') {
      if (!validInput(body, true)) return send(400);
      const item: Item = { id: `itm_${next++}`, name: body.name!, archived: false };
      if (body.price !== undefined) item.price = body.price;
      items.set(item.id, item);
      return send(201, item);
    }
    if (parts.length === 1 && req.method === 'GET') {
      const limit = Number(url.searchParams.get('limit') ?? '20');
      const cursor = url.searchParams.get('cursor') ?? 'c0';
      if (!Number.isInteger(limit) || limit < 1 || limit > 100 || cursor.length > 40) return send(400);
      let all = [...items.values()];
      if (has('unlisted')) all = all.slice(0, -1);
      const start = Number(cursor.slice(1)) || 0;
      const from = has('page-repeat') && start > 0 ? start - 1 : start;
      const page = all.slice(from, from + limit);
      const more = start + limit < all.length;
      return send(200, { data: page, next_cursor: more ? `c${start + limit}` : null });
    }
    if ((parts[1] ?? '').length > 40) return send(400);
    const item = items.get(parts[1] ?? '');
    if (parts.length === 3 && parts[2] === 'archive' && req.method === 'POST') {
      if (!item) return send(404);
      if (item.archived && !has('archive-twice')) return send(409);
      item.archived = true;
      return send(200, { ...item });
    }
    if (parts.length !== 2) return send(404);
    if (req.method === 'GET') return item && !has('unreadable') ? send(200, { ...item }) : send(404);
    if (!item) return send(404);
    if (req.method === 'PATCH') {
      if (!validInput(body, false)) return send(400);
      const changed = { ...item, ...body };
      if (!has('not-stored')) items.set(item.id, changed);
      return send(200, changed);
    }
    if (req.method === 'DELETE') {
      if (!has('still-there')) items.delete(item.id);
      return send(204);
    }
    return send(405);
  };
}

export async function startCrudService(
  bugs: readonly CrudBug[] = [],
): Promise<{ url: string; close: () => Promise<void> }> {
  const answer = crudService(bugs);
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const { status, body } = answer({
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      res.writeHead(status, body === undefined ? {} : { 'content-type': 'application/json' });
      res.end(body === undefined ? undefined : JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
