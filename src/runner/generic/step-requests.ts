// The requests one step sends: the operation's documented examples (request body examples, each body field's and
// parameter's examples: the fuzzer's examples phase), or, where it documents none, the smallest valid request the
// fuzzer's generator builds from its schemas; each with the step's bound values and the config's credentials. Only
// requests our own validators judge valid go out (a documented example that breaks its schema is lint's to report,
// not the server's to answer), so an answer judged wrong is the server's doing.
import { canonicalJson } from '../../fuzz/fuzz-case.js';
import { examplesPhase } from '../../fuzz/generate-cases.js';
import { ambiguousOnWire, violations, type OperationModel, type RequestData } from '../../core/request-model.js';
import type { CompiledSpec } from '../../core/compile-spec.js';
import type { RequestBinder } from '../../fuzz/request-binding.js';
import type { BoundValues } from './bind-step.js';

/** Requests per step at most: a spec with many field examples must not make a run of thousands of creates. */
export const maxRequestsPerStep = 10;

export interface StepRequests {
  requests: RequestData[];
  /** Why the first request left out broke the spec, when one did. */
  broken: string | undefined;
}

export interface RequestMaker {
  api: string;
  /** The generation view's document (fuzz/request-side.ts). */
  document: unknown;
  /** The request view's validators: the judge of what is sent. */
  compiled: CompiledSpec;
  binder: RequestBinder;
}

export function stepRequests(
  maker: RequestMaker,
  model: OperationModel,
  bound: BoundValues,
  limit: number,
  /** The smallest request first (a follow-up read or list: a documented cursor or filter would change its answer). */
  smallestFirst = false,
): StepRequests {
  const [smallest, ...documented] = examplesPhase({ api: maker.api, document: maker.document, model });
  const cases = smallestFirst
    ? [smallest!, ...documented]
    : documented.length > 0
      ? [...documented, smallest!]
      : [smallest!];
  const requests: RequestData[] = [];
  const seen = new Set<string>();
  let broken: string | undefined;
  for (const fuzzCase of cases) {
    // The smallest request only when no documented example could be sent (unless it comes first).
    if (fuzzCase === smallest && requests.length > 0 && !smallestFirst) break;
    const { request: generated } = fuzzCase;
    const request: RequestData = {
      ...generated,
      path: { ...generated.path, ...bound.path },
      query: { ...generated.query, ...bound.query },
      headers: { ...generated.headers, ...bound.headers },
    };
    const sent = maker.binder.bind(model, { ...fuzzCase, request });
    const problems = violations(model, maker.compiled, sent);
    if (problems.length > 0 || ambiguousOnWire(model, maker.compiled, sent).length > 0) {
      const first = problems[0];
      broken ??= first
        ? `${first.message.startsWith('/') ? `${first.where}${first.message}` : `${first.where}: ${first.message}`}, in ${fuzzCase.note}`
        : `${fuzzCase.note} would not reach the server as it is`;
      continue;
    }
    const key = canonicalJson(sent);
    if (seen.has(key)) continue;
    seen.add(key);
    requests.push(sent);
    if (requests.length >= limit) break;
  }
  return { requests, broken };
}
