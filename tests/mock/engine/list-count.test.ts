// A list answer's count beside its items (`{ items, total }`) says how many the collection holds, not a random
// integer; where the schema refuses the true count (`minimum: 1` on an empty collection), the answer stays valid.
import { describe, expect, it } from 'vitest';
import { checkExchange } from '../../../src/core/check-exchange.js';
import { parseSpec } from '../../../src/core/load-spec.js';
import { answerStateful } from '../../../src/mock/engine/stateful-answer.js';
import { statefulEngine, type Stateful } from '../../../src/mock/engine/stateful-engine.js';

const spec = (totalSchema: string) => `openapi: 3.1.0
info: { title: shelf, version: '1' }
paths:
  /books:
    get:
      operationId: listBooks
      parameters:
        - { name: offset, in: query, schema: { type: integer, minimum: 0 } }
        - { name: limit, in: query, schema: { type: integer, minimum: 1, maximum: 50 } }
      responses:
        '200':
          description: a page
          content:
            application/json:
              schema:
                type: object
                required: [items, total]
                properties:
                  items: { type: array, items: { $ref: '#/components/schemas/Book' } }
                  total: ${totalSchema}
    post:
      operationId: addBook
      requestBody: { required: true, content: { application/json: { schema: { $ref: '#/components/schemas/Book' } } } }
      responses:
        '201': { description: added, content: { application/json: { schema: { $ref: '#/components/schemas/Book' } } } }
  /books/{bookId}:
    get:
      operationId: getBook
      parameters: [{ name: bookId, in: path, required: true, schema: { type: string } }]
      responses:
        '200': { description: a book, content: { application/json: { schema: { $ref: '#/components/schemas/Book' } } } }
components:
  schemas:
    Book:
      type: object
      required: [title]
      properties: { id: { type: string, readOnly: true }, title: { type: string, minLength: 1 } }
`;

async function engine(totalSchema: string): Promise<Stateful> {
  return statefulEngine(parseSpec('shelf.yaml', spec(totalSchema)), {});
}

function send(stateful: Stateful, method: string, path: string, body?: unknown) {
  const [bare, query = ''] = path.split('?');
  const headers: Record<string, string> = body === undefined ? {} : { 'content-type': 'application/json' };
  const answer = answerStateful(stateful, {
    method,
    path: bare!,
    query,
    headers,
    body: body === undefined ? '' : JSON.stringify(body),
  });
  const judged = checkExchange(stateful.engine.contract, { method, path: bare!, ...answer });
  expect(judged.findings.filter((finding) => finding.severity === 'error')).toEqual([]);
  return { status: answer.status, json: JSON.parse(answer.body) as { items: unknown[]; total: number } };
}

describe("a list answer's total", () => {
  it('is the number of items the collection holds, on every page', async () => {
    const stateful = await engine('{ type: integer, minimum: 0 }');
    expect(send(stateful, 'GET', '/books').json).toEqual({ items: [], total: 0 });
    for (const title of ['a', 'b', 'c']) send(stateful, 'POST', '/books', { title });
    const first = send(stateful, 'GET', '/books?limit=2').json;
    expect([first.items.length, first.total]).toEqual([2, 3]);
    const second = send(stateful, 'GET', '/books?limit=2&offset=2').json;
    expect([second.items.length, second.total]).toEqual([1, 3]);
  });

  it('keeps a value its schema accepts when the true count is refused (minimum 1, no items)', async () => {
    const stateful = await engine('{ type: integer, minimum: 1 }');
    const { status, json } = send(stateful, 'GET', '/books');
    expect(status).toBe(200);
    expect(json.total).toBeGreaterThanOrEqual(1);
  });
});
