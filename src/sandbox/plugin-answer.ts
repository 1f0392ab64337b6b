// A plug-in's handler as an engine hook: a handler that answers an operation by itself, from the plug-in's own
// state (sandbox-http.ts's request and response), becomes that operation's `before` hook (sandbox-hooks.ts). Its
// answer is judged as every hook answer is, and its `commit` runs only when that answer is the one served.
import type { BeforeContext, HookAnswer, OperationHooks } from '../mock/engine/sandbox-hooks.js';
import type { SandboxRequest, SandboxResponse } from './sandbox-http.js';

export type PluginHandler = (request: SandboxRequest) => SandboxResponse | Promise<SandboxResponse>;

/** The request a hook sees, as a handler reads it. */
export function sandboxRequest(ctx: BeforeContext): SandboxRequest {
  const { request } = ctx;
  return {
    operationId: ctx.operationId,
    pathParams: request.params,
    query: new URLSearchParams(request.query),
    headers: request.headers,
    body: request.body,
    baseUrl: `http://${request.headers.host ?? 'localhost'}`,
  };
}

/** A handler's answer as a hook's: a body as JSON (UTF-8), its commit kept for when it is served. */
export function hookAnswer(response: SandboxResponse): HookAnswer {
  const text = response.body === undefined ? undefined : JSON.stringify(response.body);
  return {
    status: response.status,
    headers: {
      ...(text === undefined || text === '' ? {} : { 'content-type': 'application/json; charset=utf-8' }),
      ...response.headers,
    },
    body: text ?? '',
    ...(response.commit ? { commit: response.commit } : {}),
  };
}

/**
 * The operation answered by `handler` alone: the engine's store is not asked. A handler that answers at once is
 * answered at once (answer-hooked.ts arms its timeout only for a promise).
 */
export function answeredBy(handler: PluginHandler): OperationHooks {
  return {
    before(ctx) {
      const response = handler(sandboxRequest(ctx));
      return response instanceof Promise ? response.then(hookAnswer) : hookAnswer(response);
    },
  };
}
