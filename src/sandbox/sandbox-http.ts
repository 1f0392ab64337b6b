// The request and response shapes the sandbox's handlers work with (the server adapter does the HTTP).

export interface SandboxRequest {
  operationId: string;
  pathParams: Record<string, string>;
  query: URLSearchParams;
  headers: Record<string, string | string[] | undefined>;
  /** The parsed JSON body, or undefined when there is none. */
  body: unknown;
  /** Base URL the client used, for the url fields of bodies. */
  baseUrl: string;
}

export interface SandboxResponse {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /**
   * The state change this answer reports, applied only once the body has been serialized: a request that fails,
   * even while answering, changes nothing. Handlers validate fully and mutate nothing before this.
   */
  commit?: () => void;
}

export const notFound = (what = 'Not Found'): SandboxResponse => ({ status: 404, body: { message: what } });

export const validationFailed = (
  message: string,
  errors: { field: string; message: string }[] = [],
): SandboxResponse => ({
  status: 422,
  body: { message, errors },
});
