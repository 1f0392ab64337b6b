// The matchers on an OpenAPI 3.2 description: a response whose request method is not said (a Playwright
// APIResponse) is matched to its operation by path among every method the Path Item has, `query` and
// `additionalOperations` (section 4.10) included, not only the eight fixed ones of 3.1.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { toSatisfyContract } from '../../src/matchers/matchers.js';
import { root } from '../helpers/paths.js';

const streams = { api: 'streams', spec: path.join(root, 'tests/fixtures/oas32/streams-3.2.yaml') };

/** Playwright's APIResponse as the matcher reads it: it says its URL and status, never its method. */
const playwrightResponse = (status: number, body: string, url: string) => ({
  url: () => url,
  status: () => status,
  headers: () => ({ 'content-type': 'application/json' }),
  body: async () => Buffer.from(body),
  ok: () => status < 400,
});

describe('toSatisfyContract matching an OpenAPI 3.2 operation by path', () => {
  it('matches a COPY answer (additionalOperations) by the status only it documents', async () => {
    const given = playwrightResponse(201, '{"id":8,"name":"copy"}', 'http://127.0.0.1:9/items/7');
    const result = await toSatisfyContract(given, streams);
    expect({ pass: result.pass, message: result.message() }).toEqual({
      pass: true,
      message:
        'expected COPY /items/7 → 201 not to satisfy the streams contract (copyItem), but it did (checked: status_code_conformance, content_type_conformance, response_body_wellformed, response_schema_conformance)',
    });
  });

  it('asks which operation is meant when a QUERY and a GET of the path both document the status', async () => {
    const given = playwrightResponse(200, '[]', 'http://127.0.0.1:9/items');
    await expect(toSatisfyContract(given, streams)).rejects.toThrow(
      '/items is the path of listItems, queryItems: pass { method } or { operationId } to say which',
    );
  });
});
