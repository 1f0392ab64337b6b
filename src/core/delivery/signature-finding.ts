// A delivery_signature finding. `expected` says the signature's form, `actual` what was wrong with it: neither
// ever holds a signature, sent or computed, nor the secret.
import type { Finding } from '../finding.js';

export const signatureFinding = (operation: string, message: string, expected: unknown, actual: unknown): Finding => ({
  check: 'delivery_signature',
  severity: 'error',
  operation,
  instancePath: '',
  message,
  expected,
  actual,
});

/** A signature header sent for a hook with no secret: the value is a signature (or looks like one), never echoed. */
export function signedWithoutSecret(operation: string, header: string, value: string | undefined): Finding[] {
  return value === undefined
    ? []
    : [
        signatureFinding(
          operation,
          `${header} is sent, but the hook has no secret`,
          'no signature header',
          'a signature header',
        ),
      ];
}
