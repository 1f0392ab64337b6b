// A response to HEAD carries no content (RFC 9110 §9.3.2), whatever its status documents for a GET-like body:
// Kubernetes documents `*/*` bodies on its HEAD proxy operations, and content_type_conformance once reported every
// correct empty answer to them ("documented with a body, but the response has none").
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkExchange } from '../../../src/core/check-exchange.js';
import { compileContract, type Contract } from '../../../src/core/compile-contract.js';
import { loadSpec } from '../../../src/core/load-spec.js';

const spec = `openapi: 3.0.3
info: { title: Proxy, version: '1' }
paths:
  /pods/{name}/proxy:
    parameters:
      - { name: name, in: path, required: true, schema: { type: string } }
    head:
      operationId: headPodProxy
      responses:
        '200':
          description: what the pod answered
          content:
            '*/*':
              schema: { type: string }
    get:
      operationId: getPodProxy
      responses:
        '200':
          description: what the pod answered
          content:
            '*/*':
              schema: { type: string }
`;

let contract: Contract;

beforeAll(async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'contracts-head-'));
  await writeFile(path.join(dir, 'proxy.yaml'), spec);
  contract = compileContract(await loadSpec(path.join(dir, 'proxy.yaml')));
});

const answer = (method: string) =>
  checkExchange(contract, { method, path: '/pods/a/proxy', status: 200, headers: {}, body: '' }).findings;

describe('content_type_conformance on an empty answer', () => {
  it('passes the empty answer to a HEAD request', () => {
    expect(answer('HEAD')).toEqual([]);
  });

  it('still reports the empty answer to a GET documented with a body', () => {
    expect(answer('GET').map((finding) => finding.check)).toEqual(['content_type_conformance']);
  });
});
