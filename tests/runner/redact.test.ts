import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Redactor } from '../../src/reports/redact.js';

const secret = 'ca"na&r<y>\\key\'-9d1e55';
const json = (text: string) => JSON.stringify(text).slice(1, -1);
const xml = (text: string) =>
  text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');

describe('Redactor', () => {
  const cases: [string, { secrets: string[]; given: string; want: string }][] = [
    [
      'replaces every occurrence',
      { secrets: ['key-123456'], given: 'a key-123456 b key-123456', want: 'a [REDACTED] b [REDACTED]' },
    ],
    [
      'replaces the URL-encoded form',
      { secrets: ['tok en/+'], given: 'url?t=tok%20en%2F%2B', want: 'url?t=[REDACTED]' },
    ],
    [
      'replaces the longer secret whole when one contains another',
      { secrets: ['abcd', 'abcdefgh'], given: 'x abcdefgh y', want: 'x [REDACTED] y' },
    ],
    [
      'replaces signature values',
      {
        secrets: [],
        given: 'X-Hub-Signature-256: sha256=0123456789abcdef0123456789abcdef',
        want: 'X-Hub-Signature-256: sha256=[REDACTED]',
      },
    ],
    ['ignores values too short to be credentials', { secrets: ['a', ''], given: 'a cat', want: 'a cat' }],
    // Issue 11 item 2: reports are redacted after rendering, so every encoding a renderer applies must be caught.
    [
      'replaces the JSON-escaped form, as a JSON report writes it',
      { secrets: [secret], given: `{"m":"${json(secret)}"}`, want: '{"m":"[REDACTED]"}' },
    ],
    [
      'replaces the XML-escaped form, as a JUnit report writes it',
      { secrets: [secret], given: `<failure message="${xml(secret)}"/>`, want: '<failure message="[REDACTED]"/>' },
    ],
    [
      'replaces a message quoting the JSON value, written into a JSON report',
      { secrets: [secret], given: json(`got "${json(secret)}"`), want: json('got "') + '[REDACTED]' + json('"') },
    ],
    [
      'replaces a message quoting the JSON value, written into a JUnit report',
      { secrets: [secret], given: xml(`got "${json(secret)}"`), want: 'got &quot;[REDACTED]&quot;' },
    ],
    [
      'replaces JSON escaped as Go writes it',
      { secrets: ['a&b<c>d-key'], given: '"a\\u0026b\\u003cc\\u003ed-key"', want: '"[REDACTED]"' },
    ],
    [
      'replaces JSON escaped as ensure_ascii writes it',
      { secrets: ['clé-secrète'], given: '"cl\\u00e9-secr\\u00E8te"', want: '"[REDACTED]"' },
    ],
    [
      'replaces the form-encoded form and lower-case percent escapes',
      { secrets: ['tok en/+'], given: 'a=tok+en%2f%2b', want: 'a=[REDACTED]' },
    ],
    [
      'replaces the form the URL serializer leaves in a query',
      { secrets: [secret], given: new URL(`http://h/?q=${secret}`).href, want: 'http://h/?q=[REDACTED]' },
    ],
    [
      'replaces the encoded form inside a JSON report',
      {
        secrets: [secret],
        given: JSON.stringify({ location: `http://h/x?seen=${encodeURIComponent(secret)}` }),
        want: '{"location":"http://h/x?seen=[REDACTED]"}',
      },
    ],
    // Issue 11 item 5: credentials in URLs nobody registered as a secret (a HAR capture).
    [
      'replaces the userinfo of a URL',
      {
        secrets: [],
        given: 'GET https://admin:password@api.example.com/x',
        want: 'GET https://[REDACTED]@api.example.com/x',
      },
    ],
    [
      'replaces every credential-like query parameter and keeps the others',
      {
        secrets: [],
        given:
          'https://h/a?client_secret=s1&X-Amz-Signature=abc123&refresh_token=r1&api-key=k1&X-Amz-Credential=AKIA%2F1&page=2&clientToken=c1&sig=x9&code=o1#f',
        want: 'https://h/a?client_secret=[REDACTED]&X-Amz-Signature=[REDACTED]&refresh_token=[REDACTED]&api-key=[REDACTED]&X-Amz-Credential=[REDACTED]&page=2&clientToken=[REDACTED]&sig=[REDACTED]&code=[REDACTED]#f',
      },
    ],
    [
      'replaces query credentials after an XML-escaped ampersand',
      { secrets: [], given: 'u?a=1&amp;access_token=t1&amp;b=2', want: 'u?a=1&amp;access_token=[REDACTED]&amp;b=2' },
    ],
    [
      'leaves text that is not a URL alone',
      {
        secrets: [],
        given: 'key "orderId" appears twice; monkey=business is text',
        want: 'key "orderId" appears twice; monkey=business is text',
      },
    ],
  ];
  it.each(cases)('%s', (_name, { secrets, given, want }) => {
    const redactor = new Redactor();
    for (const secret of secrets) redactor.add(secret);
    expect(redactor.redact(given)).toBe(want);
  });

  it('keeps a JSON report valid JSON when a redacted query value held an escaped quote', () => {
    const redactor = new Redactor();
    const report = JSON.stringify({ url: 'https://h/?token=a"b&page=1', other: 'x\\y' });
    expect(() => JSON.parse(redactor.redact(report))).not.toThrow();
    expect(redactor.redact(report)).toContain('token=[REDACTED]');
  });

  it('leaves no trace of any secret in JSON, JUnit or console renderings of text that quotes it', () => {
    // Secrets of any printable characters, with a tail that no encoding changes: the tail must vanish everywhere.
    const secrets = fc
      .string({ unit: fc.constantFrom(...'"&<>\\\'/ %+é😀\u2028abc'.split(/(?:)/u)), minLength: 1, maxLength: 12 })
      .map((head) => `${head}-TAIL9d1e55`);
    fc.assert(
      fc.property(secrets, (value) => {
        const redactor = new Redactor();
        redactor.add(value);
        const message = `value ${JSON.stringify(value)} at ${new URL(`http://h/x?q=${encodeURIComponent(value)}`).href}, raw ${value}`;
        // The console line, the JSON report and the JUnit report of a finding message.
        const renderings = [message, JSON.stringify({ message }), `<failure message="${xml(message)}"/>`];
        for (const text of renderings) expect(redactor.redact(text)).not.toContain('TAIL9d1e55');
      }),
      { numRuns: 300 },
    );
  });

  it('takes time linear in the text, however hostile, with several secrets of special characters', () => {
    const redactor = new Redactor();
    for (const value of ['canary"&<\\apikey-9d1e55', 'canary"&<\\token-41bb0c', 'canary"&<\\bearer-77aa31'])
      redactor.add(value);
    for (const unit of ['a.', 'canary"&<\\', 'canary\\"&amp;&lt;\\\\', 'http://a:b', '?aaaaaaaa', '&a=\\\\']) {
      // The best of five runs: the machine's other work (a CI run beside a corpus run, or beside helpers' test runs)
      // only ever adds time, and made a linear 4× cost 11× (81 ms against 7 ms) with three. Quadratic work stays 16×
      // in every run.
      const cost = (copies: number) => {
        const text = unit.repeat(copies);
        let best = Infinity;
        for (let run = 0; run < 5; run++) {
          const started = performance.now();
          redactor.redact(text);
          best = Math.min(best, performance.now() - started);
        }
        return best;
      };
      cost(2 ** 14);
      const small = cost(2 ** 17);
      const large = cost(2 ** 19);
      expect(large, unit).toBeLessThan(Math.max(10 * small, 50));
    }
  });
});
