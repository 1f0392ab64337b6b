import { describe, expect, it } from 'vitest';
import { Redactor } from '../../src/runner/redact.js';

describe('Redactor', () => {
  const cases: [string, { secrets: string[]; given: string; want: string }][] = [
    ['replaces every occurrence', { secrets: ['key-123456'], given: 'a key-123456 b key-123456', want: 'a [REDACTED] b [REDACTED]' }],
    ['replaces the URL-encoded form', { secrets: ['tok en/+'], given: 'url?t=tok%20en%2F%2B', want: 'url?t=[REDACTED]' }],
    ['replaces the longer secret whole when one contains another', { secrets: ['abcd', 'abcdefgh'], given: 'x abcdefgh y', want: 'x [REDACTED] y' }],
    ['replaces signature values', { secrets: [], given: 'X-Hub-Signature-256: sha256=0123456789abcdef0123456789abcdef', want: 'X-Hub-Signature-256: sha256=[REDACTED]' }],
    ['ignores values too short to be credentials', { secrets: ['a', ''], given: 'a cat', want: 'a cat' }],
  ];
  it.each(cases)('%s', (_name, { secrets, given, want }) => {
    const redactor = new Redactor();
    for (const secret of secrets) redactor.add(secret);
    expect(redactor.redact(given)).toBe(want);
  });
});
