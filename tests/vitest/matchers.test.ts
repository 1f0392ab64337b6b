// The vitest matchers on exchanges built in the test: what passes, what fails and the failure message it prints.
import createClient from 'openapi-fetch';
import { describe, expect, it } from 'vitest';
import '../../src/vitest/setup.js';
import type { ClientSessionPaths } from '../../src/plugins/client-session/client-session-client.js';
import type { SatisfyContractOptions } from '../../src/vitest/setup.js';
import { fixture } from '../helpers/paths.js';

const pm = { vaultOnSuccess: false };
const json = { 'content-type': 'application/json' };
const session = (fields: Record<string, unknown>) => ({
  method: 'GET',
  path: '/client-session',
  status: 200,
  headers: json,
  body: { paymentMethod: pm, ...fields },
});
const clientSession: SatisfyContractOptions = { api: 'client-session' };
const headersSpec: SatisfyContractOptions = { api: 'client-session', spec: fixture('specs', 'with-headers.yaml') };
const item = (headers: Record<string, string>) => ({
  method: 'GET',
  path: '/items/7',
  status: 200,
  headers: { ...json, ...headers },
  body: '{"id":7}',
});

/** The message of the assertion error a failing matcher throws. */
async function failureOf(assertion: Promise<unknown>): Promise<string> {
  try {
    await assertion;
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('the assertion passed, but it was meant to fail');
}

describe('toSatisfyContract', () => {
  const passing: [string, { given: unknown; options: SatisfyContractOptions }][] = [
    [
      'passes a plain exchange whose body is a parsed value',
      { given: session({ currencyCode: 'EUR' }), options: clientSession },
    ],
    [
      'passes a plain exchange whose body is raw text',
      { given: { ...session({}), body: JSON.stringify({ order: { paymentMethod: pm } }) }, options: clientSession },
    ],
    [
      'passes a documented required header with a valid value',
      { given: item({ 'X-Rate-Limit': '10', 'X-Trace': 'ab12' }), options: headersSpec },
    ],
    [
      'passes a fetch Response named by its operationId',
      {
        given: new Response(JSON.stringify({ paymentMethod: pm }), { status: 200, headers: json }),
        options: { ...clientSession, operationId: 'retrieveClientSession' },
      },
    ],
  ];
  it.each(passing)('%s', async (_name, { given, options }) => {
    await expect(given).toSatisfyContract(options);
  });

  const failing: [string, { given: unknown; options: SatisfyContractOptions; want: string[] }][] = [
    [
      'fails a currency outside the enum, showing the path, the actual value and the allowed values',
      {
        given: session({ currencyCode: 'XXX' }),
        options: clientSession,
        want: [
          'expected GET /client-session → 200 to satisfy the client-session contract (retrieveClientSession); 1 finding:',
          '- response_schema_conformance at /currencyCode:',
          'actual:   "XXX"',
          'expected: ["',
        ],
      },
    ],
    [
      'fails a negative amount, showing the value and the schema it breaks',
      {
        given: session({ amount: -5 }),
        options: clientSession,
        want: [
          '- response_schema_conformance at /amount: /amount must be >= 0',
          'actual:   -5',
          'expected: must be >= 0',
        ],
      },
    ],
    [
      'fails an undocumented status, showing it and the documented ones',
      {
        given: { ...session({}), status: 418 },
        options: clientSession,
        want: [
          '→ 418',
          '- status_code_conformance: status 418 is not documented',
          'actual:   418',
          'expected: ["200"]',
        ],
      },
    ],
    [
      'fails an undocumented content type',
      {
        given: { ...session({}), headers: { 'content-type': 'text/html' }, body: '<p>hi</p>' },
        options: clientSession,
        want: [
          '- content_type_conformance: content type text/html is not documented',
          'actual:   "text/html"',
          'expected: ["application/json"]',
        ],
      },
    ],
    [
      'fails a session without paymentMethod in either place',
      {
        given: { ...session({}), body: { orderId: 'o' } },
        options: clientSession,
        want: [
          '- payment_method_placement: paymentMethod is missing',
          'actual:   null',
          'expected: ["/paymentMethod","/order/paymentMethod"]',
        ],
      },
    ],
    [
      'fails a missing required response header',
      {
        given: item({}),
        options: headersSpec,
        want: [
          '- response_headers_conformance: required response header X-Rate-Limit is missing',
          'expected: "X-Rate-Limit"',
        ],
      },
    ],
    [
      'fails a response header whose value breaks its schema, showing the value',
      {
        given: item({ 'X-Rate-Limit': '-1', 'X-Trace': 'NOT-HEX' }),
        options: headersSpec,
        want: ['2 findings:', 'response_headers_conformance', 'actual:   "-1"', 'actual:   "NOT-HEX"'],
      },
    ],
    [
      'fails a path that matches no operation',
      {
        given: { ...session({}), path: '/nowhere' },
        options: clientSession,
        want: ['- operation_matching: GET /nowhere matches no operation of the spec'],
      },
    ],
    [
      'fails a fetch Response over the body limit without reading it',
      {
        given: new Response('{"paymentMethod":{"vaultOnSuccess":false},"pad":"' + 'x'.repeat(2000) + '"}', {
          status: 200,
          headers: json,
        }),
        options: { ...clientSession, operationId: 'retrieveClientSession', maxBodyBytes: 1000 },
        want: ['- response_body_wellformed: the body is over the'],
      },
    ],
  ];
  it.each(failing)('%s', async (_name, { given, options, want }) => {
    const message = await failureOf(expect(given).toSatisfyContract(options));
    for (const part of want) expect(message).toContain(part);
    await expect(given).not.toSatisfyContract(options);
  });

  it('says that a conforming response did conform when negated', async () => {
    const message = await failureOf(expect(session({})).not.toSatisfyContract(clientSession));
    expect(message).toMatch(
      /^expected GET \/client-session → 200 not to satisfy the client-session contract \(retrieveClientSession\), but it did \(checked: status_code_conformance, /,
    );
  });

  it('reads a fetch Response from a clone, so the test can still read its body', async () => {
    const response = new Response(JSON.stringify({ paymentMethod: pm, amount: -1 }), { status: 200, headers: json });
    await expect(response).not.toSatisfyContract({ ...clientSession, operationId: 'retrieveClientSession' });
    expect(await response.json()).toEqual({ paymentMethod: pm, amount: -1 });
  });

  it('checks an openapi-fetch result from what the client parsed', async () => {
    // A stand-in transport that answers like a server would, URL included (a constructed Response has none).
    const serve = (body: unknown) => async (request: Request) =>
      Object.defineProperty(new Response(JSON.stringify(body), { status: 200, headers: json }), 'url', {
        value: request.url,
      });
    const good = createClient<ClientSessionPaths>({
      baseUrl: 'http://127.0.0.1:9',
      fetch: serve({ paymentMethod: pm }),
    });
    const bad = createClient<ClientSessionPaths>({
      baseUrl: 'http://127.0.0.1:9',
      fetch: serve({ paymentMethod: pm, currencyCode: 'XXX' }),
    });
    const params = { params: { header: { 'X-API-VERSION': '2.4' as const }, query: { clientToken: 't' } } };
    const result = await good.GET('/client-session', params);
    expect(result.response.bodyUsed).toBe(true);
    await expect(result).toSatisfyContract(clientSession);
    const message = await failureOf(expect(await bad.GET('/client-session', params)).toSatisfyContract(clientSession));
    expect(message).toContain('at /currencyCode');
    expect(message).toContain('actual:   "XXX"');
  });

  it('bounds a failure message whatever the number of findings', async () => {
    const lineItems = Array.from({ length: 500 }, () => ({ itemId: 1, amount: -1, quantity: 'many' }));
    const message = await failureOf(
      expect(session({ order: { paymentMethod: pm, lineItems } })).toSatisfyContract(clientSession),
    );
    expect(message).toMatch(/… and \d+ more/);
    expect(message.length).toBeLessThan(10_000);
  });

  const usage: [string, { given: unknown; options: SatisfyContractOptions; want: RegExp }][] = [
    [
      'refuses an unknown API, naming the choices',
      {
        given: session({}),
        options: { api: 'nope' as never },
        want: /unknown API "nope": choose one of client-session, repository-webhooks/,
      },
    ],
    [
      'asks for the operationId when a Response carries no URL',
      {
        given: new Response('{}', { headers: json }),
        options: clientSession,
        want: /carries no URL to match an operation by: pass \{ operationId \}/,
      },
    ],
    [
      'refuses a value that is no response',
      { given: 42, options: clientSession, want: /takes a fetch Response, an openapi-fetch result .* not number/ },
    ],
    [
      'asks for the method when a Response path is shared by several operations',
      {
        given: Object.defineProperty(new Response('{}', { headers: json }), 'url', {
          value: 'http://127.0.0.1/repos/o/r/hooks/1',
        }),
        options: { api: 'repository-webhooks' },
        want: /\/repos\/o\/r\/hooks\/1 is the path of .*: pass \{ method \} or \{ operationId \}/,
      },
    ],
  ];
  it.each(usage)('%s', async (_name, { given, options, want }) => {
    await expect(expect(given).toSatisfyContract(options)).rejects.toThrow(want);
  });
});

describe('toMatchSchema', () => {
  it('passes a value that matches a component schema', async () => {
    await expect({ paymentMethod: pm, currencyCode: 'EUR' }).toMatchSchema({
      api: 'client-session',
      schema: 'ClientSession',
    });
    await expect('EUR').toMatchSchema({ api: 'client-session', schema: 'CurrencyCode' });
  });

  it('fails a value that breaks the schema, listing each error with its path and actual value', async () => {
    const message = await failureOf(
      expect({ paymentMethod: pm, amount: -5, currencyCode: 'XXX' }).toMatchSchema({
        api: 'client-session',
        schema: 'ClientSession',
      }),
    );
    expect(message).toContain('expected the value to match ClientSession of the client-session spec;');
    expect(message).toContain('- schema at /amount: /amount must be >= 0');
    expect(message).toContain('actual:   -5');
    expect(message).toContain('actual:   "XXX"');
  });

  it('refuses a schema name the spec does not have, naming those it has', async () => {
    await expect(expect({}).toMatchSchema({ api: 'client-session', schema: 'Nope' })).rejects.toThrow(
      /no schema "Nope" under components\/schemas of the client-session spec: choose one of ClientSession, /,
    );
  });
});
