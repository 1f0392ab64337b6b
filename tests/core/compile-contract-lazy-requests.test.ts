// A contract with lazyRequests compiles what a request to an operation must carry when one is first checked (a mock
// of Stripe answered its first request after 35 s of compiling every operation's): it judges every request as the
// eagerly compiled one does, and compiles nothing for the operations no request reached.
import { describe, expect, it } from 'vitest';
import { checkRequest } from '../../src/core/check-request.js';
import { compileContract } from '../../src/core/compile-contract.js';
import { loadSpec } from '../../src/core/load-spec.js';
import { specFile } from '../helpers/paths.js';

/** A compiled request with each validator as its schema's path: two compilations make distinct functions. */
function shape(value: unknown): unknown {
  return JSON.parse(
    JSON.stringify(value, (_key, entry: unknown) =>
      typeof entry === 'function'
        ? `validator ${String((entry as { schemaPath?: unknown }).schemaPath ?? '')}`
        : entry instanceof Set || entry instanceof Map
          ? [...entry]
          : entry,
    ),
  );
}

describe('compileContract with lazyRequests', () => {
  it.each(['client-session', 'repository-webhooks'])(
    'judges requests of %s as the eager contract does, compiling only the operations asked for',
    async (name) => {
      const spec = await loadSpec(specFile(name));
      const [eager, lazy] = [compileContract(spec), compileContract(spec, { lazy: true, lazyRequests: true })];
      expect(lazy.requests.size).toBe(0);
      const operation = lazy.operations[0]!;
      const request = {
        method: operation.method,
        path: operation.pathTemplate,
        query: 'per_page=abc',
        headers: { 'content-type': 'application/json' },
        body: '{"unexpected": [1, 2]}',
      };
      expect(checkRequest(lazy, request)).toEqual(checkRequest(eager, request));
      expect([...lazy.requests.keys()]).toEqual([operation.operationId]);
      for (const other of lazy.operations)
        expect(shape(lazy.requests.get(other.operationId))).toEqual(shape(eager.requests.get(other.operationId)));
      expect(lazy.requests.get('no such operation')).toBeUndefined();
    },
  );
});
