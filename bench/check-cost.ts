// Benchmark 1: the cost of checking one ~2 KB client-session response (all checks), against JSON.parse of the
// same body (the floor: a body must be parsed) and against peers doing the same job on the same body and schema.
import { createRequire } from 'node:module';
import { getHttpOperationsFromSpec } from '@stoplight/prism-http';
import { apis, specPath } from '../src/apis.js';
import { checkExchange } from '../src/core/check-exchange.js';
import { compileContract } from '../src/core/compile-contract.js';
import { loadSpec } from '../src/core/load-spec.js';
import { measure, quick, report, round } from './bench-util.js';

const require = createRequire(import.meta.url);
const OpenAPIResponseValidator = require('openapi-response-validator').default as new (options: object) => { validateResponse(status: number, body: unknown): unknown };
const { validateOutput } = require('@stoplight/prism-http/dist/validator') as { validateOutput: (opts: object) => { _tag: string } };

const spec = await loadSpec(specPath(apis['client-session']));
const contract = compileContract(spec);
const body = JSON.stringify(sessionBody());
const parsed = JSON.parse(body) as unknown;
const headers = { 'content-type': 'application/json' };
const exchange = { method: 'GET', path: '/client-session', status: 200, headers, body, json: parsed };
const fromText = { method: 'GET', path: '/client-session', status: 200, headers, body };

// Each contender must say this body conforms, or the comparison is meaningless.
if (checkExchange(contract, exchange).findings.length > 0) throw new Error('the benchmark body does not conform');
const document = spec.document as { paths: Record<string, any>; components: object };
const orv = new OpenAPIResponseValidator({ responses: document.paths['/client-session'].get.responses, components: document.components });
if (orv.validateResponse(200, parsed)) throw new Error(`openapi-response-validator rejects the body: ${JSON.stringify(orv.validateResponse(200, parsed))}`);
const [prismOperation] = await getHttpOperationsFromSpec(specPath(apis['client-session']));
const prismElement = { statusCode: 200, headers, body: parsed };
if (validateOutput({ resource: prismOperation, element: prismElement })._tag !== 'Right') throw new Error('Prism rejects the body');

const ms = quick ? 30 : 1500;
const validator = contract.byOperationId.get('retrieveClientSession')!.responses[0]!.mediaTypes[0]!.validate!;
const parse = measure(() => JSON.parse(body), ms);
const ours = measure(() => checkExchange(contract, exchange), ms);
const ajvOnly = measure(() => validator(parsed), ms);
const oursWithParse = measure(() => checkExchange(contract, fromText), ms);
const responseValidator = measure(() => orv.validateResponse(200, parsed), ms);
const prism = measure(() => validateOutput({ resource: prismOperation, element: prismElement }), ms);

report('check-cost', {
  bodyBytes: Buffer.byteLength(body),
  jsonParse: parse,
  contractsCheck: ours,
  contractsCheckIncludingParse: oursWithParse,
  ajvSchemaValidatorOnly: ajvOnly,
  openapiResponseValidator: responseValidator,
  prismValidateOutput: prism,
  ratios: {
    checkVsJsonParse: round(ours.nsPerOp / parse.nsPerOp),
    openapiResponseValidatorVsCheck: round(responseValidator.nsPerOp / ours.nsPerOp),
    prismVsCheck: round(prism.nsPerOp / ours.nsPerOp),
  },
});

/** A client session of about 2 KB, in the seed's shape. */
function sessionBody() {
  const paymentMethod = {
    vaultOnSuccess: false,
    vaultOn3DS: false,
    options: {
      GOOGLE_PAY: { surcharge: { amount: 50 } },
      PAYMENT_CARD: { networks: { VISA: { surcharge: { amount: 100 } }, MASTERCARD: { surcharge: { amount: 80 } } } },
      PAY_NL_IDEAL: { surcharge: { amount: 40 } },
    },
  };
  return {
    customerId: 'customer-1234567890',
    orderId: 'order-abc-0001-2026-11-21',
    currencyCode: 'EUR',
    amount: 13990,
    metadata: { productType: 'Clothing', channel: 'web', campaign: 'winter-sale', referrer: 'newsletter' },
    customer: { emailAddress: 'customer@example.com' },
    order: {
      lineItems: Array.from({ length: 12 }, (_, i) => ({ itemId: `sku-${1000 + i}`, description: `Item number ${i} of the order`, amount: 1000 + i * 10, quantity: 1 + (i % 3) })),
      fees: [{ type: 'SURCHARGE', amount: 100 }],
      shipping: { amount: 490 },
      paymentMethod,
      authorizationType: 'ESTIMATED',
    },
  };
}
