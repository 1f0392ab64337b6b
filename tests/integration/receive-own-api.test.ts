// `contracts receive` and `contracts validate --delivery` in a user's project: its config lists only its own API,
// whose OpenAPI 3.1 `webhooks` the deliveries are held to, under the signature scheme its config sets.
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { root } from '../helpers/paths.js';
import { runCli } from '../helpers/run-cli.js';
import { created, schemes, signers, webhooksProject } from '../helpers/webhooks-project.js';

type Scheme = keyof typeof schemes;
const names = Object.keys(schemes) as Scheme[];

const headerLines = (headers: Record<string, string>) =>
  Object.entries({ 'Content-Type': 'application/json', ...headers })
    .map(([name, value]) => `${name}: ${value}`)
    .join('\n');

/** validate --delivery in `dir` on a delivery with `headers` and `body`, with SHOP_SECRET set to `secret`. */
async function validate(dir: string, headers: Record<string, string>, body = created, secret?: string) {
  const stem = `d${Math.random().toString(36).slice(2)}`;
  await writeFile(path.join(dir, `${stem}.txt`), headerLines(headers));
  await writeFile(path.join(dir, `${stem}.json`), body);
  return runCli(['validate', '--delivery', '--headers', `${stem}.txt`, '--body', `${stem}.json`], {
    cwd: dir,
    env: secret === undefined ? {} : { SHOP_SECRET: secret },
  });
}

const noSecretsIn = (text: string, scheme: Scheme, headers: Record<string, string>) => {
  for (const value of [schemes[scheme].right, schemes[scheme].wrong, schemes[scheme].right.replace(/^whsec_/, '')])
    expect(text).not.toContain(value);
  for (const value of Object.values(headers)) expect(text).not.toContain(value.replace(/^(sha256=|v1,|t=\d+,v1=)/, ''));
};

describe('validate --delivery in a project whose config lists only its own API', () => {
  it.each(names)('under the %s scheme, passes a right signature and fails a wrong one', async (scheme) => {
    const dir = await webhooksProject([...schemes[scheme].config]);
    const rightHeaders = signers[scheme](schemes[scheme].right, created);
    const wrongHeaders = signers[scheme](schemes[scheme].wrong, created);
    const [right, wrong] = await Promise.all([
      validate(dir, rightHeaders, created, schemes[scheme].right),
      validate(dir, wrongHeaders, created, schemes[scheme].right),
    ]);
    expect([right.code, right.stdout.trim()]).toEqual([
      0,
      '✓ conforms (orderCreated: 3 checks; by its payload, which only this webhook accepts)',
    ]);
    expect(wrong.code).toBe(1);
    expect(wrong.stdout).toMatch(/^✗ delivery_signature: /m);
    expect(right.stderr + wrong.stderr).not.toContain('internal error');
    noSecretsIn(right.stdout + right.stderr + wrong.stdout + wrong.stderr, scheme, wrongHeaders);
    noSecretsIn(right.stdout + wrong.stdout, scheme, rightHeaders);
  });

  it('fails a payload that breaks its webhook schema, naming the webhook by the configured event header', async () => {
    const dir = await webhooksProject(['webhooks:', '  eventHeader: X-Shop-Topic']);
    const broken = JSON.stringify({ type: 'order.created', order: { id: 'o-1', total: -5 } });
    const result = await validate(dir, { 'X-Shop-Topic': 'orderCreated' }, broken);
    expect(result.code).toBe(1);
    expect(result.stdout.trim().split('\n')).toEqual([
      '✗ does not conform (orderCreated; by X-Shop-Topic)',
      '✗ delivery_payload_schema: /order/total must be >= 0',
    ]);
  });

  it('without a scheme, says signatures were not judged and exits by the payload alone', async () => {
    const dir = await webhooksProject();
    const good = await validate(dir, { 'X-Shop-Signature': 'sha256=00' }, created, 'shop-hmac-secret-4711');
    expect([good.code, good.stderr.trim()]).toEqual([
      0,
      'contracts validate: the config sets no signature scheme for shop (apis[].webhooks.signature): signatures were not judged',
    ]);
    const bad = await validate(dir, {}, JSON.stringify({ type: 'order.shipped' }));
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain(
      '✗ delivery_payload_schema: the payload matches no webhook documenting application/json',
    );
  });
});

/** Runs `receive --count 2` in `dir`, posts the two deliveries over loopback, and returns what it printed. */
async function receiveTwo(dir: string, env: Record<string, string>, deliveries: Record<string, string>[]) {
  const child = spawn(
    process.execPath,
    [path.join(root, 'bin/contracts.js'), 'receive', '--port', '0', '--count', '2'],
    {
      cwd: dir,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /Receiving webhook deliveries at (\S+)/.exec(stdout);
      if (match) resolve(match[1]!);
    });
    child.once('exit', () => reject(new Error(`receive exited early: ${stderr}`)));
  });
  const statuses: number[] = [];
  for (const headers of deliveries) {
    const response = await fetch(url, {
      method: 'POST',
      body: created,
      headers: { 'content-type': 'application/json', ...headers },
    });
    statuses.push(response.status);
    await response.text();
  }
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { code, stdout, stderr, statuses };
}

describe('receive in a project whose config lists only its own API', () => {
  it.each(names)(
    'under the %s scheme, passes a right signature and fails a wrong one, posted over loopback',
    async (scheme) => {
      const dir = await webhooksProject([...schemes[scheme].config]);
      const right = signers[scheme](schemes[scheme].right, created);
      const wrong = signers[scheme](schemes[scheme].wrong, created);
      const run = await receiveTwo(dir, { SHOP_SECRET: schemes[scheme].right }, [right, wrong]);
      expect(run.statuses).toEqual([200, 200]);
      expect(run.code).toBe(1);
      expect(run.stdout).toContain('for shop (signatures checked with SHOP_SECRET)');
      expect(run.stdout).toMatch(
        /^✓ orderCreated → 200: delivery_signature, delivery_headers, delivery_payload_schema held$/m,
      );
      expect(run.stdout).toMatch(/^✗ orderCreated → 200\n\s+delivery_signature: /m);
      expect(run.stderr).not.toContain('internal error');
      noSecretsIn(run.stdout + run.stderr, scheme, wrong);
      noSecretsIn(run.stdout + run.stderr, scheme, right);
    },
  );

  it('without a scheme, says at start and at exit that signatures are not judged', async () => {
    const dir = await webhooksProject();
    const run = await receiveTwo(dir, {}, [{}, { 'X-Shop-Signature': 'sha256=00' }]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      'for shop (the config sets no signature scheme for shop (apis[].webhooks.signature): signatures are not judged)',
    );
    expect(run.stdout).toContain(
      'Signatures were not judged: the config sets no signature scheme for shop (apis[].webhooks.signature).',
    );
  });
});
