// The msw handler over a mock engine: one `http.all` whose predicate takes the requests under the base URLs
// (base-urls.ts) and whose resolver answers each from the engine. The engine may still be loading (a spec read from
// a file): both wait for it, and a spec that failed to load answers every request it would have taken with the
// mock's own 500 (problem+json with the mock-refusal header, as engine-answer.ts `unable`) naming the fault in one line, rather
// than letting them reach the network unmocked or throwing a stack trace into the test's output.
import { http, type HttpHandler } from 'msw';
import { ContractsError } from '../core/errors.js';
import { mockRefusalHeader, mockRefusalValue } from '../core/mock-refusal.js';
import { problem, type EngineAnswer } from '../mock/engine/engine-answer.js';
import { answerResponse, tooLarge } from './answer-response.js';
import { isUnder, type BaseUrl } from './base-urls.js';
import type { MockEngine } from './mock-engine.js';
import { requestRecord } from './request-record.js';

export interface LoadedMock {
  engine: MockEngine;
  bases: BaseUrl[];
}

/**
 * The handlers, with the store's two admin verbs for use between tests (the sandbox's /__contracts/ surface, in
 * process): `reset()` empties it, `state()` shows it. Both wait for the spec; one that failed to load rejects them
 * with its one-line error.
 */
export type ContractsHandlers = HttpHandler[] & {
  reset(): Promise<void>;
  state(): Promise<Record<string, unknown[]>>;
};

export function createHandlers(loaded: Promise<LoadedMock>): ContractsHandlers {
  // Read once here, so that a failed load is no unhandled rejection before the first request asks.
  const settled = loaded.then(
    (mock) => ({ mock }),
    (error: unknown) => ({ error }),
  );
  const baseOf = async (request: Request): Promise<BaseUrl | undefined> => {
    const outcome = await settled;
    if ('error' in outcome) return { origin: '', path: '' };
    const url = new URL(request.url);
    return outcome.mock.bases.find((base) => isUnder(url, base));
  };
  const engine = async (): Promise<MockEngine> => {
    const outcome = await settled;
    if ('error' in outcome) throw outcome.error;
    return outcome.mock.engine;
  };
  const list: HttpHandler[] = [
    http.all(
      async ({ request }) => (await baseOf(request)) !== undefined,
      async ({ request }) => {
        const outcome = await settled;
        if ('error' in outcome) return answerResponse(loadFailure(outcome.error), request.method);
        const base = (await baseOf(request))!;
        const record = await requestRecord(request, base.path);
        const answer = record ? await outcome.mock.engine.answer(record) : tooLarge();
        return answerResponse(answer, request.method);
      },
    ),
  ];
  return Object.assign(list, {
    reset: async () => (await engine()).reset(),
    state: async () => (await engine()).state(),
  });
}

function loadFailure(error: unknown): EngineAnswer {
  const line = error instanceof ContractsError ? error.toLine() : String((error as Error)?.message ?? error);
  return problem(500, 'contracts-kit/msw: the spec did not load', line, { [mockRefusalHeader]: mockRefusalValue });
}
