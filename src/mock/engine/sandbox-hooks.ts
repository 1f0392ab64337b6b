// The sandbox's hooks module: behaviour a spec cannot say (a computed field, a rule between two resources, an
// answer that depends on the store), written by the user per operationId. `before(ctx)` runs before the engine and
// may change the request or answer itself; `after(ctx)` runs on the engine's answer and may change it. Typed from
// openapi-typescript's generated `operations` when given: `SandboxHooks<operations>`. Whatever a hook answers is
// judged by the same exchange checks as the engine's own answers before it is sent (answer-hooked.ts).

/** The JSON request body an operation documents (openapi-typescript's `requestBody.content`), else unknown. */
export type HookRequestBody<Operation> = Operation extends { requestBody?: { content: infer Content } }
  ? [Content] extends [never]
    ? unknown
    : Content[keyof Content]
  : unknown;

/** The union of the JSON bodies an operation documents across its responses, else unknown. */
export type HookResponseBody<Operation> = Operation extends { responses: infer Responses }
  ? {
      [Status in keyof Responses]: Responses[Status] extends { content: infer Content }
        ? Content[keyof Content]
        : undefined;
    }[keyof Responses]
  : unknown;

export interface HookRequest<Operation = unknown> {
  method: string;
  /** The path as sent (with any server base path), without the query. */
  path: string;
  /** The query string without its `?`. */
  query: string;
  /** Header names in lower case. */
  headers: Record<string, string>;
  /** The path parameters' values by name. */
  params: Record<string, string>;
  /** The body parsed as JSON (undefined when empty or not JSON); a change here is sent on as JSON. */
  body: HookRequestBody<Operation> | undefined;
  /** The body as text; a change here is sent on as it is (when `body` is left alone). */
  text: string;
}

export interface HookResponse<Operation = unknown> {
  status: number;
  headers: Record<string, string>;
  /** The body parsed as JSON (undefined when empty or not JSON); a change here is served as JSON. */
  body: HookResponseBody<Operation> | undefined;
  text: string;
}

/** What a hook may answer with: a body that is not a string is served as JSON (content-type application/json). */
export interface HookAnswer<Operation = unknown> {
  status: number;
  headers?: Record<string, string>;
  body?: HookResponseBody<Operation> | string;
  /**
   * The state change this answer reports, run only when the answer is served as given: one the spec's checks
   * refuse (served as the mock's 500) changes nothing. Hooks that write through `ctx.store` write at once.
   */
  commit?(): void;
}

/**
 * The engine's store as a hook sees it: items of a resource (the names `contracts fuzz --explain-links` prints),
 * as copies. `parents` are the path parameters that scope a nested collection; by default the request's own.
 */
export interface HookStore {
  resources(): string[];
  list(resource: string, parents?: Record<string, string>): Record<string, unknown>[];
  get(resource: string, id: string, parents?: Record<string, string>): Record<string, unknown> | undefined;
  /** Stores (or replaces) an item; a JSON object. */
  put(resource: string, id: string, value: Record<string, unknown>, parents?: Record<string, string>): void;
  remove(resource: string, id: string, parents?: Record<string, string>): boolean;
}

export interface BeforeContext<Operation = unknown> {
  operationId: string;
  /** The resource of the operation in the resource model, when it has one. */
  resource: string | undefined;
  request: HookRequest<Operation>;
  store: HookStore;
}

export interface AfterContext<Operation = unknown> extends BeforeContext<Operation> {
  response: HookResponse<Operation>;
}

// biome-ignore lint/suspicious/noConfusingVoidType: a hook with no return statement returns void.
type Maybe<T> = T | undefined | void;

export interface OperationHooks<Operation = unknown> {
  /** Return an answer to answer the request without the engine; change ctx.request to change what it gets. */
  before?(ctx: BeforeContext<Operation>): Maybe<HookAnswer<Operation>> | Promise<Maybe<HookAnswer<Operation>>>;
  /** Return an answer, or change ctx.response, to change what is served. */
  after?(ctx: AfterContext<Operation>): Maybe<HookAnswer<Operation>> | Promise<Maybe<HookAnswer<Operation>>>;
}

/** A hooks module's default export: hooks by operationId (`SandboxHooks<operations>` from the generated types). */
export type SandboxHooks<Operations = Record<string, unknown>> = {
  [OperationId in keyof Operations]?: OperationHooks<Operations[OperationId]>;
};

/** Helps a JavaScript or TypeScript hooks module type its export: `export default defineHooks<operations>({ … })`. */
export function defineHooks<Operations = Record<string, unknown>>(
  hooks: SandboxHooks<Operations>,
): SandboxHooks<Operations> {
  return hooks;
}
