// The stateful phase with its embedded receiver: every ping, test and redelivery a sequence triggers is checked as
// it arrives (signature with the hook's secret, headers, payload schema), under the operation that triggered it.
// Against a deliverer that breaks one delivery rule (tests/helpers/fault-deliverer.ts), the check owning the rule
// fails; with --hook-url the deliveries go elsewhere and those checks are skipped with the reason.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { startSandbox } from '../../src/plugins/example-sandbox.js';
import { startFaultDeliverer, type DeliveryFault, type FaultDeliverer } from '../helpers/fault-deliverer.js';
import { seedConfig } from '../helpers/paths.js';

interface Result {
  operation: string;
  check: string;
  status: string;
  reason?: string;
}

let dir: string;
let deliverer: FaultDeliverer | undefined;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'contracts-fuzz-deliveries-'));
});
afterEach(async () => {
  await deliverer?.stop();
  deliverer = undefined;
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** One sequence (the canonical one) of the stateful phase, against a deliverer with `fault` (or a given target). */
async function fuzz(
  fault: DeliveryFault | undefined,
  extra: string[] = [],
  target?: FaultDeliverer,
): Promise<{ code: number; results: Result[]; stdout: string }> {
  deliverer = target ?? (await startFaultDeliverer(fault));
  const file = path.join(dir, `${fault ?? 'none'}-${extra.length}.json`);
  const out: string[] = [];
  const code = await main(
    [
      'fuzz',
      '--api',
      'repository-webhooks',
      '--phases',
      'stateful',
      '--max-examples',
      '5',
      '--seed',
      '1',
      '--rate',
      '0',
      '--base-url',
      deliverer.url,
      '--report',
      `json:${file}`,
      ...extra,
    ],
    {
      out: (line) => out.push(line),
      err: () => {},
      cwd: dir,
      env: { PATH: process.env.PATH, CONTRACTS_CONFIG: seedConfig },
    },
  );
  return {
    code,
    results: (JSON.parse(await readFile(file, 'utf8')) as { results: Result[] }).results,
    stdout: out.join('\n'),
  };
}

const deliveryChecks = ['delivery_signature', 'delivery_headers', 'delivery_payload_schema'];
const triggers = ['pingWebhook', 'testPushWebhook', 'redeliverWebhookDelivery'];

describe('the stateful phase checks the deliveries its sequences trigger', () => {
  it('judges signature, headers and payload of every ping, test and redelivery, all passing when the deliveries are right', async () => {
    const { code, results, stdout } = await fuzz(undefined);
    expect(code, stdout).toBe(0);
    for (const operation of triggers) {
      for (const check of deliveryChecks) {
        expect(
          results.find((result) => result.operation === operation && result.check === check)?.status,
          `${check} on ${operation}`,
        ).toBe('passed');
      }
    }
  }, 90_000);

  it.each([
    ['wrong-secret', 'delivery_signature'],
    ['no-delivery-header', 'delivery_headers'],
    ['payload-breaks-schema', 'delivery_payload_schema'],
  ] as [DeliveryFault, string][])(
    'fails %s deliveries on %s, under the operation that triggered them',
    async (fault, check) => {
      const { code, results } = await fuzz(fault);
      expect(code).toBe(1);
      expect(results.find((result) => result.operation === 'pingWebhook' && result.check === check)?.status).toBe(
        'failed',
      );
    },
    90_000,
  );

  it('skips the delivery checks, saying why, when --hook-url sends the deliveries elsewhere', async () => {
    const { results } = await fuzz(undefined, ['--hook-url', 'http://127.0.0.1:9/elsewhere']);
    for (const operation of triggers) {
      for (const check of deliveryChecks) {
        const result = results.find((candidate) => candidate.operation === operation && candidate.check === check);
        expect(result?.status).toBe('skipped');
        expect(result?.reason).toContain('--hook-url');
      }
    }
  }, 90_000);

  it('fails the delivery checks, saying why, when the target answers the ping but nothing reaches the receiver', async () => {
    // The sandbox behind a proxy that points every created hook at a loopback port where nothing listens.
    const sandbox = await startSandbox({ port: 0, host: '127.0.0.1' });
    const proxy = http.createServer(async (incoming, outgoing) => {
      const chunks: Buffer[] = [];
      for await (const chunk of incoming) chunks.push(chunk as Buffer);
      let body = Buffer.concat(chunks).toString('utf8');
      if (incoming.method === 'POST' && /\/hooks$/.test(incoming.url ?? '') && body) {
        const json = JSON.parse(body) as { config?: { url?: string } };
        if (json.config?.url)
          json.config.url = json.config.url.replace(/^http:\/\/127\.0\.0\.1:\d+/, 'http://127.0.0.1:9');
        body = JSON.stringify(json);
      }
      const headers = Object.fromEntries(
        Object.entries(incoming.headers)
          .filter(([name]) => !['host', 'content-length', 'connection'].includes(name))
          .map(([name, value]) => [name, String(value)]),
      );
      const response = await fetch(sandbox.url + (incoming.url ?? '/'), {
        method: incoming.method ?? 'GET',
        headers,
        ...(body ? { body } : {}),
      });
      const text = await response.text();
      outgoing.writeHead(response.status, {
        ...(response.headers.get('content-type') ? { 'content-type': response.headers.get('content-type')! } : {}),
      });
      outgoing.end(response.status === 204 || response.status === 202 ? undefined : text);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const target: FaultDeliverer = {
      url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
      stop: async () => {
        await new Promise<void>((resolve) => proxy.close(() => resolve()));
        await sandbox.stop();
      },
    };
    // The wait given: the default is check's 10000 ms since the option table (fuzz had drifted to 5000).
    const { code, results } = await fuzz(undefined, ['--delivery-wait', '5000'], target);
    expect(code).toBe(1);
    const signature = results.find(
      (result) => result.operation === 'pingWebhook' && result.check === 'delivery_signature',
    )!;
    expect(signature.status).toBe('failed');
    expect(signature.reason).toMatch(
      /no delivery arrived at the receiver within 5000 ms of the pingWebhook \(2xx\); nothing of this run reached the receiver at http:\/\/127\.0\.0\.1:\d+/,
    );
  }, 90_000);
});
