// The generated HAR captures the har-throughput benchmark reads (both APIs, every 20th exchange breaking the contract).
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';

export /** Writes a HAR of `count` exchanges of both APIs; every 20th breaks the contract. Returns how many break it. */
async function writeCapture(file: string, count: number): Promise<number> {
  const out = createWriteStream(file);
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  const hook = (id: number) => ({
    type: 'Repository',
    id,
    name: 'web',
    active: true,
    events: ['push', 'pull_request'],
    config: { content_type: 'json', insecure_ssl: '0', url: 'https://example.com/webhook' },
    updated_at: '2026-11-21T10:00:00Z',
    created_at: '2026-11-21T10:00:00Z',
    url: `https://api.example.com/repos/octo/app/hooks/${id}`,
    test_url: `https://api.example.com/repos/octo/app/hooks/${id}/tests`,
    ping_url: `https://api.example.com/repos/octo/app/hooks/${id}/pings`,
    deliveries_url: `https://api.example.com/repos/octo/app/hooks/${id}/deliveries`,
    last_response: { code: null, status: 'unused', message: null },
  });
  const session = {
    customerId: 'c-1',
    orderId: 'o-1',
    currencyCode: 'EUR',
    amount: 1300,
    order: {
      lineItems: [{ itemId: 'i', description: 'd', amount: 1300, quantity: 1 }],
      paymentMethod: { vaultOnSuccess: false },
    },
  };
  let failures = 0;
  await write('{"log":{"version":"1.2","creator":{"name":"contracts-bench","version":"1"},"entries":[\n');
  for (let i = 0; i < count; i++) {
    const broken = i % 20 === 19;
    if (broken) failures++;
    const kind = i % 3;
    const entry =
      kind === 0
        ? {
            method: 'GET',
            url: `https://api.example.com/client-session?clientToken=t${i}`,
            status: 200,
            body: broken ? { ...session, currencyCode: 'XXX' } : session,
          }
        : kind === 1
          ? {
              method: 'GET',
              url: `https://api.example.com/repos/octo/app/hooks/${i}`,
              status: broken ? 418 : 200,
              body: hook(i),
            }
          : {
              method: 'POST',
              url: `https://api.example.com/repos/octo/app/hooks/${i}/pings`,
              status: 204,
              body: broken ? { unexpected: true } : undefined,
            };
    const text = entry.body === undefined ? '' : JSON.stringify(entry.body);
    await write(
      (i > 0 ? ',\n' : '') +
        JSON.stringify({
          startedDateTime: '2026-11-21T10:00:00.000Z',
          time: 12,
          request: {
            method: entry.method,
            url: entry.url,
            httpVersion: 'HTTP/1.1',
            headers: [{ name: 'accept', value: 'application/json' }],
            queryString: [],
            cookies: [],
            headersSize: -1,
            bodySize: 0,
          },
          response: {
            status: entry.status,
            statusText: '',
            httpVersion: 'HTTP/1.1',
            cookies: [],
            redirectURL: '',
            headersSize: -1,
            bodySize: text.length,
            headers: text
              ? [
                  { name: 'content-type', value: 'application/json; charset=utf-8' },
                  { name: 'content-length', value: String(text.length) },
                ]
              : [],
            content: { size: text.length, mimeType: 'application/json', ...(text ? { text } : {}) },
          },
          cache: {},
          timings: { send: 0, wait: 10, receive: 2 },
        }),
    );
  }
  await write('\n]}}\n');
  out.end();
  await once(out, 'close');
  return failures;
}
