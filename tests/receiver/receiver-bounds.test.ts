// startReceiver against a hostile sender on 127.0.0.1: what it keeps is bounded by the memory it holds, not by the
// bytes that arrived (a 1 MB payload of tiny objects parses to twenty times that), and idle sockets cannot lock real
// deliveries out.
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import v8 from 'node:v8';
import vm from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import { startReceiver, type Receiver } from '../../src/receiver/start-receiver.js';
import { retainedSize } from '../../src/receiver/retained-size.js';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

let receiver: Receiver | undefined;
const sockets: net.Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await receiver?.stop();
  receiver = undefined;
});

const headers = {
  'content-type': 'application/json',
  'user-agent': 'test',
  'x-service-delivery': '0b989ba4-242f-11e5-81e1-c7b6966d2516',
  'x-service-event': 'ping',
  'x-service-hook-id': '1',
};

/** Just under 1 MB of JSON that parses to 250,000 objects. */
const objectBomb = () => `{"zen":"z","hook_id":1,"junk":[${'{},'.repeat(249_990)}{}]}`;

function heapUsed(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

describe('startReceiver bounds what it keeps by memory', () => {
  it('keeps unsigned 1 MB deliveries of tiny objects within maxStoredBytes of heap, their parsed form counted', async () => {
    const bound = 40 * 1024 * 1024;
    receiver = await startReceiver({ port: 0, maxStoredBytes: bound });
    const body = objectBomb();
    const before = heapUsed();
    for (let index = 0; index < 12; index++) {
      const response = await fetch(receiver.url, { method: 'POST', headers, body });
      expect(response.status).toBe(200);
      await response.text();
    }
    const grown = heapUsed() - before;
    // Kept parsed, twelve of them would hold some 250 MB.
    expect(grown).toBeLessThan(2 * bound);
    expect(receiver.storedBytes).toBeLessThanOrEqual(bound);
    expect(receiver.dropped).toBeGreaterThan(0);
    expect(receiver.deliveries.at(-1)?.result.payload).toBeDefined();
  }, 30_000);

  it('counts each delivery at least at what its parsed payload takes on the heap', async () => {
    const text = objectBomb();
    const before = heapUsed();
    const kept = JSON.parse(text) as unknown;
    const taken = heapUsed() - before;
    expect(retainedSize(kept)).toBeGreaterThanOrEqual(taken);
  });

  it('keeps the verdict but not the payload of a delivery alone over the bound', async () => {
    receiver = await startReceiver({ port: 0, maxStoredBytes: 4 * 1024 * 1024 });
    const response = await fetch(receiver.url, { method: 'POST', headers, body: objectBomb() });
    expect(response.status).toBe(200);
    expect(receiver.deliveries[0]?.result.payload).toBeUndefined();
    expect(receiver.deliveries[0]?.result.event).toBe('ping');
    expect(receiver.storedBytes).toBeLessThanOrEqual(4 * 1024 * 1024);
  });

  it('keeps no payload when told to (receive): a 1 MB delivery then holds a few kilobytes', async () => {
    receiver = await startReceiver({ port: 0, keepPayloads: false });
    const response = await fetch(receiver.url, { method: 'POST', headers, body: objectBomb() });
    expect(response.status).toBe(200);
    const [delivery] = receiver.deliveries;
    expect(delivery?.result.payload).toBeUndefined();
    expect(delivery?.result.applied).toContain('delivery_payload_schema');
    expect(receiver.storedBytes).toBeLessThan(64 * 1024);
  });
});

async function openIdle(url: string, count: number): Promise<net.Socket[]> {
  const { port } = new URL(url);
  const opened: net.Socket[] = [];
  for (let index = 0; index < count; index++) {
    const socket = net.connect(Number(port), '127.0.0.1');
    socket.on('error', () => undefined);
    await new Promise((resolve) => socket.once('connect', resolve));
    sockets.push(socket);
    opened.push(socket);
  }
  // The server has accepted them all.
  await sleep(100);
  return opened;
}

describe('startReceiver under idle connections', () => {
  it('closes the longest idle of 64 idle sockets to take a real delivery', async () => {
    receiver = await startReceiver({ port: 0 });
    const idle = await openIdle(receiver.url, 64);
    const response = await fetch(receiver.url, { method: 'POST', headers, body: '{"zen":"z","hook_id":1}' });
    expect(response.status).toBe(200);
    await response.text();
    expect(receiver.deliveries).toHaveLength(1);
    await expect.poll(() => idle[0]!.destroyed || idle[0]!.readableEnded, { timeout: 2000 }).toBe(true);
    expect(idle.at(-1)!.readableEnded).toBe(false);
  });

  it('refuses a new connection only when every connection has a request in progress', async () => {
    receiver = await startReceiver({ port: 0, maxConnections: 2 });
    const busy = await openIdle(receiver.url, 2);
    // Each starts a delivery whose body never completes.
    for (const socket of busy)
      socket.write(`POST / HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{`);
    await sleep(100);
    const refused = await fetch(receiver.url, { method: 'POST', headers, body: '{}' }).then(
      () => 'answered',
      () => 'refused',
    );
    expect(refused).toBe('refused');
    expect(busy.every((socket) => !socket.readableEnded)).toBe(true);
  });
});
