// `contracts validate --delivery`: one recorded webhook delivery, checked as `contracts receive` checks a live one.
import { createHmac } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { seedConfig } from '../helpers/paths.js';

const secret = 'delivery-secret-"&<\\-9f3a';
const body = JSON.stringify({
  action: 'opened',
  issue: { body: "I'm having a problem with this." },
  repository: { id: 456 },
});
const hmac = (algorithm: string, text: string) => createHmac(algorithm, secret).update(text).digest('hex');
const lines = (signedBody: string, drop: string[] = []) =>
  [
    'POST /hooks HTTP/1.1',
    'X-Service-Delivery: 0b989ba4-242f-11e5-81e1-c7b6966d2516',
    'X-Service-Event: issues',
    'X-Service-Hook-ID: 12345678',
    'X-Service-Hook-Installation-Target-ID: 456',
    'X-Service-Hook-Installation-Target-Type: repository',
    'User-Agent: Service-Hookshot/044aadd',
    'Content-Type: application/json',
    `X-Hub-Signature-256: sha256=${hmac('sha256', signedBody)}`,
    `X-Hub-Signature: sha1=${hmac('sha1', signedBody)}`,
  ]
    .filter((line) => !drop.some((name) => line.startsWith(`${name}:`)))
    .join('\r\n');

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'contracts-delivery-'));
  await writeFile(path.join(dir, 'body.json'), body);
  await writeFile(path.join(dir, 'good.txt'), lines(body));
  await writeFile(path.join(dir, 'other-body.txt'), lines(body.replace('opened', 'closed')));
  await writeFile(path.join(dir, 'no-guid.txt'), lines(body, ['X-Service-Delivery']));
  await writeFile(
    path.join(dir, 'good.json'),
    JSON.stringify(
      Object.fromEntries(
        lines(body)
          .split('\r\n')
          .slice(1)
          .map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim()]),
      ),
    ),
  );
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const validate = (headers: string, env: Record<string, string> = { WEBHOOK_SECRET: secret }, extra: string[] = []) =>
  runCli(['validate', '--delivery', '--headers', headers, '--body', 'body.json', ...extra], {
    cwd: dir,
    env: { CONTRACTS_CONFIG: seedConfig, ...env },
  });

describe('contracts validate --delivery', () => {
  it.each([
    ['header lines', 'good.txt'],
    ['a JSON object of headers', 'good.json'],
  ])('passes a conforming signed delivery given as %s', async (_name, file) => {
    const result = await validate(file);
    expect(result.stdout).toContain('✓ conforms (issuesDeliveryReceived');
    expect(result.code).toBe(0);
  });

  it('fails delivery_signature for a signature over another body, and prints neither secret nor signature', async () => {
    const result = await validate('other-body.txt');
    expect(result.stdout).toMatch(/✗ delivery_signature: /);
    expect(result.code).toBe(1);
    const all = result.stdout + result.stderr;
    expect(all).not.toContain(hmac('sha256', body.replace('opened', 'closed')));
    expect(all).not.toContain(secret);
    expect(all).not.toContain('delivery-secret');
  });

  it('fails delivery_headers for a missing X-Service-Delivery', async () => {
    const result = await validate('no-guid.txt');
    expect(result.stdout).toMatch(/✗ delivery_headers: X-Service-Delivery is missing/i);
    expect(result.code).toBe(1);
  });

  it('says signatures were not judged when the secret is not set', async () => {
    const result = await validate('good.txt', { WEBHOOK_SECRET: '' });
    expect(result.stderr).toContain('WEBHOOK_SECRET is not set: signatures were not judged');
    expect(result.code).toBe(0);
  });

  it('exits 2 with one line for missing --headers, or a flag that does not go with it', async () => {
    const missing = await runCli(['validate', '--delivery', '--body', 'body.json'], {
      cwd: dir,
      env: { CONTRACTS_CONFIG: seedConfig },
    });
    expect(missing.stderr).toContain('--delivery needs --headers FILE');
    expect(missing.code).toBe(2);
    const mixed = await validate('good.txt', undefined, ['--status', '200']);
    expect(mixed.stderr).toContain('--delivery checks one webhook delivery: it does not go with --status');
    expect(mixed.code).toBe(2);
  });
});
