// contracts-kit/msw in Node: msw's setupServer with our handlers, requests made with Node's fetch. Each answer is
// judged again by our own checks (checkExchange): the handlers serve what the spec documents, and refuse what it
// refuses with its documented 4xx, whether the spec is given as a path or as a parsed document.
import './promise-with-resolvers.js';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { setupServer } from 'msw/node';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkExchange } from '../../src/core/check-exchange.js';
import { compileContract } from '../../src/core/compile-contract.js';
import { ContractsError } from '../../src/core/errors.js';
import { loadSpec } from '../../src/core/load-spec.js';
import { handlers } from 'contracts-kit/msw';
import { root } from '../helpers/paths.js';

const specPath = path.join(root, 'tests/msw/fixtures/pets.yaml');
const document = parse(readFileSync(specPath, 'utf8')) as Record<string, unknown>;
const contract = compileContract(await loadSpec(specPath));
const json = { 'content-type': 'application/json' };

interface Case {
  method: string;
  url: string;
  body?: string;
  want: { status: number; contentType: string | null; body: unknown };
  /** The engine's own 404 for a path the spec lacks: no operation to judge it against. */
  unjudged?: true;
}

/** The error findings of our own checks on what was served (the path under the server's base path `/v1`). */
function errorsOn(method: string, url: string, response: Response, text: string) {
  const exchange = {
    method,
    path: new URL(url).pathname.replace(/^\/(v1|mock)/, ''),
    status: response.status,
    headers: Object.fromEntries(response.headers),
    body: text,
  };
  return checkExchange(contract, exchange).findings.filter((finding) => finding.severity === 'error');
}

// The spec's servers say https://pets.example.com/v1: the handlers take that base URL without being told.
const base = 'https://pets.example.com/v1';
const cases: [string, Case][] = [
  [
    'answers a read of a pet never created with the documented 404',
    {
      method: 'GET',
      url: `${base}/pets/42`,
      want: {
        status: 404,
        contentType: 'application/problem+json',
        body: { type: 'about:blank', title: 'Not Found', status: 404, detail: 'Pet "42" does not exist' },
      },
    },
  ],
  [
    'refuses a create without its required name with the documented 400 problem',
    {
      method: 'POST',
      url: `${base}/pets`,
      body: '{}',
      want: {
        status: 400,
        contentType: 'application/problem+json',
        body: {
          type: 'about:blank',
          title: 'Request refused by the spec',
          status: 400,
          detail: 'request body must have required property "name"',
        },
      },
    },
  ],
  [
    'refuses a read whose petId breaks its pattern with the documented 400',
    {
      method: 'GET',
      url: `${base}/pets/abc`,
      want: {
        status: 400,
        contentType: 'application/problem+json',
        body: {
          type: 'about:blank',
          title: 'Request refused by the spec',
          status: 400,
          detail: 'path parameter petId must match pattern "^[0-9]+$": got "abc"',
        },
      },
    },
  ],
  [
    'answers a path the spec does not have with a 404 problem',
    {
      method: 'GET',
      url: `${base}/owners`,
      want: {
        status: 404,
        contentType: 'application/problem+json',
        body: {
          type: 'about:blank',
          title: 'Not Found',
          status: 404,
          detail: 'GET /owners matches no path of the spec',
        },
      },
      unjudged: true,
    },
  ],
];

async function send({ method, url, body }: Case) {
  const response = await fetch(url, { method, ...(body === undefined ? {} : { body, headers: json }) });
  const text = await response.text();
  return { response, text };
}

describe.each([
  ['a path to the spec file', specPath],
  ['the parsed spec document', document],
])('handlers(%s)', (_given, spec) => {
  const server = setupServer(...handlers(spec));
  // The network outside the base URL: a loopback server of the test's own, which the handlers must leave alone.
  const network = http.createServer((_request, response) => response.end('the network'));
  beforeAll(async () => {
    await new Promise<void>((resolve) => network.listen(0, '127.0.0.1', resolve));
    server.listen({ onUnhandledFrame: 'bypass' });
  });
  afterAll(async () => {
    server.close();
    await new Promise((resolve) => network.close(resolve));
  });

  it.each(cases)('%s', async (_name, given) => {
    const { response, text } = await send(given);
    expect({
      status: response.status,
      contentType: response.headers.get('content-type'),
      body: JSON.parse(text),
    }).toEqual(given.want);
    if (!given.unjudged) expect(errorsOn(given.method, given.url, response, text)).toEqual([]);
  });

  it('stores a create and answers its read with what was stored', async () => {
    const created = await send({ method: 'POST', url: `${base}/pets`, body: '{"name":"Rex"}' } as Case);
    const pet = JSON.parse(created.text) as { id: string };
    expect({ status: created.response.status, body: pet }).toEqual({
      status: 201,
      body: { id: expect.stringMatching(/^[0-9]+$/), name: 'Rex' },
    });
    const read = await send({ method: 'GET', url: `${base}/pets/${pet.id}` } as Case);
    expect({ status: read.response.status, body: JSON.parse(read.text) }).toEqual({ status: 200, body: pet });
    expect([
      ...errorsOn('POST', `${base}/pets`, created.response, created.text),
      ...errorsOn('GET', `${base}/pets/${pet.id}`, read.response, read.text),
    ]).toEqual([]);
  });

  it('leaves a request outside the base URL to the network', async () => {
    const { port } = network.address() as AddressInfo;
    const response = await fetch(`http://127.0.0.1:${port}/v1/pets/42`);
    expect({ status: response.status, body: await response.text() }).toEqual({ status: 200, body: 'the network' });
  });
});

describe('handlers with a baseUrl', () => {
  const server = setupServer(...handlers(specPath, { baseUrl: 'http://api.test/mock' }));
  beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
  afterAll(() => server.close());

  it('answers under the given base URL, the path read below it', async () => {
    const created = await fetch('http://api.test/mock/pets', { method: 'POST', body: '{"name":"Rex"}', headers: json });
    const pet = (await created.json()) as { id: string };
    const response = await fetch(`http://api.test/mock/pets/${pet.id}`);
    expect({ created: created.status, status: response.status, body: await response.json() }).toEqual({
      created: 201,
      status: 200,
      body: { id: pet.id, name: 'Rex' },
    });
  });
});

describe('the handlers between tests: reset() and state()', () => {
  const mocked = handlers(specPath, { baseUrl: 'http://state.test' });
  const server = setupServer(...mocked);
  beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
  afterAll(() => server.close());
  const create = async (name: string) =>
    (await (
      await fetch('http://state.test/pets', { method: 'POST', body: JSON.stringify({ name }), headers: json })
    ).json()) as { id: string; name: string };

  it('shows what the store holds, then empties it, so a read of what was made is the documented 404', async () => {
    const rex = await create('Rex');
    const tom = await create('Tom');
    expect(await mocked.state()).toEqual({ Pet: [rex, tom] });
    await mocked.reset();
    expect(await mocked.state()).toEqual({});
    const read = await fetch(`http://state.test/pets/${rex.id}`);
    expect({ status: read.status, body: await read.json() }).toEqual({
      status: 404,
      body: { type: 'about:blank', title: 'Not Found', status: 404, detail: `Pet "${rex.id}" does not exist` },
    });
    // Ids are drawn afresh after a reset, as on a fresh start: the first create gets the first id again.
    expect(await create('Rex')).toEqual(rex);
  });

  it('gives a copy of the state: changing it changes nothing the handlers hold', async () => {
    await mocked.reset();
    const rex = await create('Rex');
    const state = await mocked.state();
    (state.Pet![0] as { name: string }).name = 'changed';
    state.Pet!.pop();
    expect(await mocked.state()).toEqual({ Pet: [rex] });
  });

  it('rejects both with the one-line error of a spec that did not load', async () => {
    const gone = handlers(path.join(root, 'tests/msw/fixtures/missing.yaml'), { baseUrl: 'http://gone.test' });
    const missing = new ContractsError(
      'SPEC_NOT_FOUND',
      `spec not found: ${path.join(root, 'tests/msw/fixtures/missing.yaml')}`,
    );
    await expect(gone.reset()).rejects.toEqual(missing);
    await expect(gone.state()).rejects.toEqual(missing);
  });
});

describe('a spec the handlers cannot serve', () => {
  it('answers each request under its base URL with the mock 500 naming a missing spec file', async () => {
    const server = setupServer(
      ...handlers(path.join(root, 'tests/msw/fixtures/missing.yaml'), { baseUrl: 'http://gone.test' }),
    );
    server.listen({ onUnhandledFrame: 'error' });
    try {
      const response = await fetch('http://gone.test/pets');
      expect({
        status: response.status,
        refusal: response.headers.get('contracts-mock'),
        body: await response.json(),
      }).toEqual({
        status: 500,
        refusal: 'no-valid-answer',
        body: {
          type: 'about:blank',
          title: 'contracts-kit/msw: the spec did not load',
          status: 500,
          detail: `spec not found: ${path.join(root, 'tests/msw/fixtures/missing.yaml')}`,
        },
      });
    } finally {
      server.close();
    }
  });

  it.each([
    [
      'a Swagger 2.0 document object (2.0 is read from a file)',
      { swagger: '2.0' },
      {},
      'SPEC_NOT_OPENAPI_31',
      'a Swagger 2.0 document is read from a file: give its path',
    ],
    [
      'a document whose servers name no absolute URL, without a baseUrl',
      { ...document, servers: [{ url: '/v1' }] },
      {},
      'USAGE',
      'contracts-kit/msw: the spec names no absolute server URL to intercept: give handlers(spec, { baseUrl: "http://api.test" })',
    ],
    [
      'a baseUrl that is no URL',
      document,
      { baseUrl: 'api.test' },
      'USAGE',
      'contracts-kit/msw: baseUrl "api.test" is not a URL (outside a browser, give an absolute one: http://api.test)',
    ],
  ] as const)('refuses %s at once, in one line', (_name, spec, options, code, message) => {
    expect(() => handlers(spec, options)).toThrow(new ContractsError(code, message));
  });
});
