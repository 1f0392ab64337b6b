// The seed's rules the stateful phase judges along its link-driven sequences, each against a server that breaks
// exactly that rule (tests/helpers/fault-server.ts): the check that owns the rule fails, under the operation it
// judges; against the same server without a fault, every one of them holds.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { startFaultServer, type Fault } from '../helpers/fault-server.js';
import { seedConfig } from '../helpers/paths.js';

interface Result {
  operation: string;
  check: string;
  status: string;
  reason?: string;
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'contracts-fuzz-rules-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function fuzz(fault: Fault | undefined): Promise<{ code: number; results: Result[]; stdout: string }> {
  const server = await startFaultServer({ faults: fault ? [fault] : [] });
  try {
    const file = path.join(dir, `${fault ?? 'none'}.json`);
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
        // The fault server delivers at once: a delivery that has not shown within 1.5 s is not coming.
        '--delivery-wait',
        '1500',
        '--base-url',
        server.url,
        '--report',
        `json:${file}`,
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
  } finally {
    await server.close();
  }
}

const rules: [Fault, string, string][] = [
  ['config_whole_hook', 'config_only', 'getWebhookConfig'],
  ['shared_config', 'shared_config_refused', 'createWebhook'],
  ['ping_wrong_event', 'ping_delivery', 'pingWebhook'],
  ['test_no_push', 'test_push_delivery', 'testPushWebhook'],
  ['redelivery_flag', 'redelivery_flag', 'redeliverWebhookDelivery'],
];

describe('the stateful phase judges the seed rules along its sequences', () => {
  it('holds every rule against a server that keeps them', async () => {
    const { results, stdout } = await fuzz(undefined);
    for (const [, check, operation] of rules) {
      expect(
        results.find((result) => result.check === check && result.operation === operation)?.status,
        `${check} on ${operation}\n${stdout}`,
      ).toBe('passed');
    }
  }, 90_000);

  it.each(rules)(
    'a server with fault %s fails %s on %s',
    async (fault, check, operation) => {
      const { code, results } = await fuzz(fault);
      expect(code).toBe(1);
      expect(results.find((result) => result.check === check && result.operation === operation)?.status).toBe('failed');
    },
    90_000,
  );
});
