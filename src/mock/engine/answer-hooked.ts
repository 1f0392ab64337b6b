// The stateful engine's answer with the user's hooks around it (sandbox-hooks.ts): `before` may answer or change
// the request, the engine answers (stateful-answer.ts), `after` may change that answer. What a hook answers is judged
// by the same exchange checks as the engine's own (guarded) before it is sent: an answer the spec refuses becomes
// the mock's 500 naming the finding, never served as the API's. A hook that throws (or takes over hookTimeoutMs)
// answers the mock's 500 problem+json, and is said on stderr once per hook, not per request.
import { checkRequest, type RequestRecord } from '../../core/check-request.js';
import { escapeLine } from '../../core/escape-line.js';
import { headerValue } from '../../core/exchange.js';
import type { Finding } from '../../core/finding.js';
import { mockRefusalHeader, mockRefusalValue } from '../../core/mock-refusal.js';
import { engineAnswer } from './dynamic-answer.js';
import { guarded, problem, type EngineAnswer } from './engine-answer.js';
import { hookStore } from './hook-store.js';
import { route, type Route } from './route.js';
import type { AfterContext, BeforeContext, HookAnswer, OperationHooks, SandboxHooks } from './sandbox-hooks.js';
import type { Stateful } from './stateful-engine.js';

export interface HookRunner {
  hooks: SandboxHooks;
  /** The module as messages name it. */
  source: string;
  /** Where a throwing hook is said, once per hook. */
  warn: (line: string) => void;
  /** How long one hook may take (default 10 s). */
  timeoutMs?: number;
  /** The hooks already said to throw. */
  said: Set<string>;
  /**
   * How a hook's answer is judged (default guarded(): the spec's checks, a refusal's undocumented 4xx excused only
   * when the request breaks the spec). An API plug-in's sandbox passes its own (src/sandbox/sandbox-judge.ts).
   */
  judge?: typeof guarded;
}

/** `routed`: the request's route when the caller has it (a server routing among APIs), so it is matched once. */
export async function answerHooked(
  stateful: Stateful,
  runner: HookRunner,
  request: RequestRecord,
  routed: Route = route(stateful.engine.contract.operations, stateful.engine.bases, request.method, request.path),
): Promise<EngineAnswer> {
  const { engine } = stateful;
  if (routed.kind !== 'operation') return engineAnswer(stateful, request, routed);
  const { operation, pathParams } = routed.match;
  const hooks = Object.hasOwn(runner.hooks, operation.operationId)
    ? (runner.hooks[operation.operationId] as OperationHooks | undefined)
    : undefined;
  if (!hooks) return engineAnswer(stateful, request, routed);
  const judgedAs = { method: operation.method.toUpperCase(), path: routed.path, operationId: operation.operationId };
  const judged = { ...request, method: judgedAs.method, path: judgedAs.path };
  const requestFindings = checkRequest(engine.contract, judged, routed.match).findings.filter(
    (finding) => finding.severity === 'error',
  );
  const body = parsed(request.body);
  const context: BeforeContext = {
    operationId: operation.operationId,
    resource: stateful.operations.get(operation.operationId)?.resource.resource.name,
    request: {
      method: request.method,
      path: request.path,
      query: request.query,
      headers: definedHeaders(request.headers),
      params: { ...pathParams },
      body,
      text: request.body,
    },
    store: hookStore(stateful, pathParams),
  };
  const judge = (answer: EngineAnswer, findings: readonly Finding[], commit?: () => void) => {
    const served = (runner.judge ?? guarded)(engine.contract, judgedAs, findings, answer);
    if (served === answer) commit?.();
    return served;
  };
  let answer: EngineAnswer;
  if (hooks.before) {
    const bodyBefore = JSON.stringify(body);
    const before = await runHook(runner, operation.operationId, 'before', () => hooks.before!(context));
    if ('failed' in before) return before.failed;
    if (before.value) return judge(hookAnswer(before.value), requestFindings, before.value.commit);
    answer = engineAnswer(stateful, changedRequest(request, context, bodyBefore));
  } else answer = engineAnswer(stateful, request, routed);
  if (!hooks.after || answer.headers[mockRefusalHeader] === mockRefusalValue) return answer;
  const responseBody = parsed(answer.body);
  const shown = JSON.stringify(responseBody);
  const afterContext: AfterContext = {
    ...context,
    response: { status: answer.status, headers: { ...answer.headers }, body: responseBody, text: answer.body },
  };
  const after = await runHook(runner, operation.operationId, 'after', () => hooks.after!(afterContext));
  if ('failed' in after) return after.failed;
  const { response } = afterContext;
  const changed = after.value
    ? hookAnswer(after.value)
    : {
        status: response.status,
        headers: response.headers,
        body: JSON.stringify(response.body) !== shown ? JSON.stringify(response.body) : response.text,
      };
  return judge(changed, requestFindings, after.value?.commit);
}

/** The request as `before` left it: its headers and query, its body as JSON where `body` changed, else `text`. */
function changedRequest(request: RequestRecord, context: BeforeContext, bodyBefore: string | undefined): RequestRecord {
  const { headers, query, body, text } = context.request;
  const json = JSON.stringify(body);
  return {
    ...request,
    headers: { ...headers },
    query: String(query),
    body: json !== bodyBefore && json !== undefined ? json : String(text),
  };
}

function definedHeaders(headers: RequestRecord['headers']): Record<string, string> {
  const defined: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) defined[name.toLowerCase()] = value;
  return defined;
}

function parsed(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** A hook's answer as the engine's: a body that is not a string as JSON. */
function hookAnswer(answer: HookAnswer): EngineAnswer {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(answer.headers ?? {})) headers[name.toLowerCase()] = String(value);
  const text = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
  if (text !== undefined && typeof answer.body !== 'string' && headerValue(headers, 'content-type') === undefined)
    headers['content-type'] = 'application/json';
  return { status: Number(answer.status), headers, body: text ?? '' };
}

type HookOutcome = { value: HookAnswer | undefined } | { failed: EngineAnswer };

async function runHook(
  runner: HookRunner,
  operationId: string,
  phase: 'before' | 'after',
  hook: () => unknown,
): Promise<HookOutcome> {
  const name = `${operationId}.${phase}`;
  const limit = runner.timeoutMs ?? 10_000;
  let timer: NodeJS.Timeout | undefined;
  try {
    const returned = hook();
    // A hook that answers at once needs no timer: only a promise can take too long.
    const value = isThenable(returned)
      ? await Promise.race([
          returned,
          new Promise<never>((_resolve, reject) => {
            timer = setTimeout(() => reject(new Error(`took over ${limit} ms`)), limit);
          }),
        ])
      : returned;
    if (value !== undefined && (value === null || typeof value !== 'object' || !validStatus(value)))
      throw new Error('returned something that is no answer: { status: 100-599, headers?, body? }');
    return { value: value as HookAnswer | undefined };
  } catch (error) {
    const why = escapeLine(firstLine(error));
    if (!runner.said.has(name)) {
      runner.said.add(name);
      runner.warn(`sandbox: hook ${name} in ${runner.source} threw: ${why} (answered 500; said once per hook)`);
    }
    return {
      failed: problem(500, 'contracts sandbox: a hook failed', `hook ${name} threw: ${why}`, {
        [mockRefusalHeader]: mockRefusalValue,
      }),
    };
  } finally {
    clearTimeout(timer);
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return value !== null && typeof value === 'object' && typeof (value as { then?: unknown }).then === 'function';
}

function validStatus(value: object): boolean {
  const status = (value as { status?: unknown }).status;
  return typeof status === 'number' && Number.isInteger(status) && status >= 100 && status <= 599;
}

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0]!.slice(0, 500);
}
