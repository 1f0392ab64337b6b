// delivery_signature: a delivery to a hook with a secret carries X-Hub-Signature-256 and X-Hub-Signature, both
// verifying over the raw body with that secret; a hook without a secret gets neither (webhooks seed: events 3).
// The seed does not show how signatures are computed: they are checked as hex HMACs (the convention
// @octokit/webhooks-methods implements), as the spec's header descriptions say. Both compares are constant-time.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { verify } from '@octokit/webhooks-methods';
import type { Finding } from '../finding.js';
import { deliveryHeader, type ReceivedDelivery } from './received-delivery.js';

export const signatureHeaders = ['X-Hub-Signature-256', 'X-Hub-Signature'] as const;

export async function deliverySignature(
  operation: string,
  delivery: ReceivedDelivery,
  secret: string | null,
  text: string | undefined,
): Promise<Finding[]> {
  const findings: Finding[] = [];
  const sha256 = deliveryHeader(delivery, 'X-Hub-Signature-256');
  const sha1 = deliveryHeader(delivery, 'X-Hub-Signature');
  if (secret === null) {
    for (const [name, value] of [
      ['X-Hub-Signature-256', sha256],
      ['X-Hub-Signature', sha1],
    ] as const) {
      // The value is a signature (or looks like one): it is never echoed.
      if (value !== undefined)
        findings.push(
          finding(
            operation,
            `${name} is sent, but the hook has no secret`,
            'no signature header',
            'a signature header',
          ),
        );
    }
    return findings;
  }
  if (sha256 === undefined)
    findings.push(
      finding(
        operation,
        'X-Hub-Signature-256 is missing, but the hook has a secret',
        'sha256=<hex HMAC-SHA256 of the body>',
        null,
      ),
    );
  else if (!(await verifySha256(secret, delivery.body, text, sha256))) {
    findings.push(
      finding(
        operation,
        "X-Hub-Signature-256 does not verify over the body with the hook's secret",
        'sha256=<hex HMAC-SHA256 of the body>',
        'a signature that does not verify',
      ),
    );
  }
  if (sha1 === undefined)
    findings.push(
      finding(
        operation,
        'X-Hub-Signature is missing, but the hook has a secret',
        'sha1=<hex HMAC-SHA1 of the body>',
        null,
      ),
    );
  else if (!verifyHmac('sha1', secret, delivery.body, sha1)) {
    findings.push(
      finding(
        operation,
        "X-Hub-Signature does not verify over the body with the hook's secret",
        'sha1=<hex HMAC-SHA1 of the body>',
        'a signature that does not verify',
      ),
    );
  }
  return findings;
}

/**
 * @octokit/webhooks-methods verifies a string; `text` is the body decoded as strict UTF-8, so its bytes are the
 * body's. A body that is empty or not UTF-8 (the library refuses the one and would re-encode the other) is
 * verified over its raw bytes instead.
 */
async function verifySha256(
  secret: string,
  body: Uint8Array,
  text: string | undefined,
  signature: string,
): Promise<boolean> {
  if (text !== undefined && text.length > 0) {
    try {
      return await verify(secret, text, signature);
    } catch {
      return false;
    }
  }
  return verifyHmac('sha256', secret, body, signature);
}

function verifyHmac(algorithm: 'sha1' | 'sha256', secret: string, body: Uint8Array, signature: string): boolean {
  const expected = Buffer.from(`${algorithm}=${createHmac(algorithm, secret).update(body).digest('hex')}`);
  const actual = Buffer.from(signature);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

const finding = (operation: string, message: string, expected: unknown, actual: unknown): Finding => ({
  check: 'delivery_signature',
  severity: 'error',
  operation,
  instancePath: '',
  message,
  expected,
  actual,
});
