// config.url rules: absolute http(s) only, never the sandbox itself under any of the names that reach it.
import { describe, expect, it } from 'vitest';
import { configUrlProblem, type ListenAddress } from '../../../src/plugins/repository-webhooks/sandbox/hook-url.js';

const loopback: ListenAddress = { host: '127.0.0.1', port: 4020 };
const anyAddress: ListenAddress = { host: '0.0.0.0', port: 4020 };
const anyV6: ListenAddress = { host: '::', port: 4020 };
const ipv6Loopback: ListenAddress = { host: '::1', port: 4020 };
const lan: ListenAddress = { host: '192.0.2.7', port: 4020 };
const onPort80: ListenAddress = { host: '127.0.0.1', port: 80 };

describe('configUrlProblem', () => {
  const refused: [string, { url: unknown; self: ListenAddress; want: RegExp }][] = [
    ['an empty string', { url: '', self: loopback, want: /absolute http or https URL/ }],
    ['a relative path', { url: '/hook', self: loopback, want: /absolute http or https URL/ }],
    ['a file: URL', { url: 'file:///etc/passwd', self: loopback, want: /http or https URL, not file:/ }],
    ['a javascript: URL', { url: 'javascript:alert(1)', self: loopback, want: /not javascript:/ }],
    ['a data: URL', { url: 'data:text/plain,hi', self: loopback, want: /not data:/ }],
    ['an ftp: URL', { url: 'ftp://example.com/x', self: loopback, want: /not ftp:/ }],
    ['a number', { url: 42, self: loopback, want: /must be a string/ }],
    [
      'a URL with a user and password',
      { url: 'http://user:pass@example.com/h', self: loopback, want: /user name or password/ },
    ],
    [
      'the ping URL of the sandbox',
      { url: 'http://127.0.0.1:4020/repos/octo/app/hooks/1/pings', self: loopback, want: /sandbox itself/ },
    ],
    ['localhost', { url: 'http://localhost:4020/x', self: loopback, want: /sandbox itself/ }],
    ['LOCALHOST with a trailing dot', { url: 'http://LOCALHOST.:4020/x', self: loopback, want: /sandbox itself/ }],
    ['a name under .localhost', { url: 'http://app.localhost:4020/x', self: loopback, want: /sandbox itself/ }],
    ['another 127/8 address', { url: 'http://127.0.0.2:4020/x', self: loopback, want: /sandbox itself/ }],
    ['127.1 (short form)', { url: 'http://127.1:4020/x', self: loopback, want: /sandbox itself/ }],
    ['a decimal IPv4 loopback', { url: 'http://2130706433:4020/x', self: loopback, want: /sandbox itself/ }],
    ['[::1]', { url: 'http://[::1]:4020/x', self: loopback, want: /sandbox itself/ }],
    ['an IPv4-mapped loopback', { url: 'http://[::ffff:127.0.0.1]:4020/x', self: loopback, want: /sandbox itself/ }],
    ['0.0.0.0', { url: 'http://0.0.0.0:4020/x', self: loopback, want: /sandbox itself/ }],
    [
      'loopback when listening on any address',
      { url: 'http://127.0.0.1:4020/x', self: anyAddress, want: /sandbox itself/ },
    ],
    ['[::] when listening on :: ', { url: 'http://[::]:4020/x', self: anyV6, want: /sandbox itself/ }],
    ['127.0.0.1 when listening on ::1', { url: 'http://127.0.0.1:4020/x', self: ipv6Loopback, want: /sandbox itself/ }],
    ['the address it listens on', { url: 'https://192.0.2.7:4020/x', self: lan, want: /sandbox itself/ }],
    ['the default port of http', { url: 'http://localhost/x', self: onPort80, want: /sandbox itself/ }],
  ];
  it.each(refused)('refuses %s', (_name, { url, self, want }) => {
    expect(configUrlProblem(url, self)).toMatch(want);
  });

  const accepted: [string, { url: string; self: ListenAddress }][] = [
    ['an https URL elsewhere', { url: 'https://example.com/webhook', self: loopback }],
    [
      "loopback on another port (check's default --hook-url)",
      { url: 'http://127.0.0.1:9/contracts-check', self: loopback },
    ],
    ['the same port on another host', { url: 'http://example.com:4020/x', self: loopback }],
    ['loopback when listening on a LAN address only', { url: 'http://127.0.0.1:4020/x', self: lan }],
    ['https on its default port when listening on 80', { url: 'https://localhost/x', self: onPort80 }],
  ];
  it.each(accepted)('accepts %s', (_name, { url, self }) => {
    expect(configUrlProblem(url, self)).toBeUndefined();
  });
});
