// Type-level tests: the typed clients refuse what the specs do not allow.
import { describe, expectTypeOf, it } from 'vitest';
import { createClientSessionClient, type ClientSession } from '../../../src/plugins/client-session/client-session-client.js';
import { createRepositoryWebhooksClient, type Webhook } from '../../../src/plugins/repository-webhooks/repository-webhooks-client.js';

const session = createClientSessionClient({ baseUrl: 'http://127.0.0.1:4010', apiKey: 'key' });
const hooks = createRepositoryWebhooksClient({ baseUrl: 'http://127.0.0.1:4011' });

describe('typed clients', () => {
  it('types the client session response, with the placement rule and currency codes', () => {
    const pmOnTop: ClientSession = { paymentMethod: { vaultOnSuccess: false }, currencyCode: 'EUR' };
    const pmUnderOrder: ClientSession = { order: { paymentMethod: { vaultOn3DS: true } } };
    expectTypeOf(pmOnTop).toMatchTypeOf<ClientSession>();
    expectTypeOf(pmUnderOrder).toMatchTypeOf<ClientSession>();
    // @ts-expect-error a currency code outside the seed's list
    const wrongCurrency: ClientSession = { paymentMethod: {}, currencyCode: 'XXX' };
    // @ts-expect-error paymentMethod in neither place
    const noPaymentMethod: ClientSession = { orderId: 'o-1' };
    void wrongCurrency;
    void noPaymentMethod;
  });

  it('requires X-API-VERSION 2.4 on retrieveClientSession', () => {
    void session.GET('/client-session', { params: { header: { 'X-API-VERSION': '2.4' }, query: { clientToken: 't' } } });
    // @ts-expect-error a version other than 2.4
    void session.GET('/client-session', { params: { header: { 'X-API-VERSION': '2.3' } } });
    // @ts-expect-error the header is required
    void session.GET('/client-session', { params: {} });
  });

  it('refuses a string hook_id, a path the spec does not have, and an unknown create field', () => {
    void hooks.GET('/repos/{owner}/{repo}/hooks/{hook_id}', { params: { path: { owner: 'o', repo: 'r', hook_id: 42 } } });
    // @ts-expect-error hook_id is an integer
    void hooks.GET('/repos/{owner}/{repo}/hooks/{hook_id}', { params: { path: { owner: 'o', repo: 'r', hook_id: '42' } } });
    // @ts-expect-error not a path of the spec
    void hooks.GET('/repos/{owner}/{repo}/hooks/{hook_id}/test', { params: { path: { owner: 'o', repo: 'r', hook_id: 42 } } });
    void hooks.POST('/repos/{owner}/{repo}/hooks', { params: { path: { owner: 'o', repo: 'r' } }, body: { name: 'web' } });
    // @ts-expect-error config.url is required on update
    void hooks.PATCH('/repos/{owner}/{repo}/hooks/{hook_id}', { params: { path: { owner: 'o', repo: 'r', hook_id: 1 } }, body: { config: { content_type: 'json' } } });
  });

  it('types responses from the spec', async () => {
    const { data } = await hooks.GET('/repos/{owner}/{repo}/hooks/{hook_id}', { params: { path: { owner: 'o', repo: 'r', hook_id: 1 } } });
    expectTypeOf(data).toEqualTypeOf<Webhook | undefined>();
    const created = await hooks.POST('/repos/{owner}/{repo}/hooks', { params: { path: { owner: 'o', repo: 'r' } }, body: {} });
    expectTypeOf(created.data).toEqualTypeOf<Webhook | undefined>();
  });
});
