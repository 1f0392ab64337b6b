// The README's typed-client example, run by its test: `npx contracts mock` in one terminal, then
// `CLIENT_SESSION_API_KEY=any-key npx tsx examples/typed-client.ts` (tsx runs it without checking types;
// `npx tsc -p examples` checks them).
import { createClientSessionClient } from '../src/plugins/client-session/client-session-client.js';
import { createRepositoryWebhooksClient } from '../src/plugins/repository-webhooks/repository-webhooks-client.js';

const sessions = createClientSessionClient({
  baseUrl: 'http://127.0.0.1:4010',
  apiKey: process.env.CLIENT_SESSION_API_KEY,
});
const { data, response } = await sessions.GET('/client-session', {
  params: { header: { 'X-API-VERSION': '2.4' }, query: { clientToken: 'demo-client-token' } },
});
if (data === undefined) {
  // Without a key the mock answers 401, as the real service would.
  console.error(
    `GET /client-session answered ${response.status}${process.env.CLIENT_SESSION_API_KEY ? '' : ': is CLIENT_SESSION_API_KEY set?'}`,
  );
  process.exit(1);
}
console.log(`client session ${data.orderId}: ${data.amount} ${data.currencyCode}`);

const hooks = createRepositoryWebhooksClient({ baseUrl: 'http://127.0.0.1:4011', token: process.env.WEBHOOKS_TOKEN });
const created = await hooks.POST('/repos/{owner}/{repo}/hooks', {
  params: { path: { owner: 'octo', repo: 'app' } },
  body: { name: 'web' },
});
console.log(`created webhook ${created.data?.id} (${created.response.status})`);
