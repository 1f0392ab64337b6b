// Real webhook deliveries: POSTs a payload to the hook's config.url with the seed's headers and signatures,
// and records what happened. A failed connection is recorded, never thrown.
import { createHmac } from 'node:crypto';
import { sign } from '@octokit/webhooks-methods';
import type { Repository, SandboxState, StoredDelivery, StoredHook } from './sandbox-state.js';

export interface DeliveryOptions {
  timeoutMs: number;
  /** Target responses are kept up to this many bytes. */
  maxResponseBytes: number;
}

export async function deliver(
  state: SandboxState,
  hook: StoredHook,
  repository: Repository,
  event: string,
  payload: Record<string, unknown>,
  options: DeliveryOptions,
  redelivery = false,
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
  };
  if (secret) {
    headers['X-Hub-Signature-256'] = await sign(secret, body);
    // The seed shows a sha1= signature too; the library signs sha256 only, so node:crypto makes this one.
    headers['X-Hub-Signature'] = `sha1=${createHmac('sha1', secret).update(body).digest('hex')}`;
  }
  const url = String(hook.config.url ?? '');
  const started = Date.now();
  const record: StoredDelivery = {
    id: state.newId(),
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
  try {
    const response = await fetch(url, { method: 'POST', headers, body, signal: AbortSignal.timeout(options.timeoutMs), redirect: 'manual' });
    record.statusCode = response.status;
    record.status = response.ok ? 'OK' : `HTTP ${response.status}`;
    record.response = { headers: Object.fromEntries(response.headers), payload: await readCapped(response, options.maxResponseBytes) };
    hook.lastResponse = { code: response.status, status: response.ok ? 'active' : 'failed', message: response.ok ? 'OK' : `HTTP ${response.status}` };
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    record.status = (error as Error).name === 'TimeoutError' ? `timed out after ${options.timeoutMs} ms` : `failed to connect: ${cause ?? (error as Error).message}`;
    hook.lastResponse = { code: null, status: 'failed', message: record.status };
  }
  record.duration = (Date.now() - started) / 1000;
  state.deliveries.unshift(record);
  return record;
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
