// A contract compiled lazily (validate of one exchange) compiles a validator when it is first used: it judges every
// response exactly as the eagerly compiled one does, and costs far less to build.
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it, vi } from 'vitest';
import { checkExchange } from '../../src/core/check-exchange.js';
import { compileContract, type Contract } from '../../src/core/compile-contract.js';
import { exampleSites } from '../../src/core/example-sites.js';
import { loadSpec, type LoadedSpec } from '../../src/core/load-spec.js';
import { indexOperations } from '../../src/core/operation-index.js';
import { specFile } from '../helpers/paths.js';

const specs = ['client-session', 'repository-webhooks'];

/** Every documented response with bodies to judge: its examples, and values that fail most schemas. */
function exchangesOf(spec: LoadedSpec) {
  const examples = exampleSites(spec.document);
  return indexOperations(spec.document).flatMap((operation) =>
    operation.responses.flatMap((response) =>
      response.mediaTypes.flatMap((media) => {
        const documented = examples
          .filter((site) => media.schemaPath && JSON.stringify(site.schemaPath) === JSON.stringify(media.schemaPath))
          .map((site) => site.value);
        const status = /^\d{3}$/.test(response.status) ? Number(response.status) : 200;
        return [...documented, {}, [], 'text', { id: 'not a number', config: null }].map((value) => ({
          operationId: operation.operationId,
          exchange: {
            method: operation.method,
            path: operation.pathTemplate,
            status,
            headers: { 'content-type': media.mediaType },
            body: JSON.stringify(value),
          },
        }));
      }),
    ),
  );
}

describe('compileContract with lazy', () => {
  it.each(specs)('gives the findings of the eager contract for every response of %s', async (name) => {
    const spec = await loadSpec(specFile(name));
    const [eager, lazy] = [compileContract(spec), compileContract(spec, { lazy: true })];
    const cases = exchangesOf(spec);
    expect(cases.length).toBeGreaterThan(4);
    for (const { operationId, exchange } of cases) {
      for (const strict of [false, true]) {
        const judge = (contract: Contract) => checkExchange(contract, exchange, { operationId, strict });
        expect(judge(lazy), `${operationId} ${exchange.status} ${exchange.body}`).toEqual(judge(eager));
      }
    }
  });

  it('costs less than half of compiling every validator up front', async () => {
    // CPU time, the least of three alternating builds each: the machine's load falls on both alike.
    const spec = await loadSpec(specFile('repository-webhooks'));
    const cost = (lazy: boolean) => {
      const start = process.cpuUsage();
      compileContract(spec, { lazy, strict: true });
      const used = process.cpuUsage(start);
      return used.user + used.system;
    };
    const eager: number[] = [];
    const lazy: number[] = [];
    for (let round = 0; round < 3; round++) {
      eager.push(cost(false));
      lazy.push(cost(true));
    }
    expect(Math.min(...lazy)).toBeLessThan(Math.min(...eager) / 2);
  });

  it('compiles no request validator for a caller that reads only what each operation needs for credentials', async () => {
    // fuzz reads every operation's security (api-credentials.ts, the mock's placeholders): compiling every request
    // validator for it held them all, each operation's, for the whole run of a big spec (issue #44 item 8).
    const spec = await loadSpec(specFile('repository-webhooks'));
    const compile = vi.spyOn(Ajv2020.prototype, 'compile');
    try {
      const contract = compileContract(spec, { lazy: true });
      const security = [...contract.requests].map(([operationId, request]) => [operationId, request.security]);
      expect(security.length).toBeGreaterThan(4);
      expect(compile.mock.calls).toEqual([]);
      // A validator read is compiled then, and judges as before.
      const param = [...contract.requests.values()].flatMap((request) => request.params)[0]!;
      expect(typeof param.validate).toBe('function');
      expect(compile.mock.calls.length).toBe(1);
    } finally {
      compile.mockRestore();
    }
  });
});
