// Typed openapi-fetch client for the repository webhooks API (specs/repository-webhooks.yaml).
import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { components, paths } from '../../../generated/repository-webhooks.js';

export type RepositoryWebhooksPaths = paths;
export type Webhook = components['schemas']['Webhook'];
export type WebhookConfig = components['schemas']['WebhookConfigResponse'];
export type DeliveryItem = components['schemas']['DeliveryItem'];
export type DeliveryDetail = components['schemas']['DeliveryDetail'];
export type RepositoryWebhooksClient = Client<paths>;

/** The versioned media type the source's samples send in the accept header. */
export const serviceMediaType = 'application/vnd.service.v3+json';

export interface RepositoryWebhooksClientOptions extends Omit<ClientOptions, 'baseUrl'> {
  baseUrl: string;
  /**
   * Sent as `Authorization: Bearer <token>`. The source does not show how a token is presented;
   * bearer is this client's choice, and `headers` can replace it.
   */
  token?: string;
}

export function createRepositoryWebhooksClient({
  token,
  headers,
  ...options
}: RepositoryWebhooksClientOptions): RepositoryWebhooksClient {
  return createClient<paths>({
    ...options,
    headers: {
      accept: serviceMediaType,
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
      ...(headers as Record<string, string> | undefined),
    },
  });
}
