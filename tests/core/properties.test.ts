// Property tests: whatever a server sends, the core answers with findings and never throws; whatever path
// is asked, it never matches the wrong operation.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkExchange } from '../../src/core/check-exchange.js';
import { compileContract, type Contract } from '../../src/core/compile-contract.js';
import { loadSpec } from '../../src/core/load-spec.js';
import { matchOperation } from '../../src/core/operation-index.js';
import { specFile } from '../helpers/paths.js';

const contracts: Contract[] = [];
beforeAll(async () => {
  for (const name of ['client-session', 'repository-webhooks'])
    contracts.push(compileContract(await loadSpec(specFile(name)), { strict: true }));
});

const methods = fc.constantFrom('GET', 'POST', 'PATCH', 'DELETE', 'PUT', 'get', 'OPTIONS');
const knownPaths = fc.constantFrom(
  '/client-session',
  '/repos/o/r/hooks',
  '/repos/o/r/hooks/1',
  '/repos/o/r/hooks/1/config',
  '/repos/o/r/hooks/1/deliveries',
  '/repos/o/r/hooks/1/deliveries/2',
  '/repos/o/r/hooks/1/deliveries/2/attempts',
  '/repos/o/r/hooks/1/pings',
  '/repos/o/r/hooks/1/tests',
);
const anyPath = fc.oneof(
  knownPaths,
  fc.string().map((s) => '/' + s),
  fc.webPath(),
);
const contentTypes = fc.oneof(
  fc.constantFrom(
    'application/json',
    'application/json; charset=utf-8',
    'application/vnd.service.v3+json',
    'text/html',
    'application/problem+json',
    '',
  ),
  fc.string(),
);
const headers = fc.dictionary(fc.string({ maxLength: 20 }), fc.string({ maxLength: 40 }), { maxKeys: 6 });
const bodies = fc.oneof(
  fc.json(),
  fc.jsonValue().map((value) => JSON.stringify(value)),
  fc.string(),
  fc.constant(''),
);

describe('checkExchange, for any response', () => {
  it('returns findings (never throws) for arbitrary JSON bodies, headers, statuses and paths', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(0, 1),
        methods,
        anyPath,
        fc.integer({ min: 100, max: 599 }),
        contentTypes,
        headers,
        bodies,
        fc.boolean(),
        (which, method, path, status, contentType, extra, body, strict) => {
          const exchange = { method, path, status, headers: { ...extra, 'content-type': contentType }, body };
          const result = checkExchange(contracts[which]!, exchange, { strict });
          expect(Array.isArray(result.findings)).toBe(true);
          for (const finding of result.findings) {
            expect(typeof finding.message).toBe('string');
            expect(['error', 'warning']).toContain(finding.severity);
            expect(result.applied).toContain(finding.check);
          }
        },
      ),
      { numRuns: 1500 },
    );
  });

  it('returns findings for arbitrary pre-parsed values, too', () => {
    fc.assert(
      fc.property(fc.anything(), (value) => {
        const result = checkExchange(contracts[0]!, {
          method: 'GET',
          path: '/client-session',
          status: 200,
          headers: { 'content-type': 'application/json' },
          body: 'x',
          json: value,
        });
        expect(Array.isArray(result.findings)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});

describe('matchOperation, for any path', () => {
  // A segment as a client would send it: anything, percent-encoded, never empty.
  const segment = fc.string({ minLength: 1, maxLength: 12 }).map((s) => encodeURIComponent(s));

  it('matches a path made from a template to that template, whatever the parameter values', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...contracts.flatMap((c) => c.operations)),
        fc.array(segment, { minLength: 4, maxLength: 4 }),
        (operation, values) => {
          let index = 0;
          const path = operation.pathTemplate.replace(/\{[^}]+\}/g, () => values[index++]!);
          const match = matchOperation(
            contracts.flatMap((c) => c.operations),
            operation.method,
            path,
          );
          expect(match?.operation.pathTemplate).toBe(operation.pathTemplate);
          expect(match?.operation.method).toBe(operation.method);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('only ever matches a path that fits the template it names', () => {
    fc.assert(
      fc.property(methods, anyPath, (method, path) => {
        for (const contract of contracts) {
          const match = matchOperation(contract.operations, method, path);
          if (!match) continue;
          const literal = match.operation.pathTemplate.split('/').filter((part) => part && !part.includes('{'));
          for (const part of literal) expect(path.split('/')).toContain(part);
          expect(path.replace(/\/$/, '').split('/').length).toBe(match.operation.pathTemplate.split('/').length);
        }
      }),
      { numRuns: 2000 },
    );
  });
});
