// End to end: the full sequence with its embedded receiver against a deliverer that breaks one delivery rule at a
// time (tests/helpers/fault-deliverer.ts, the real sandbox behind a faulting relay). Without a fault every check
// passes and none is skipped; with each fault, the check that owns the rule fails.
import { afterEach, describe, expect, it } from 'vitest';
import type { CheckRun } from '../../src/reports/check-run.js';
import { CheckRunner } from '../../src/runner/run-check.js';
import { Redactor } from '../../src/reports/redact.js';
import { startFaultDeliverer, type DeliveryFault, type FaultDeliverer } from '../helpers/fault-deliverer.js';
import { repositoryWebhooksCheck } from '../../src/plugins/repository-webhooks/check/check-plugin.js';
import { seedProject } from '../../src/config/seed-project.js';

let deliverer: FaultDeliverer | undefined;
afterEach(async () => {
  await deliverer?.stop();
  deliverer = undefined;
});

async function runAgainst(fault: DeliveryFault | undefined): Promise<CheckRun> {
  deliverer = await startFaultDeliverer(fault);
  const runner = new CheckRunner({
    apis: [seedProject.api('repository-webhooks')],
    baseUrl: deliverer.url,
    timeoutMs: 10_000,
    retries: 0,
    env: {},
    redactor: new Redactor(),
    plugins: () => repositoryWebhooksCheck,
    settings: { owner: 'octo', repo: 'app', deliveryWaitMs: 5000 },
    receiver: { port: 0 },
  });
  return runner.run();
}

const failedChecks = (run: CheckRun) =>
  [...new Set(run.results.filter((result) => result.status === 'failed').map((result) => result.check))].sort();

/** Checks about deliveries: a fault in one delivery may show in several of them, and in no other check. */
const deliveryRelated = new Set([
  'delivery_signature',
  'delivery_headers',
  'delivery_payload_schema',
  'ping_delivered',
  'test_delivered',
  'redelivery_delivered',
  'delivery_record_matches',
  'delivery_request_headers',
]);

describe('delivery checks against a fault-injecting deliverer', () => {
  it('pass every delivery check, with nothing skipped, when the deliveries are right', async () => {
    const run = await runAgainst(undefined);
    expect(run.error).toBeUndefined();
    expect(failedChecks(run)).toEqual([]);
    expect(run.summary.skipped).toBe(0);
    const judged = new Set(run.results.map((result) => result.check));
    for (const check of [
      'delivery_signature',
      'delivery_headers',
      'delivery_payload_schema',
      'ping_delivered',
      'test_delivered',
      'redelivery_delivered',
      'delivery_record_matches',
    ]) {
      expect(judged, check).toContain(check);
    }
  }, 90_000);

  it.each([
    ['wrong-secret', 'delivery_signature'],
    ['sha1-missing', 'delivery_signature'],
    ['sha256-other-body', 'delivery_signature'],
    ['no-delivery-header', 'delivery_headers'],
    ['guid-mismatch', 'delivery_record_matches'],
    ['wrong-event', 'ping_delivered'],
    // The record then faithfully holds a payload that is no object, which its own schema refuses too.
    ['payload-breaks-schema', 'delivery_payload_schema', ['response_schema_conformance']],
    ['record-differs', 'delivery_record_matches'],
    ['test-delivers-unsubscribed', 'test_delivered'],
  ] as [DeliveryFault, string, string[]?][])(
    'a deliverer with fault %s fails %s',
    async (fault, check, alsoAllowed = []) => {
      const run = await runAgainst(fault);
      expect(run.error).toBeUndefined();
      const failed = failedChecks(run);
      expect(failed).toContain(check);
      for (const other of failed) expect([...deliveryRelated, ...alsoAllowed], `${other} failed too`).toContain(other);
      const result = run.results.find((candidate) => candidate.check === check && candidate.status === 'failed');
      expect(result?.reason, 'judged, not kept from being exercised').toBeUndefined();
    },
    90_000,
  );
});
