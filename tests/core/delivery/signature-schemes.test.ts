// Each signature scheme an API's config can set, against a spec of its own (no example API): a delivery signed as
// the scheme's documentation says verifies; another secret, another body, a stale timestamp or a missing header
// is one delivery_signature finding, whose record carries neither the secret nor a signature.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkDelivery, compileDeliveryContract, type DeliveryContract } from '../../../src/core/delivery/index.js';
import type { DeliveryConvention, SignatureScheme } from '../../../src/core/delivery/delivery-convention.js';
import { loadSpec } from '../../../src/core/load-spec.js';
import { created, schemes, signers, webhooksProject } from '../../helpers/webhooks-project.js';

const now = 1_764_300_000_000;
const seconds = now / 1000;
const conventions: Record<keyof typeof schemes, SignatureScheme> = {
  hmac: { scheme: 'hmac', header: 'X-Shop-Signature', prefix: 'sha256=', algorithm: 'sha256', secretEnv: 'S' },
  'standard-webhooks': { scheme: 'standard-webhooks', secretEnv: 'S', tolerance: 300 },
  stripe: { scheme: 'stripe', header: 'Stripe-Signature', secretEnv: 'S', tolerance: 300 },
};

let file: string;
beforeAll(async () => {
  const dir = await webhooksProject();
  file = path.join(dir, 'shop.yaml');
  await writeFile(path.join(dir, 'unused'), '');
});

async function contractFor(scheme: SignatureScheme): Promise<DeliveryContract> {
  const convention: DeliveryConvention = { signatures: [scheme] };
  return compileDeliveryContract(await loadSpec(file), convention);
}

function sign(name: keyof typeof schemes, secret: string, body: string, timestamp = seconds): Record<string, string> {
  const headers = name === 'hmac' ? signers.hmac(secret, body) : signers[name](secret, body, timestamp);
  return Object.fromEntries(Object.entries(headers).map(([key, value]) => [key.toLowerCase(), value]));
}

const judge = async (name: keyof typeof schemes, headers: Record<string, string>, body = created) =>
  checkDelivery(
    await contractFor(conventions[name]),
    { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: Buffer.from(body) },
    { secrets: { S: schemes[name].right }, now },
  );

const signatureFindings = (result: Awaited<ReturnType<typeof judge>>) =>
  result.findings.filter((finding) => finding.check === 'delivery_signature');

describe.each(Object.keys(schemes) as (keyof typeof schemes)[])('the %s scheme', (name) => {
  it('passes a delivery signed with the right secret', async () => {
    const result = await judge(name, sign(name, schemes[name].right, created));
    expect(result.applied).toEqual(['delivery_signature', 'delivery_headers', 'delivery_payload_schema']);
    expect(result.findings).toEqual([]);
  });

  it('fails a delivery signed with another secret, naming neither secret nor signature', async () => {
    const headers = sign(name, schemes[name].wrong, created);
    const findings = signatureFindings(await judge(name, headers));
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ check: 'delivery_signature', severity: 'error', operation: 'orderCreated' });
    const text = JSON.stringify(findings);
    for (const value of [schemes[name].right, schemes[name].wrong, ...Object.values(headers)])
      expect(text).not.toContain(value.replace(/^(sha256=|v1,|t=)/, '').slice(0, 20));
  });

  it('fails a delivery whose body is not the one signed', async () => {
    const findings = signatureFindings(await judge(name, sign(name, schemes[name].right, `${created} `)));
    expect(findings.map((finding) => finding.actual)).toEqual(['a signature that does not verify']);
  });

  it('fails a delivery without its signature header', async () => {
    const findings = signatureFindings(await judge(name, {}));
    expect(findings.map((finding) => finding.actual)).toEqual([null]);
  });
});

describe('timestamped schemes', () => {
  it.each([
    ['standard-webhooks', seconds - 301, 'webhook-timestamp is 301 s in the past, beyond the 300 s tolerance'],
    ['standard-webhooks', seconds + 301, 'webhook-timestamp is 301 s in the future, beyond the 300 s tolerance'],
    ['stripe', seconds - 301, "Stripe-Signature's t= is 301 s old, beyond the 300 s tolerance"],
  ] as const)('the %s scheme refuses a timestamp outside the tolerance (%d)', async (name, timestamp, message) => {
    const findings = signatureFindings(await judge(name, sign(name, schemes[name].right, created, timestamp)));
    expect(findings.map((finding) => finding.message)).toEqual([message]);
  });

  it('accepts a Standard Webhooks signature list where one v1 entry verifies (a secret rotating)', async () => {
    const headers = sign('standard-webhooks', schemes['standard-webhooks'].right, created);
    const other = sign('standard-webhooks', schemes['standard-webhooks'].wrong, created)['webhook-signature'];
    headers['webhook-signature'] = `${other} v1a,c2lnbmF0dXJl ${headers['webhook-signature']}`;
    expect(signatureFindings(await judge('standard-webhooks', headers))).toEqual([]);
  });

  it('accepts a Stripe header with a v0 and two v1 values, one verifying', async () => {
    const right = sign('stripe', schemes.stripe.right, created)['stripe-signature']!;
    const wrong = sign('stripe', schemes.stripe.wrong, created)['stripe-signature']!;
    const header = `t=${seconds},v0=abc,v1=${wrong.split('v1=')[1]},${right.slice(right.indexOf('v1='))}`;
    expect(signatureFindings(await judge('stripe', { 'stripe-signature': header }))).toEqual([]);
  });
});

describe('no scheme', () => {
  it('leaves signatures unjudged: delivery_signature is not applied', async () => {
    const contract = compileDeliveryContract(await loadSpec(file), { signatures: [] });
    const result = await checkDelivery(
      contract,
      { method: 'POST', headers: { 'content-type': 'application/json' }, body: Buffer.from(created) },
      { secrets: { S: 'x-secret-value' } },
    );
    expect(result.applied).toEqual(['delivery_headers', 'delivery_payload_schema']);
  });
});
