// apis[].webhooks in contracts.config.yaml: each signature scheme read into the convention the delivery checks
// use, with its defaults; a field a scheme does not take, or lacks, is one line at its place.
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readConfig } from '../../src/config/read-config.js';

async function read(webhooks: string[]): Promise<unknown> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'contracts-config-'));
  const file = path.join(dir, 'contracts.config.yaml');
  await writeFile(
    file,
    ['apis:', '  - name: shop', '    spec: shop.yaml', ...webhooks.map((l) => `    ${l}`), ''].join('\n'),
  );
  try {
    return readConfig(file, 'contracts.config.yaml').apis[0]!.webhooks;
  } catch (error) {
    return (error as Error & { toLine?: () => string }).toLine?.() ?? (error as Error).message;
  }
}

describe('apis[].webhooks', () => {
  it.each([
    [
      'an hmac scheme, prefix defaulting to none',
      ['webhooks:', '  signature: { scheme: hmac, header: X-Sig, algorithm: sha512, secretEnv: S }'],
      { signatures: [{ scheme: 'hmac', header: 'X-Sig', prefix: '', algorithm: 'sha512', secretEnv: 'S' }] },
    ],
    [
      'a standard-webhooks scheme, five minutes of tolerance by default',
      ['webhooks:', '  eventHeader: X-Topic', '  signature: { scheme: standard-webhooks, secretEnv: S }'],
      { eventHeader: 'X-Topic', signatures: [{ scheme: 'standard-webhooks', secretEnv: 'S', tolerance: 300 }] },
    ],
    [
      'a stripe scheme in Stripe-Signature by default, in a list',
      ['webhooks:', '  signature: [{ scheme: stripe, secretEnv: S, tolerance: 60 }]'],
      { signatures: [{ scheme: 'stripe', header: 'Stripe-Signature', secretEnv: 'S', tolerance: 60 }] },
    ],
    [
      'a stripe scheme given a prefix',
      ['webhooks:', '  signature: { scheme: stripe, secretEnv: S, prefix: "v1=" }'],
      'contracts.config.yaml:5:50: apis[0].webhooks.signature: the stripe scheme takes no "prefix"',
    ],
    [
      'an hmac scheme without its header',
      ['webhooks:', '  signature: { scheme: hmac, algorithm: sha256, secretEnv: S }'],
      'contracts.config.yaml:5:7: apis[0].webhooks.signature: the hmac scheme needs "header"',
    ],
    [
      'an unknown scheme',
      ['webhooks:', '  signature: { scheme: gpg, secretEnv: S }'],
      expect.stringContaining('apis[0].webhooks.signature'),
    ],
  ])('reads %s', async (_name, lines, want) => {
    expect(await read(lines)).toEqual(want);
  });
});
