// A target that dies on a request: its connection was closed or reset under that request, and the target answers
// nothing after it (Unleash exited on a NUL inside an array item of an export body). That request is the finding, a
// not_a_server_error failure with its curl line and script like any other (a server that stops serving has failed
// the request: RFC 9110 §15.6 gives it 5xx statuses to say it could not, not silence), and the run stops there,
// instead of reporting every later operation as an outage (exit 2).
import type { CapturedExchange } from '../http/http-capture.js';
import type { SentRequest } from './curl-line.js';
import type { ApiTarget, Executor, Sent } from './executor.js';
import type { FuzzCase } from './fuzz-case.js';
import type { OperationModel } from './request-model.js';

/** The request sent to a target that never answered it: no status (0), no headers, no body. */
function unanswered(sent: SentRequest, url: string): Sent {
  const exchange = { method: sent.method, path: new URL(url).pathname, status: 0, headers: {}, body: '', url };
  return { sent, exchange: exchange as unknown as CapturedExchange, json: undefined, durationMs: 0 };
}

/** Records the request the target died on as a failure; the run then stops (Executor.expired). */
export function targetDiedOn(
  executor: Executor,
  target: ApiTarget,
  model: OperationModel,
  fuzzCase: FuzzCase,
  sent: SentRequest,
  error: Error,
): string {
  // "cannot reach URL (POST /x): ECONNRESET" → "ECONNRESET": the target was reached; it broke the connection.
  const detail = error.message.slice(error.message.lastIndexOf(': ') + 2);
  const message = `${model.operationId} got no answer (${fuzzCase.note}): the connection broke (${detail}) and the target answered nothing after it: it stopped on this request`;
  const finding = {
    check: 'not_a_server_error' as const,
    severity: 'error' as const,
    operation: model.operationId,
    instancePath: '',
    message,
  };
  executor.options.results.record(target.api, model.operationId, 'not_a_server_error', [finding]);
  const failure = executor.book.failureOf(target, fuzzCase, unanswered(sent, sent.url), finding);
  executor.book.keep(failure);
  return failure.id;
}
