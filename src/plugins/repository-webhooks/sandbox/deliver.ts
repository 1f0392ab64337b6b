// Real webhook deliveries: POSTs a payload to the hook's config.url with the seed's headers and signatures,
// and records what happened. A failed connection is recorded, never thrown.
import { createHmac } from 'node:crypto';
import { sign } from '@octokit/webhooks-methods';
import type { Repository, WebhooksState, StoredDelivery, StoredHook } from './webhooks-state.js';

export interface DeliveryOptions {
  timeoutMs: number;
  /** Target responses are kept up to this many bytes. */
  maxResponseBytes: number;
  /** Aborted on stop and on reset, so neither waits for a slow target or a loop. */
  abortSignal(): AbortSignal;
}

/**
 * Every delivery says how many deliveries led to it. A request arriving with this header was sent by a sandbox
 * (this one, through some other host, or another one); what it triggers goes one level deeper, and nothing is
 * sent beyond maxDeliveryDepth, so a loop that no config.url check can see (a redirecting or forwarding host, a
 * name that resolves to the sandbox) stops after a few hops instead of delivering thousands of times a second.
 */
export const deliveryDepthHeader = 'X-Sandbox-Delivery-Depth';
export const maxDeliveryDepth = 3;

/** The depth a request's header claims (0 when it is not a delivery). */
export function incomingDeliveryDepth(headers: Record<string, string | string[] | undefined>): number {
  const value = headers[deliveryDepthHeader.toLowerCase()];
  const text = Array.isArray(value) ? value[0] : value;
  return text !== undefined && /^\d{1,6}$/.test(text) ? Number(text) : 0;
}

export async function deliver(
  state: WebhooksState,
  hook: StoredHook,
  repository: Repository,
  event: string,
  payload: Record<string, unknown>,
  options: DeliveryOptions,
  { redelivery = false, depth = 1 }: { redelivery?: boolean; depth?: number } = {},
): Promise<StoredDelivery> {
  const guid = state.newGuid();
  const body = serialize(hook, payload);
  const secret = typeof hook.config.secret === 'string' && hook.config.secret !== '' ? hook.config.secret : undefined;
  const headers: Record<string, string> = {
    Accept: '*/*',
    'User-Agent': 'Service-Hookshot/sandbox',
    'content-type': hook.config.content_type === 'form' ? 'application/x-www-form-urlencoded' : 'application/json',
    'X-Service-Delivery': guid,
    'X-Service-Event': event,
    'X-Service-Hook-ID': String(hook.id),
    'X-Service-Hook-Installation-Target-ID': String(repository.id),
    'X-Service-Hook-Installation-Target-Type': 'repository',
    [deliveryDepthHeader]: String(depth),
  };
  if (secret) {
    headers['X-Hub-Signature-256'] = await sign(secret, body);
    // The seed shows a sha1= signature too; the library signs sha256 only, so node:crypto makes this one.
    headers['X-Hub-Signature'] = `sha1=${createHmac('sha1', secret).update(body).digest('hex')}`;
  }
  const url = String(hook.config.url ?? '');
  const started = Date.now();
  const record: StoredDelivery = {
    id: state.newDeliveryId(),
    hookId: hook.id,
    guid,
    deliveredAt: new Date(started).toISOString(),
    redelivery,
    duration: 0,
    status: 'OK',
    statusCode: 0,
    event,
    action: typeof payload.action === 'string' ? payload.action : null,
    repositoryId: repository.id,
    url,
    request: { headers, payload },
    response: { headers: {}, payload: '' },
  };
  const refusal =
    depth > maxDeliveryDepth
      ? `not sent: ${depth} chained deliveries (over ${maxDeliveryDepth}); does config.url lead back to a sandbox?`
      : notDeliverable(url);
  if (refusal) {
    record.status = refusal;
    state.changeHook(hook, { lastResponse: { code: null, status: 'failed', message: refusal } });
    state.recordDelivery(hook, record);
    return record;
  }
  try {
    const signal = AbortSignal.any([options.abortSignal(), AbortSignal.timeout(options.timeoutMs)]);
    const response = await fetch(url, { method: 'POST', headers, body, signal, redirect: 'manual' });
    record.statusCode = response.status;
    record.status = response.ok ? 'OK' : `HTTP ${response.status}`;
    record.response = {
      headers: Object.fromEntries(response.headers),
      payload: await readCapped(response, options.maxResponseBytes),
    };
    state.changeHook(hook, {
      lastResponse: {
        code: response.status,
        status: response.ok ? 'active' : 'failed',
        message: response.ok ? 'OK' : `HTTP ${response.status}`,
      },
    });
  } catch (error) {
    record.status = failure(error, options);
    state.changeHook(hook, { lastResponse: { code: null, status: 'failed', message: record.status } });
  }
  record.duration = (Date.now() - started) / 1000;
  state.recordDelivery(hook, record);
  return record;
}

/** Hooks are refused a config.url that is not absolute http(s) (hook-url.ts); this also covers one sent without. */
function notDeliverable(url: string): string | undefined {
  if (url === '') return 'not sent: the hook has no config.url';
  return /^https?:\/\//i.test(url) ? undefined : 'not sent: config.url is not an http(s) URL';
}

function failure(error: unknown, options: DeliveryOptions): string {
  const name = (error as Error).name;
  if (name === 'TimeoutError') return `timed out after ${options.timeoutMs} ms`;
  if (name === 'AbortError') return 'aborted: the sandbox stopped or was reset';
  const cause = (error as { cause?: { code?: string } }).cause?.code;
  return `failed to connect: ${cause ?? (error as Error).message}`;
}

function serialize(hook: StoredHook, payload: Record<string, unknown>): string {
  const json = JSON.stringify(payload);
  return hook.config.content_type === 'form' ? `payload=${encodeURIComponent(json)}` : json;
}

async function readCapped(response: Response, limit: number): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.length;
    if (size >= limit) {
      await reader.cancel();
      break;
    }
  }
  return Buffer.concat(chunks).subarray(0, limit).toString('utf8');
}
