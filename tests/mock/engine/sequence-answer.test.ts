// The stateful engine serving OpenAPI 3.2 sequential media types (section 4.14.3): items from the media type's
// examples when each is valid, else generated from the itemSchema, a bounded count, framed as the format frames
// them; every answer passes the same item-by-item checks `contracts validate` applies.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkExchange } from '../../../src/core/check-exchange.js';
import { loadSpec } from '../../../src/core/load-spec.js';
import { sequenceItems } from '../../../src/core/stream/sequence-items.js';
import { engineAnswer } from '../../../src/mock/engine/dynamic-answer.js';
import { generatedItems } from '../../../src/mock/engine/sequence-answer.js';
import { statefulEngine } from '../../../src/mock/engine/stateful-engine.js';

const item = `{ type: object, required: [id], properties: { id: { type: integer, minimum: 1 } }, additionalProperties: false }`;
const spec = `openapi: 3.2.0
info: { title: sequences, version: "1" }
paths:
  /lines:
    get:
      operationId: lines
      responses:
        "200":
          description: JSON Lines, with examples
          content:
            application/jsonl:
              itemSchema: ${item}
              examples:
                bad: { dataValue: [{ id: 1 }, { id: 0 }] }
                good: { dataValue: [{ id: 1 }, { id: 2 }] }
                text: { serializedValue: "{\\"id\\":7}\\n" }
  /ndjson:
    get:
      operationId: ndjson
      responses:
        "200": { description: NDJSON, content: { application/x-ndjson: { itemSchema: ${item} } } }
  /records:
    get:
      operationId: records
      responses:
        "200": { description: JSON text sequence, content: { application/json-seq: { itemSchema: ${item} } } }
  /events:
    get:
      operationId: events
      responses:
        "200":
          description: server-sent events whose data is JSON
          content:
            text/event-stream:
              itemSchema:
                type: object
                required: [event, data]
                properties:
                  event: { type: string, enum: [tick] }
                  data: { type: string, contentMediaType: application/json, contentSchema: ${item} }
`;
const dir = mkdtempSync(path.join(os.tmpdir(), 'sequence-answer-'));
const file = path.join(dir, 'sequences.yaml');
writeFileSync(file, spec);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function get(route: string, prefer?: string) {
  const stateful = statefulEngine(await loadSpec(file));
  const headers: Record<string, string> = prefer ? { prefer } : {};
  const answer = engineAnswer(stateful, { method: 'GET', path: route, query: '', headers, body: '' });
  const findings = checkExchange(stateful.engine.contract, { method: 'GET', path: route, ...answer }).findings;
  return { answer, errors: findings.filter((finding) => finding.severity === 'error') };
}

describe('the sandbox serving sequential media types', () => {
  it('serves the first example whose every item is valid, framed one JSON text a line', async () => {
    const { answer, errors } = await get('/lines');
    expect({ status: answer.status, type: answer.headers['content-type'], body: answer.body, errors }).toEqual({
      status: 200,
      type: 'application/jsonl',
      body: '{"id":1}\n{"id":2}\n',
      errors: [],
    });
  });

  it('serves the example Prefer names, from its serializedValue', async () => {
    const { answer, errors } = await get('/lines', 'example=text');
    expect([answer.status, answer.body, errors]).toEqual([200, '{"id":7}\n', []]);
  });

  it.each([
    ['application/x-ndjson', '/ndjson', 'jsonl', /^(\{"id":\d+\}\n)+$/],
    ['application/json-seq', '/records', 'json-seq', /^(\u001e\{"id":\d+\}\n)+$/],
    ['text/event-stream', '/events', 'sse', /^(event: tick\ndata: \{"id":\d+\}\n\n)+$/],
  ] as const)('generates valid %s items from the itemSchema, a bounded count', async (type, route, format, framing) => {
    const { answer, errors } = await get(route);
    expect({ status: answer.status, type: answer.headers['content-type'], errors }).toEqual({
      status: 200,
      type,
      errors: [],
    });
    expect(answer.body).toMatch(framing);
    expect(sequenceItems(format, answer.body)).toHaveLength(generatedItems);
  });
});
