// The headers a proxy passes on (RFC 9110 section 7.6.1), as Node's flat raw arrays ([name, value, name, value…]):
// built from `rawHeaders` in one pass, they skip the header object Node would otherwise parse, copy and validate
// for every request, and keep repeated headers (Set-Cookie) and their order as sent.

// Meaningful for one connection only, never forwarded.
const hopByHop = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** `raw` without hop-by-hop headers nor those its Connection header names; with `host`, Host is replaced by it. */
export function forwardHeaders(raw: readonly string[], host?: string): string[] {
  let named: Set<string> | undefined;
  for (let index = 0; index < raw.length; index += 2) {
    if (raw[index]!.length === 10 && raw[index]!.toLowerCase() === 'connection') {
      for (const name of raw[index + 1]!.split(',')) {
        const trimmed = name.trim().toLowerCase();
        if (trimmed !== '') (named ??= new Set()).add(trimmed);
      }
    }
  }
  const forwarded: string[] = [];
  for (let index = 0; index < raw.length; index += 2) {
    const name = raw[index]!.toLowerCase();
    if (hopByHop.has(name) || named?.has(name) || (host !== undefined && name === 'host')) continue;
    forwarded.push(raw[index]!, raw[index + 1]!);
  }
  if (host !== undefined) forwarded.push('host', host);
  return forwarded;
}
