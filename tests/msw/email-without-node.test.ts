// The email format's IPv6 address literals where there is no node:net (a browser running contracts-kit/msw):
// email-format.ts asks the URL parser instead, and gives the same verdict as node:net on each of these.
import { isIPv6 } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { isEmailAddress } from '../../src/core/email-format.js';

const getBuiltinModule = process.getBuiltinModule;
afterEach(() => {
  process.getBuiltinModule = getBuiltinModule;
});

const literals = ['2001:db8::1', '::', '::1', '::ffff:192.0.2.1', '1:2:3:4:5:6:7:8', '1:2:3:4:5:6:7:8:9', '1::2::3'];
const more = ['12345::1', 'g::1', '::ffff:256.0.0.1', '1.2.3.4', ':1', '', ' ::1', '[::1]'];

describe('an IPv6 address literal without node:net', () => {
  it.each([...literals, ...more])('%j is judged as node:net judges it', (literal) => {
    const address = `a@[IPv6:${literal}]`;
    const withNode = isEmailAddress(address);
    // As in a browser: no process.getBuiltinModule.
    process.getBuiltinModule = undefined as never;
    expect({ withNode, withoutNode: isEmailAddress(address) }).toEqual({
      withNode: isIPv6(literal),
      withoutNode: isIPv6(literal),
    });
  });
});
