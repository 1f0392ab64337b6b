// The client-session sequence: retrieve the session (every per-exchange check, the placement rule among them),
// then the two requests the service must refuse, each judged beside the retrieve as its control.
import { createClientSessionClient } from './client-session-client.js';
import { requestRefused } from '../repository-webhooks/behaviour/index.js';
import { credentialFetch } from '../../http/api-credentials.js';
import { judge, observe, type SequenceContext } from '../../runner/sequence-context.js';

const operation = 'retrieveClientSession';
/**
 * Sent as X-API-KEY when no variable of the config feeds it (CLIENT_SESSION_API_KEY by default): the Prism mock and
 * the sandbox only check that a key is present; staging will refuse it, and the run says so first.
 */
export const placeholderApiKey = 'contracts-placeholder-api-key';

export async function runClientSession(context: SequenceContext): Promise<void> {
  // The config's credentials (the API key, the optional clientToken) go on every request; the probe leaves out the key.
  const withoutKey = context.credentials.filter(
    (credential) => !(credential.in === 'header' && credential.name.toLowerCase() === 'x-api-key'),
  );
  const client = createClientSessionClient({
    baseUrl: context.baseUrl,
    fetch: credentialFetch(context.capture.fetch, context.credentials, context.baseUrl),
  });
  const anonymous = createClientSessionClient({
    baseUrl: context.baseUrl,
    fetch: credentialFetch(context.capture.fetch, withoutKey, context.baseUrl),
  });

  const control = await observe(context, operation, () =>
    client.GET('/client-session', { params: { header: { 'X-API-VERSION': '2.4' } }, parseAs: 'text' }),
  );

  const noKey = await observe(
    context,
    operation,
    () => anonymous.GET('/client-session', { params: { header: { 'X-API-VERSION': '2.4' } }, parseAs: 'text' }),
    { probe: true },
  );
  judge(
    context,
    operation,
    'auth_required',
    requestRefused('auth_required', operation, 'without X-API-KEY', control.status, noKey.status),
  );

  const oldVersion = await observe(
    context,
    operation,
    // The typed client refuses any version but 2.4: this probe is deliberately outside the contract.
    () => client.GET('/client-session', { params: { header: { 'X-API-VERSION': '2.3' as '2.4' } }, parseAs: 'text' }),
    { probe: true },
  );
  judge(
    context,
    operation,
    'api_version_enforced',
    requestRefused('api_version_enforced', operation, 'with X-API-VERSION 2.3', control.status, oldVersion.status),
  );
}
