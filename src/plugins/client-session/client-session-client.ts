// Typed openapi-fetch client for the client session API (specs/client-session.yaml).
import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { components, paths } from '../../../generated/client-session.js';

export type ClientSessionPaths = paths;
export type ClientSession = components['schemas']['ClientSession'];
export type ClientSessionClient = Client<paths>;

export interface ClientSessionClientOptions extends Omit<ClientOptions, 'baseUrl'> {
  baseUrl: string;
  /** Sent as X-API-KEY on every request (the spec's apiKey security scheme). */
  apiKey?: string;
}

/**
 * A client whose requests and responses are typed by the spec: `X-API-VERSION` must be "2.4",
 * unknown paths and wrong parameter types do not compile.
 */
export function createClientSessionClient({
  apiKey,
  headers,
  ...options
}: ClientSessionClientOptions): ClientSessionClient {
  return createClient<paths>({
    ...options,
    headers: {
      ...(apiKey === undefined ? {} : { 'X-API-KEY': apiKey }),
      ...(headers as Record<string, string> | undefined),
    },
  });
}
