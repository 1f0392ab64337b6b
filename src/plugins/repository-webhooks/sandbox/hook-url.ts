// What a hook's config.url may be (seed: "Address to which payloads are delivered"): an absolute http(s) URL
// that is not the sandbox itself. A hook pointing at its own ping URL would deliver to itself without end.
import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';

/** Where the sandbox listens, as given to listen() and as bound. */
export interface ListenAddress {
  host: string;
  port: number;
}

/** Why `value` cannot be a config.url, or undefined when it can. */
export function configUrlProblem(value: unknown, self: ListenAddress): string | undefined {
  if (typeof value !== 'string') return 'config.url must be a string';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'config.url must be an absolute http or https URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return `config.url must be an http or https URL, not ${url.protocol}`;
  // fetch refuses to send credentials from a URL, so such a hook could never be delivered.
  if (url.username !== '' || url.password !== '') return 'config.url must not carry a user name or password';
  if (pointsAtSelf(url, self))
    return 'config.url points at the sandbox itself: its deliveries would trigger more deliveries without end';
  return undefined;
}

function pointsAtSelf(url: URL, self: ListenAddress): boolean {
  const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
  if (port !== self.port) return false;
  const target = bare(url.hostname);
  const listening = bare(self.host);
  if (target === listening) return true;
  // Loopback answers on every loopback name; an any-address listener answers on all of them and more.
  if (isAnyAddress(listening))
    return isLoopback(target) || isAnyAddress(target) || interfaceAddresses().includes(target);
  if (isLoopback(listening)) return isLoopback(target) || isAnyAddress(target);
  return false;
}

/** Without IPv6 brackets, a trailing dot or an IPv4-mapped prefix, lower-cased (URL already normalizes 127.1). */
function bare(host: string): string {
  let name = host
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '');
  const mapped = /^::ffff:(?:(\d+\.\d+\.\d+\.\d+)|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/.exec(name);
  if (mapped) name = mapped[1] ?? fromHexPair(mapped[2]!, mapped[3]!);
  return name;
}

function fromHexPair(high: string, low: string): string {
  const h = parseInt(high, 16);
  const l = parseInt(low, 16);
  return [h >> 8, h & 255, l >> 8, l & 255].join('.');
}

function interfaceAddresses(): string[] {
  return Object.values(networkInterfaces()).flatMap((entries) => (entries ?? []).map((entry) => bare(entry.address)));
}

function isLoopback(host: string): boolean {
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return isIP(host) === 6 && /^(0{0,4}:){1,7}0{0,3}1$|^::1$/.test(host);
}

function isAnyAddress(host: string): boolean {
  if (host === '0.0.0.0' || host === '') return true;
  return isIP(host) === 6 && /^[0:]+$/.test(host);
}
