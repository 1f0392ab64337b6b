import { beforeAll, describe, expect, it } from 'vitest';
import { checkExchange } from '../../src/core/check-exchange.js';
import { compileContract, type Contract } from '../../src/core/compile-contract.js';
import type { Exchange } from '../../src/core/exchange.js';
import { loadSpec } from '../../src/core/load-spec.js';
import { fixture, specFile } from '../helpers/paths.js';

const contracts: Record<string, Contract> = {};
beforeAll(async () => {
  contracts.session = compileContract(await loadSpec(specFile('client-session')), { strict: true });
  contracts.hooks = compileContract(await loadSpec(specFile('repository-webhooks')), { strict: true });
  contracts.headers = compileContract(await loadSpec(fixture('specs', 'with-headers.yaml')));
});

const json = 'application/json';
const pm = { vaultOnSuccess: false };
const hook = {
  id: 42,
  name: 'web',
  active: true,
  events: ['push'],
  config: { url: 'https://x', content_type: 'json', insecure_ssl: '0' },
};
const exchange = (
  method: string,
  path: string,
  status: number,
  body: unknown,
  contentType: string | undefined = json,
  headers: Record<string, string> = {},
): Exchange => ({
  method,
  path,
  status,
  headers: { ...(contentType ? { 'content-type': contentType } : {}), ...headers },
  body: typeof body === 'string' ? body : JSON.stringify(body),
});

interface Case {
  contract: string;
  given: Exchange;
  strict?: boolean;
  want: { check: string; severity?: string; message: RegExp; instancePath?: string; actual?: unknown }[];
}

const cases: [string, Case][] = [
  [
    'passes a conforming client session with paymentMethod under order',
    { contract: 'session', given: exchange('GET', '/client-session', 200, { order: { paymentMethod: pm } }), want: [] },
  ],
  [
    'passes paymentMethod at the top level',
    { contract: 'session', given: exchange('GET', '/client-session', 200, { paymentMethod: pm }), want: [] },
  ],
  [
    'passes paymentMethod in both places with the same contents',
    {
      contract: 'session',
      given: exchange('GET', '/client-session', 200, { paymentMethod: pm, order: { paymentMethod: pm } }),
      want: [],
    },
  ],
  [
    'reports paymentMethod in neither place as payment_method_placement, naming both places',
    {
      contract: 'session',
      given: exchange('GET', '/client-session', 200, { orderId: 'o' }),
      want: [{ check: 'payment_method_placement', message: /\/paymentMethod.*\/order\/paymentMethod/ }],
    },
  ],
  [
    'warns when paymentMethod differs between the two places',
    {
      contract: 'session',
      given: exchange('GET', '/client-session', 200, {
        paymentMethod: pm,
        order: { paymentMethod: { vaultOnSuccess: true } },
      }),
      want: [{ check: 'payment_method_placement', severity: 'warning', message: /different contents/ }],
    },
  ],
  [
    'reports an undocumented 418 as status_code_conformance',
    {
      contract: 'session',
      given: exchange('GET', '/client-session', 418, { x: 1 }),
      want: [
        {
          check: 'status_code_conformance',
          message: /status 418 is not documented for retrieveClientSession \(documented: 200\)/,
        },
      ],
    },
  ],
  [
    'reports a wrong currency code with its path',
    {
      contract: 'session',
      given: exchange('GET', '/client-session', 200, { paymentMethod: pm, currencyCode: 'XXX' }),
      want: [
        {
          check: 'response_schema_conformance',
          instancePath: '/currencyCode',
          message: /^\/currencyCode: "XXX" is not one of the 172 allowed values$/,
          actual: 'XXX',
        },
      ],
    },
  ],
  [
    'never echoes a credential field a response leaks in clear: its value is hidden, the finding stays',
    {
      contract: 'hooks',
      given: exchange('GET', '/repos/o/r/hooks/42/config', 200, { url: 'https://x', secret: 'leaked-in-clear-1234' }),
      want: [
        {
          check: 'response_schema_conformance',
          instancePath: '/secret',
          message: /^\/secret must match pattern "\^\\\*\+\$"$/,
          actual: '[hidden: a credential field]',
        },
      ],
    },
  ],
  [
    'reports each schema error, with allErrors',
    {
      contract: 'session',
      given: exchange('GET', '/client-session', 200, { paymentMethod: pm, amount: -5, customerId: 'c'.repeat(300) }),
      want: [
        {
          check: 'response_schema_conformance',
          instancePath: '/customerId',
          message: /must NOT have more than 255 characters, not "c{79}…$/,
          actual: `"${'c'.repeat(199)}…`,
        },
        {
          check: 'response_schema_conformance',
          instancePath: '/amount',
          message: /^\/amount must be >= 0, not -5$/,
          actual: -5,
        },
      ],
    },
  ],
  [
    'accepts fields the spec does not list',
    {
      contract: 'session',
      given: exchange('GET', '/client-session', 200, { paymentMethod: pm, newField: 1 }),
      want: [],
    },
  ],
  [
    'reports fields the spec does not list under --strict',
    {
      contract: 'session',
      strict: true,
      given: exchange('GET', '/client-session', 200, {
        paymentMethod: pm,
        newField: 1,
        order: { paymentMethod: pm, giftWrap: true },
      }),
      want: [
        { check: 'response_schema_conformance', instancePath: '/order', message: /"giftWrap" \(--strict\)/ },
        { check: 'response_schema_conformance', instancePath: '', message: /"newField" \(--strict\)/ },
      ],
    },
  ],
  [
    'passes the spec example under --strict',
    {
      contract: 'session',
      strict: true,
      given: exchange('GET', '/client-session', 200, {
        customerId: 'c',
        metadata: { any: 1 },
        customer: { emailAddress: 'a@b.co' },
        order: {
          lineItems: [{ itemId: 'i', amount: 1, quantity: 1 }],
          fees: [{ type: 'SURCHARGE', amount: 1 }],
          shipping: { amount: 1 },
          paymentMethod: {
            vaultOnSuccess: false,
            options: { PAYMENT_CARD: { networks: { VISA: { surcharge: { amount: 1 } } } } },
          },
          authorizationType: 'ESTIMATED',
        },
      }),
      want: [],
    },
  ],
  [
    'reports a body that is not JSON',
    {
      contract: 'session',
      given: exchange('GET', '/client-session', 200, '<html>oops</html>'),
      want: [{ check: 'response_schema_conformance', message: /not valid JSON/ }],
    },
  ],
  [
    'reports an undocumented content type',
    {
      contract: 'session',
      given: exchange('GET', '/client-session', 200, '<html>oops</html>', 'text/html; charset=utf-8'),
      want: [
        {
          check: 'content_type_conformance',
          message: /content type text\/html is not documented for status 200 \(documented: application\/json\)/,
        },
      ],
    },
  ],
  [
    'reports an empty body where one is documented',
    {
      contract: 'session',
      given: exchange('GET', '/client-session', 200, '', undefined),
      want: [{ check: 'content_type_conformance', message: /documented with a body.*has none/ }],
    },
  ],
  [
    'reports a body on a 204',
    {
      contract: 'hooks',
      given: exchange('DELETE', '/repos/o/r/hooks/42', 204, { deleted: true }),
      want: [{ check: 'content_type_conformance', message: /status 204 is documented without a body/ }],
    },
  ],
  [
    'reports a body on the 202 of a redelivery',
    {
      contract: 'hooks',
      given: exchange('POST', '/repos/o/r/hooks/42/deliveries/7/attempts', 202, { ok: 1 }),
      want: [{ check: 'content_type_conformance', message: /status 202 is documented without a body/ }],
    },
  ],
  [
    'passes an empty 204',
    { contract: 'hooks', given: exchange('POST', '/repos/o/r/hooks/42/pings', 204, '', undefined), want: [] },
  ],
  [
    'passes a 404 with a body, whose shape the seed does not show',
    { contract: 'hooks', given: exchange('GET', '/repos/o/r/hooks/42', 404, { message: 'Not Found' }), want: [] },
  ],
  [
    'passes the versioned media type',
    {
      contract: 'hooks',
      given: exchange('GET', '/repos/o/r/hooks/42', 200, hook, 'application/vnd.service.v3+json; charset=utf-8'),
      want: [],
    },
  ],
  [
    'reports a config secret in clear',
    {
      contract: 'hooks',
      given: exchange('GET', '/repos/o/r/hooks/42/config', 200, { url: 'https://x', secret: 'hunter2' }),
      want: [{ check: 'response_schema_conformance', instancePath: '/secret', message: /must match pattern/ }],
    },
  ],
  [
    'matches the most literal template (deliveries, not a hook id)',
    {
      contract: 'hooks',
      given: exchange('GET', '/repos/o/r/hooks/42/deliveries', 200, [{ id: 'x' }]),
      want: [{ check: 'response_schema_conformance', instancePath: '/0/id', message: /must be integer/ }],
    },
  ],
  [
    'reports an exchange that matches no operation',
    {
      contract: 'hooks',
      given: exchange('GET', '/repos/o/r/hooks/42/test', 200, {}),
      want: [{ check: 'operation_matching', message: /GET \/repos\/o\/r\/hooks\/42\/test matches no operation/ }],
    },
  ],
  [
    'reports a missing required response header',
    {
      contract: 'headers',
      given: exchange('GET', '/items/1', 200, { id: 1 }),
      want: [{ check: 'response_headers_conformance', message: /required response header X-Rate-Limit is missing/ }],
    },
  ],
  [
    'reports an invalid response header value',
    {
      contract: 'headers',
      given: exchange('GET', '/items/1', 200, { id: 1 }, json, { 'x-rate-limit': '-3', 'X-Trace': 'NOT-HEX' }),
      want: [
        { check: 'response_headers_conformance', message: /X-Rate-Limit: value must be >= 0/ },
        { check: 'response_headers_conformance', message: /X-Trace: value must match pattern/ },
      ],
    },
  ],
  [
    'passes valid response headers, any case',
    {
      contract: 'headers',
      given: exchange('GET', '/items/1', 200, { id: 1 }, json, { 'x-rate-limit': '10', 'x-trace': 'ab12' }),
      want: [],
    },
  ],
  [
    'lets a default response cover any status',
    { contract: 'headers', given: exchange('GET', '/items/1', 503, 'down', 'text/plain'), want: [] },
  ],
];

describe('checkExchange', () => {
  it.each(cases)('%s', (_name, { contract, given, strict, want }) => {
    const result = checkExchange(contracts[contract]!, given, { strict: strict ?? false });
    expect(result.findings).toHaveLength(want.length);
    want.forEach((expected, index) => {
      const actual = result.findings[index]!;
      expect(actual.check).toBe(expected.check);
      expect(actual.severity).toBe(expected.severity ?? 'error');
      expect(actual.message).toMatch(expected.message);
      if (expected.instancePath !== undefined) expect(actual.instancePath).toBe(expected.instancePath);
      if ('actual' in expected) expect(actual.actual).toEqual(expected.actual);
    });
  });

  it('says which checks applied, so passes can be reported', () => {
    const result = checkExchange(contracts.session!, exchange('GET', '/client-session', 200, { paymentMethod: pm }));
    expect(result.operationId).toBe('retrieveClientSession');
    expect(result.applied).toEqual([
      'status_code_conformance',
      'content_type_conformance',
      'response_body_wellformed',
      'response_schema_conformance',
      'payment_method_placement',
    ]);
  });
});

describe('checkExchange on hostile bodies', () => {
  it('reports a body nested deeper than a recursive validator can follow, instead of throwing', async () => {
    const contract = compileContract(await loadSpec(fixture('specs', 'recursive.yaml')));
    const depth = 20_000;
    const body = '{"children":['.repeat(depth) + ']}'.repeat(depth);
    const result = checkExchange(contract, exchange('GET', '/tree', 200, body));
    expect(result.findings).toEqual([
      expect.objectContaining({
        check: 'response_schema_conformance',
        message: 'could not check this response: the body is nested too deeply',
      }),
    ]);
  });

  it('compares paymentMethod contents nested too deeply as different, with a warning', () => {
    const deep = (leaf: number) => JSON.parse('{"a":'.repeat(12_000) + String(leaf) + '}'.repeat(12_000)) as unknown;
    const result = checkExchange(contracts.session!, {
      ...exchange('GET', '/client-session', 200, 'x'),
      json: { paymentMethod: { options: deep(1) }, order: { paymentMethod: { options: deep(1) } } },
    });
    expect(result.findings).toEqual([
      expect.objectContaining({ check: 'payment_method_placement', severity: 'warning' }),
    ]);
  });
});
