// createAjv's format checks where ajv-formats disagreed with the grammar defining the format (format-checks.ts,
// email-format.ts): each row's whole verdict, through the one ajv setup every command uses.
import { describe, expect, it } from 'vitest';
import { createAjv } from '../../src/core/create-ajv.js';

const ajv = createAjv();
const verdict = (format: string, value: string) => [format, value, ajv.validate({ type: 'string', format }, value)];

describe('format checks that follow the defining grammar', () => {
  it.each([
    // Found while generating formats: ajv-formats said the opposite of each of these.
    ['byte', '!!!\nYWJj', false, 'RFC 4648 §4: one base64 line among others is not base64'],
    ['uri-template', '{a.b}', true, 'RFC 6570 §2.3: varname = varchar *( ["."] varchar )'],
    ['relative-json-pointer', '0+1/a', true, 'draft-bhutton-relative-json-pointer-00 §3: index manipulation'],
    ['email', '"a b"@example.com', true, 'RFC 5321 §4.1.2: a Quoted-string local part'],
    ['duration', 'P1Y1D', false, 'RFC 3339 Appendix A: dur-year = 1*DIGIT "Y" [dur-month], no month skipped'],
    ['duration', 'PT1H1S', false, 'RFC 3339 Appendix A: dur-hour = 1*DIGIT "H" [dur-minute]'],
    ['byte', 'YWJj\n', false, 'RFC 4648 §3.1: no line feed'],
    ['uri-template', '{a..b}', false, 'RFC 6570 §2.3: one dot between varchars'],
    ['uri-template', '{a.}', false, 'RFC 6570 §2.3: no dot at a varname end'],
    ['uri-template', 'a\x7fb', false, 'RFC 6570 §2.1: DEL is a CTL'],
    ['relative-json-pointer', '0-1#', true, 'draft-bhutton-relative-json-pointer-00 §3: "-" positive-integer'],
    ['relative-json-pointer', '0+0', false, 'draft-bhutton-relative-json-pointer-00 §3: positive-integer'],
    ['email', 'a@[192.0.2.1]', true, 'RFC 5321 §4.1.3: an IPv4-address-literal'],
    ['email', 'a@[IPv6:2001:db8::1]', true, 'RFC 5321 §4.1.3: an IPv6-address-literal'],
    ['email', '"a\\"b"@example.com', true, 'RFC 5321 §4.1.2: a quoted-pairSMTP'],
    ['email', 'a@[x:y]', false, 'RFC 5321 §4.1.3: no Standardized-tag but IPv6 is registered'],
    ['email', '"a@example.com', false, 'RFC 5321 §4.1.2: an unclosed Quoted-string'],
    ['duration', 'p1d', true, 'RFC 5234 §2.3: ABNF strings are case-insensitive'],
  ])('%s %j is %s (%s)', (format, value, valid) => {
    expect(verdict(format, value)).toEqual([format, value, valid]);
  });

  it.each([
    ['byte', ['', 'YQ==', 'YWI=', 'YWJj', 'AAAA+/+/']],
    ['uri-template', ['/a/{b}', 'https://example.com/{+path}{?q,r*}', '{a:9999}', '{%41.b_1}', 'ü{x}', '']],
    ['relative-json-pointer', ['0', '1/a', '0#', '12/a~0b/~1', '3-2/0']],
    ['email', ['a@example.com', 'first.last+tag@sub.example.org', "!#$%&'*+-/=?^_`{|}~@a.b", 'a@localhost']],
    ['duration', ['P1D', 'PT1S', 'P1Y2M3DT4H5M6S', 'P1W', 'P1M2D', 'P1YT1H', 'PT1M2S']],
  ])('accepts valid %s values', (format, values) => {
    expect(values.map((value) => verdict(format, value))).toEqual(values.map((value) => [format, value, true]));
  });

  it.each([
    ['byte', ['a', 'YQ', 'ab?d', 'Y===', '=AAA', 'YQ==YQ==']],
    ['uri-template', ['{a', 'a}', '{a b}', '{}', '{a:0}', '{a:10000}', '%zz', 'a b', '{a,}', '{+}']],
    ['relative-json-pointer', ['-1', '01/a', '/a', '0#/a', '0/~2', '0+01', '0+', '']],
    ['email', ['a', 'a@', '@example.com', 'a b@example.com', 'a..b@x.io', '.a@x.io', 'a@-x.io', 'a@x..io', 'a@x.']],
    ['email', [`a@${'b'.repeat(64)}.io`, 'a@[256.0.0.1]', 'a@[IPv6:fe80::1%eth0]', 'a@x_y.io', '"a\nb"@x.io']],
    ['duration', ['P', 'PT', 'P1H', '1D', 'P1DT', 'P1W1D', 'P1D1Y', 'P1M1M', 'P1.5D', 'PT1S1M', 'P1Y1W']],
  ])('refuses invalid %s values', (format, values) => {
    expect(values.map((value) => verdict(format, value))).toEqual(values.map((value) => [format, value, false]));
  });

  it('checks a 100 KB hostile value of each format in linear time', () => {
    const big = 100_000;
    const values: [string, string][] = [
      ['byte', `${'A'.repeat(big)}!`],
      ['uri-template', `{${'a.'.repeat(big / 2)}!}`],
      ['uri-template', '{a,'.repeat(big / 3)],
      ['relative-json-pointer', `${'1'.repeat(big)}+${'2'.repeat(big)}/~`],
      ['email', `${'a.'.repeat(big / 2)}@${'b-'.repeat(big / 2)}`],
      ['email', `"${'\\"'.repeat(big / 2)}`],
      ['duration', `P${'1'.repeat(big)}Y${'1'.repeat(big)}M${'1'.repeat(big)}!`],
    ];
    const started = performance.now();
    expect(values.map(([format, value]) => verdict(format, value)[2])).toEqual(values.map(() => false));
    expect(performance.now() - started).toBeLessThan(500);
  });
});
