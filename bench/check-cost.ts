// Benchmark 1: the cost of checking one ~2 KB client-session response (all checks), against JSON.parse of the
// same body (the floor: a body must be parsed) and against peers doing the same job on the same body and schema;
// also a failing body (a few schema errors) and the two steps that dominate: schema validation, duplicate keys.
import { createRequire } from 'node:module';
import { getHttpOperationsFromSpec } from '@stoplight/prism-http';
import { specPath } from '../src/config/project.js';
import { seedProject } from '../src/config/seed-project.js';
import { checkExchange } from '../src/core/check-exchange.js';
import { compileContract } from '../src/core/compile-contract.js';
import { loadSpec } from '../src/core/load-spec.js';
import { findDuplicateKey } from '../src/core/json-duplicate-keys.js';
import { measure, quick, report, round, type Timing } from './bench-util.js';

const require = createRequire(import.meta.url);
const OpenAPIResponseValidator = require('openapi-response-validator').default as new (
  options: object,
) => { validateResponse(status: number, body: unknown): unknown };
const { validateOutput } = require('@stoplight/prism-http/dist/validator') as {
  validateOutput: (opts: object) => { _tag: string };
};

const spec = await loadSpec(specPath(seedProject.api('client-session')));
const contract = compileContract(spec);
const body = JSON.stringify(sessionBody());
const parsed = JSON.parse(body) as unknown;
const headers = { 'content-type': 'application/json' };
const exchange = { method: 'GET', path: '/client-session', status: 200, headers, body, json: parsed };
const fromText = { method: 'GET', path: '/client-session', status: 200, headers, body };
const failingText = failingBody();
const failing = { ...fromText, body: failingText, json: JSON.parse(failingText) as unknown };

// Each contender must say this body conforms, or the comparison is meaningless.
if (checkExchange(contract, exchange).findings.length > 0) throw new Error('the benchmark body does not conform');
const failingFindings = checkExchange(contract, failing).findings.length;
if (failingFindings === 0) throw new Error('the failing benchmark body conforms');
const document = spec.document as { paths: Record<string, any>; components: object };
const orv = new OpenAPIResponseValidator({
  responses: document.paths['/client-session'].get.responses,
  components: document.components,
});
if (orv.validateResponse(200, parsed))
  throw new Error(`openapi-response-validator rejects the body: ${JSON.stringify(orv.validateResponse(200, parsed))}`);
const [prismOperation] = await getHttpOperationsFromSpec(specPath(seedProject.api('client-session')));
const prismElement = { statusCode: 200, headers, body: parsed };
if (validateOutput({ resource: prismOperation, element: prismElement })._tag !== 'Right')
  throw new Error('Prism rejects the body');

// Contenders are measured in turn, in several rounds, and each ratio is taken within a round: on a shared
// machine the load changes between seconds, so only figures measured side by side compare. The figures are the
// medians over the rounds; `spread` gives each ratio's lowest and highest round, to show how noisy the run was.
const rounds = quick ? 1 : 25;
const ms = quick ? 30 : 60;
const validator = contract.byOperationId.get('retrieveClientSession')!.responses[0]!.mediaTypes[0]!.validate!;
const contenders = {
  jsonParse: () => JSON.parse(body),
  contractsCheck: () => checkExchange(contract, exchange),
  contractsCheckFailingBody: () => checkExchange(contract, failing),
  contractsCheckIncludingParse: () => checkExchange(contract, fromText),
  schemaValidationOnly: () => contract.check(validator, parsed),
  duplicateKeyScanOnly: () => findDuplicateKey(body, parsed),
  openapiResponseValidator: () => orv.validateResponse(200, parsed),
  prismValidateOutput: () => validateOutput({ resource: prismOperation, element: prismElement }),
};
type Name = keyof typeof contenders;
const ratioOf = {
  checkVsJsonParse: ['contractsCheck', 'jsonParse'],
  openapiResponseValidatorVsCheck: ['openapiResponseValidator', 'contractsCheck'],
  prismVsCheck: ['prismValidateOutput', 'contractsCheck'],
} as const satisfies Record<string, readonly [Name, Name]>;
const moreRatioOf = {
  checkVsOpenapiResponseValidator: ['contractsCheck', 'openapiResponseValidator'],
  failingVsConforming: ['contractsCheckFailingBody', 'contractsCheck'],
  duplicateKeyScanVsJsonParse: ['duplicateKeyScanOnly', 'jsonParse'],
  schemaValidationVsJsonParse: ['schemaValidationOnly', 'jsonParse'],
} as const satisfies Record<string, readonly [Name, Name]>;
const perRound: Record<Name, Timing>[] = [];
for (let round = 0; round < rounds; round++) {
  const timings = {} as Record<Name, Timing>;
  for (const [name, fn] of Object.entries(contenders)) timings[name as Name] = measure(fn, ms);
  perRound.push(timings);
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const timing = (name: Name): Timing => {
  const nsPerOp = median(perRound.map((timings) => timings[name].nsPerOp));
  return { opsPerSecond: Math.round(1e9 / nsPerOp), nsPerOp };
};
const ratios = (of: Record<string, readonly [Name, Name]>) =>
  Object.fromEntries(
    Object.entries(of).map(([key, [a, b]]) => [
      key,
      round(median(perRound.map((timings) => timings[a].nsPerOp / timings[b].nsPerOp))),
    ]),
  );
const spread = Object.fromEntries(
  Object.entries({ ...ratioOf, ...moreRatioOf }).map(([key, [a, b]]) => {
    const values = perRound.map((timings) => timings[a].nsPerOp / timings[b].nsPerOp);
    return [key, [round(Math.min(...values)), round(Math.max(...values))]];
  }),
);

report('check-cost', {
  bodyBytes: Buffer.byteLength(body),
  failingBodyFindings: failingFindings,
  rounds,
  ...Object.fromEntries(Object.keys(contenders).map((name) => [name, timing(name as Name)])),
  // Kept as before (their time ÷ ours for the peers) so the figures compare with earlier runs.
  ratios: ratios(ratioOf),
  moreRatios: ratios(moreRatioOf),
  spread,
});

/** The same session with a few mistakes a server makes: a number sent as text, a bad email, a missing field. */
function failingBody(): string {
  const session = sessionBody() as Record<string, any>;
  session.amount = String(session.amount);
  session.customer.emailAddress = 'not an email';
  delete session.order.lineItems[3].quantity;
  return JSON.stringify(session);
}

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
      lineItems: Array.from({ length: 12 }, (_, i) => ({
        itemId: `sku-${1000 + i}`,
        description: `Item number ${i} of the order`,
        amount: 1000 + i * 10,
        quantity: 1 + (i % 3),
      })),
      fees: [{ type: 'SURCHARGE', amount: 100 }],
      shipping: { amount: 490 },
      paymentMethod,
      authorizationType: 'ESTIMATED',
    },
  };
}
