// DeliveryWatch: tells this run's hooks apart by their URL, holds each to its secret, and stops waiting long once
// nothing of the run has arrived at all (a target that cannot reach the receiver).
import { createHmac } from 'node:crypto';
import { sign } from '@octokit/webhooks-methods';
import { afterEach, describe, expect, it } from 'vitest';
import { startReceiver, type Receiver } from '../../../src/receiver/start-receiver.js';
import { DeliveryWatch } from '../../../src/plugins/repository-webhooks/check/delivery-watch.js';

let receiver: Receiver | undefined;
afterEach(async () => {
  await receiver?.stop();
  receiver = undefined;
});

async function start(): Promise<DeliveryWatch> {
  let watch: DeliveryWatch | undefined;
  receiver = await startReceiver({ port: 0, ...DeliveryWatch.receiverOptions(() => watch) });
  watch = new DeliveryWatch(receiver);
  return watch;
}

const ping = async (url: string, key: string | null) => {
  const body = '{"zen":"z"}';
  await fetch(url, {
    method: 'POST',
    body,
    headers: {
      'content-type': 'application/json',
      'user-agent': 't',
      'x-service-delivery': '0b989ba4-242f-11e5-81e1-c7b6966d2516',
      'x-service-event': 'ping',
      'x-service-hook-id': '1',
      'x-service-hook-installation-target-id': '2',
      'x-service-hook-installation-target-type': 'repository',
      ...(key === null
        ? {}
        : {
            'x-hub-signature-256': await sign(key, body),
            'x-hub-signature': `sha1=${createHmac('sha1', key).update(body).digest('hex')}`,
          }),
    },
  });
};

describe('DeliveryWatch', () => {
  it("holds each hook's deliveries to that hook's secret, or to none", async () => {
    const watch = await start();
    watch.expect('run=1&hook=a', { secret: null });
    watch.expect('run=1&hook=b', { secret: 'secret-of-b-1234' });
    await ping(`${watch.receiver.url}/x?run=1&hook=a`, null);
    await ping(`${watch.receiver.url}/x?run=1&hook=b`, 'secret-of-b-1234');
    await ping(`${watch.receiver.url}/x?run=1&hook=a`, 'secret-of-b-1234');
    const checksFailed = watch
      .since('run=1', 0)
      .map((delivery) => delivery.result.findings.map((finding) => finding.check));
    expect(checksFailed).toEqual([[], [], ['delivery_signature', 'delivery_signature']]);
    expect(watch.since('run=1&hook=b', 0)).toHaveLength(1);
  });

  it('cuts later waits short once a full wait brought nothing and nothing of the run ever arrived', async () => {
    const watch = await start();
    watch.expect('run=2&hook=a', { secret: null });
    expect(await watch.next('run=2&hook=a', 0, 1500)).toBeUndefined();
    const started = Date.now();
    expect(await watch.next('run=2&hook=a', 0, 30_000)).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(15_000);
  }, 60_000);

  it('waits in full again once something of the run arrived', async () => {
    const watch = await start();
    watch.expect('run=3&hook=a', { secret: null });
    expect(await watch.next('run=3&hook=a', 0, 500)).toBeUndefined();
    await ping(`${watch.receiver.url}/x?run=3&hook=a`, null);
    const mark = watch.mark();
    const later = watch.next('run=3&hook=a', mark, 20_000);
    setTimeout(() => void ping(`${watch.receiver.url}/x?run=3&hook=a`, null), 1500);
    expect((await later)?.seq).toBe(mark + 1);
  }, 60_000);
});
