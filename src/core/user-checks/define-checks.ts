// The user's own checks (`apis[].checks`, `--checks FILE`), as Schemathesis's `@schemathesis.check` has them: a
// function given the operation, the request and the response, that throws or returns a message when the exchange is
// wrong by a rule of the user's that a spec cannot say (a total that is the sum of its lines). Typed from
// openapi-typescript's generated `paths` by `defineChecks<paths>()`. Run by check, fuzz, proxy and validate alike
// (run-user-checks.ts), each failure a finding of the check's name with `source: 'user check'`.

/** `GET /orders/{id}`: an operation by its method (upper case) and path template, as the generated `paths` has them. */
export type OperationKey<Paths> = {
  [Path in keyof Paths & string]: {
    [Method in keyof Paths[Path] & string]: Method extends 'parameters'
      ? never
      : [NonNullable<Paths[Path][Method]>] extends [never]
        ? never
        : `${Uppercase<Method>} ${Path}`;
  }[keyof Paths[Path] & string];
}[keyof Paths & string];

/** The operation type of `GET /orders/{id}` in `paths`. */
type OperationOf<Paths, Key> = Key extends `${infer Method} ${infer Path}`
  ? Path extends keyof Paths
    ? Lowercase<Method> extends keyof Paths[Path]
      ? NonNullable<Paths[Path][Lowercase<Method>]>
      : never
    : never
  : never;

/** The union of the bodies an operation documents across its responses (openapi-typescript's shape), else unknown. */
export type ResponseBodyOf<Operation> = Operation extends { responses: infer Responses }
  ? {
      [Status in keyof Responses]: Responses[Status] extends { content: infer Content }
        ? Content[keyof Content]
        : undefined;
    }[keyof Responses]
  : unknown;

/** The request body an operation documents, else unknown. */
export type RequestBodyOf<Operation> = Operation extends { requestBody?: { content: infer Content } }
  ? Content[keyof Content]
  : unknown;

export interface UserCheckInput<Operation = unknown> {
  /** The operation the exchange was matched to. */
  operation: { method: string; path: string; operationId: string };
  /**
   * The request as the command saw it. `headers`, `query` and `body` are absent where the command does not see them:
   * `contracts validate` of one response (`--status`/`--body`) knows the method and path only, `contracts check`
   * sends through a typed client and keeps the response.
   */
  request: {
    method: string;
    path: string;
    query?: string;
    headers?: Record<string, string | undefined>;
    /** The body as text. */
    body?: string;
    /** The body parsed as JSON, when it was JSON. */
    json?: RequestBodyOf<Operation> | undefined;
  };
  response: {
    status: number;
    /** Header names as received (look them up in lower case: `headers['content-type']`). */
    headers: Record<string, string | undefined>;
    /** The body as text ('' when none, or when it was over the size limit and not read). */
    body: string;
    /** The body parsed as JSON, when it was JSON. */
    json: ResponseBodyOf<Operation> | undefined;
  };
}

/**
 * A check: throws (an assertion, `assert.equal`) or returns a message when the exchange breaks the rule; returns
 * nothing when it holds. Synchronous: a Promise it returns is reported as that check's error.
 */
// biome-ignore lint/suspicious/noConfusingVoidType: a check written with no return statement returns void.
export type UserCheckFunction<Operation = unknown> = (input: UserCheckInput<Operation>) => string | undefined | void;

/** A check of some operations only (`operation: 'POST /orders'` or a list): it runs on no other exchange. */
export interface ScopedUserCheck<Key extends string = string, Operation = unknown> {
  operation: Key | readonly Key[];
  check: UserCheckFunction<Operation>;
}

/** What a checks module's default export is: checks by name, each a function or a scoped check. */
export type UserChecks = Record<string, UserCheckFunction | ScopedUserCheck>;

/** The checks of one API typed from its generated `paths`, each scoped one per its operation. */
export type TypedUserChecks<Paths> = Record<
  string,
  | UserCheckFunction
  | { [Key in OperationKey<Paths>]: ScopedUserCheck<Key, OperationOf<Paths, Key>> }[OperationKey<Paths>]
>;

/**
 * `export default defineChecks<paths>()({ total_is_sum: { operation: 'POST /orders', check({ response }) {…} } })`:
 * the checks as given, typed from openapi-typescript's `paths` (the generated file of the API). Curried so that
 * `paths` is named and the checks are inferred.
 */
export function defineChecks<Paths = Record<string, unknown>>() {
  return <const Checks extends TypedUserChecks<Paths>>(checks: Checks): Checks => checks;
}
