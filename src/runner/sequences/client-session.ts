// The client-session sequence: retrieve the session (every per-exchange check, the placement rule among them),
// then the two requests the service must refuse, each judged beside the retrieve as its control.
import { createClientSessionClient } from '../../clients/client-session-client.js';
import { requestRefused } from '../../core/behaviour/index.js';
import { judge, observe, type SequenceContext } from '../sequence-context.js';

const operation = 'retrieveClientSession';
/**
 * Sent when CLIENT_SESSION_API_KEY is not set: the Prism mock and the sandbox only check that a key is present;
 * staging will refuse it, and the CLI says so before the run.
 */
export const placeholderApiKey = 'contracts-placeholder-api-key';

export async function runClientSession(context: SequenceContext): Promise<void> {
  const apiKey = context.env.CLIENT_SESSION_API_KEY || placeholderApiKey;
  const clientToken = context.env.CLIENT_SESSION_CLIENT_TOKEN;
  context.addSecret(apiKey);
  if (clientToken) context.addSecret(clientToken);

  const client = createClientSessionClient({ baseUrl: context.baseUrl, apiKey, fetch: context.capture.fetch });
  const anonymous = createClientSessionClient({ baseUrl: context.baseUrl, fetch: context.capture.fetch });
  const query = clientToken ? { clientToken } : {};

  const control = await observe(context, operation, () => client.GET('/client-session', { params: { header: { 'X-API-VERSION': '2.4' }, query }, parseAs: 'text' }));

  const noKey = await observe(context, operation, () => anonymous.GET('/client-session', { params: { header: { 'X-API-VERSION': '2.4' }, query }, parseAs: 'text' }), { probe: true });
  judge(context, operation, 'auth_required', requestRefused('auth_required', operation, 'without X-API-KEY', control.status, noKey.status));

  const oldVersion = await observe(
    context,
    operation,
    // The typed client refuses any version but 2.4: this probe is deliberately outside the contract.
    () => client.GET('/client-session', { params: { header: { 'X-API-VERSION': '2.3' as '2.4' }, query }, parseAs: 'text' }),
    { probe: true },
  );
  judge(context, operation, 'api_version_enforced', requestRefused('api_version_enforced', operation, 'with X-API-VERSION 2.3', control.status, oldVersion.status));
}
