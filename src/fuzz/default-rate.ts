// The --rate a run gets when it names none: no cap against a loopback target (127.0.0.0/8, ::1, localhost: the
// user's own machine, where a cap only made a run 5-6x slower), 100 requests a second anywhere else.
import { isIP } from 'node:net';

export const remoteDefaultRate = 100;

export function isLoopbackUrl(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.replace(/^\[|\]$/g, '').toLowerCase();
  } catch {
    return false;
  }
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return isIP(host) === 6 && /^(0{0,4}:){1,7}0{0,3}1$|^::1$/.test(host);
}

/** The rate to use, and how the console says it (`rate: unlimited (a loopback target)`). */
export function runRate(given: number | undefined, baseUrl: string): { rate: number; line: string } {
  if (given !== undefined)
    return {
      rate: given,
      line: given === 0 ? 'rate: unlimited (--rate 0)' : `rate: at most ${given} requests/s (--rate)`,
    };
  return isLoopbackUrl(baseUrl)
    ? { rate: 0, line: 'rate: unlimited (a loopback target; --rate n caps it)' }
    : {
        rate: remoteDefaultRate,
        line: `rate: at most ${remoteDefaultRate} requests/s (the default off loopback; --rate n changes it)`,
      };
}
