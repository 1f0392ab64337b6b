// The proxy's judge, without a proxy: what it captured of one exchange (bytes as they flowed, headers as received)
// turned into the core's records and judged, as the check queue does after the answer went to the client.
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { compileContract, type Contract } from '../../src/core/compile-contract.js';
import { loadSpec } from '../../src/core/load-spec.js';
import { BoundedCopy } from '../../src/proxy/bounded-copy.js';
import { type CapturedExchange, judgeExchange } from '../../src/proxy/judge-exchange.js';
import { fixture } from '../helpers/paths.js';

let contract: Contract;
beforeAll(async () => {
  contract = compileContract(await loadSpec(fixture('mock-engine/shop.yaml')));
});

const limit = 1000;
function copy(bytes: string | Buffer, copyLimit = limit): BoundedCopy {
  const made = new BoundedCopy(copyLimit);
  made.add(Buffer.from(bytes));
  return made;
}

function captured(overrides: Partial<CapturedExchange>): CapturedExchange {
  return {
    method: 'GET',
    target: '/items?limit=2',
    startedAt: 0,
    durationMs: 3,
    requestHeaders: ['Host', 'shop.example'],
    requestCopy: copy(''),
    status: 200,
    responseHeaders: ['Content-Type', 'application/json'],
    responseCopy: copy('[{"id":"it_aaaaaa","name":"first"}]'),
    blocked: false,
    ...overrides,
  };
}

const badId = {
  check: 'response_schema_conformance',
  severity: 'error',
  operation: 'listItems',
  instancePath: '/0/id',
  schemaPath: '/properties/id/pattern',
  message: '/0/id must match pattern "^it_[a-z0-9]{6}$", not "nope"',
  actual: 'nope',
};

describe('judgeExchange', () => {
  it('finds nothing in an exchange that conforms, and names its operation', () => {
    const judged = judgeExchange(contract, captured({}), limit);
    expect(judged.operationId).toBe('listItems');
    expect(judged.requestResult.findings).toEqual([]);
    expect(judged.responseResult?.findings).toEqual([]);
    expect(judged.response?.json).toEqual([{ id: 'it_aaaaaa', name: 'first' }]);
  });

  it('judges the answer against its schema', () => {
    const judged = judgeExchange(contract, captured({ responseCopy: copy('[{"id":"nope","name":"a"}]') }), limit);
    expect(judged.responseResult?.findings).toEqual([badId]);
  });

  it('judges the body a gzip answer decodes to, not its compressed bytes', () => {
    const judged = judgeExchange(
      contract,
      captured({
        responseHeaders: ['Content-Type', 'application/json', 'Content-Encoding', 'gzip'],
        responseCopy: copy(gzipSync('[{"id":"nope","name":"a"}]')),
      }),
      limit,
    );
    expect(judged.responseResult?.findings).toEqual([badId]);
  });

  it('excuses an undocumented 4xx to a request that broke the spec, and not to one that kept it', () => {
    const refused = judgeExchange(
      contract,
      captured({ target: '/items?limit=0', status: 400, responseCopy: copy('{}') }),
      limit,
    );
    expect(refused.requestResult.findings).toEqual([
      {
        check: 'request_parameters_conformance',
        severity: 'error',
        operation: 'listItems',
        instancePath: '',
        message: 'query parameter limit must be >= 1: got "0"',
        schemaPath: '/minimum',
        actual: '0',
      },
    ]);
    expect(refused.responseResult?.findings).toEqual([]);
    const unexcused = judgeExchange(contract, captured({ status: 400, responseCopy: copy('{}') }), limit);
    expect(unexcused.responseResult?.findings).toEqual([
      {
        check: 'status_code_conformance',
        severity: 'error',
        operation: 'listItems',
        instancePath: '',
        message: 'status 400 is not documented for listItems (documented: 200, 422)',
        expected: ['200', '422'],
        actual: 400,
      },
    ]);
  });

  it('reports an answer over the body limit as too large, unread, rather than judging a part of it', () => {
    const over = copy('[{"id":"nope","name":"a"}]', 5);
    const judged = judgeExchange(contract, captured({ responseCopy: over }), limit);
    expect(judged.response).toMatchObject({ body: '', bodyTooLarge: limit });
    expect(judged.responseResult?.findings).toEqual([
      {
        check: 'response_body_wellformed',
        severity: 'error',
        operation: 'listItems',
        instancePath: '',
        message: 'the body is over the 1000-byte limit (--max-body): it was not read or checked',
        expected: 'at most 1000 bytes',
      },
    ]);
  });

  it('judges neither side of an exchange cut off, and says why', () => {
    const judged = judgeExchange(
      contract,
      captured({ responseCopy: copy('[{"id":"nope"}]'), notJudged: 'the proxy stopped' }),
      limit,
    );
    expect(judged).toMatchObject({
      operationId: 'listItems',
      requestResult: { findings: [] },
      response: undefined,
      responseResult: undefined,
      notJudged: 'the proxy stopped',
    });
  });

  it('leaves the answer unjudged when the client hung up before it was complete', () => {
    const judged = judgeExchange(
      contract,
      captured({ responseCopy: copy('[{"id":"nope"}]'), clientGone: true }),
      limit,
    );
    expect(judged).toMatchObject({ clientGone: true, response: undefined, responseResult: undefined });
  });

  it('joins repeated request headers as Node does, keeps the first of single ones, and takes any name as a header', () => {
    const judged = judgeExchange(
      contract,
      captured({
        requestHeaders: ['X-A', '1', 'x-a', '2', 'Authorization', 'one', 'authorization', 'two', '__proto__', 'p'],
      }),
      limit,
    );
    expect(Object.entries(judged.request.headers)).toEqual([
      ['x-a', '1, 2'],
      ['authorization', 'one'],
      ['__proto__', 'p'],
    ]);
  });
});
