// Placeholder credentials for the run's own embedded mock (or sandbox), which needs none that are real: Prism checks
// only that a request carries what one Security Requirement alternative of the operation names (OpenAPI 3.1 section
// 4.8.30; Prism's security handlers: apiKey present, `Basic` with a user:password, `Bearer …`, a Digest's fields).
// Without them every secured operation of a spec whose scheme is not an apiKey header was answered 401 by the mock
// and reported as the API's failure (Twilio's Basic: 197). Never used for a --base-url: a real target gets only what
// the user set.
import type { SecurityCredential } from '../core/compile-request.js';
import type { ApiCredential } from '../http/api-credentials.js';

const placeholderToken = 'contracts-fuzz-placeholder-token';
const placeholderKey = 'contracts-fuzz-placeholder-key';

/**
 * What to add to a request of an operation whose security is `alternatives` (any one suffices) so that the mock
 * admits it: nothing when an alternative is already met by the credentials the user set, else a placeholder for each
 * credential of the first alternative that HTTP can carry at once (two credentials in one Authorization header
 * cannot), save those the user set.
 */
export function mockPlaceholders(
  alternatives: readonly (readonly SecurityCredential[])[],
  configured: readonly ApiCredential[],
): ApiCredential[] {
  const set = new Set(
    configured.flatMap((credential) =>
      credential.value !== undefined && credential.scheme !== undefined ? [credential.scheme] : [],
    ),
  );
  if (alternatives.length === 0 || alternatives.some((alternative) => alternative.every((c) => set.has(c.scheme))))
    return [];
  const carried = alternatives.find(
    (alternative) => new Set(alternative.map(slot)).size === alternative.length && alternative.every(placeable),
  );
  if (carried === undefined) return [];
  return carried
    .filter((credential) => !set.has(credential.scheme))
    .map((credential) => {
      const value = placeholderValue(credential);
      return {
        env: undefined,
        in: credential.in,
        name: credential.name,
        prefix: credential.prefix === undefined ? '' : value.slice(0, value.indexOf(' ') + 1),
        scheme: credential.scheme,
        value,
      };
    });
}

/** Where a credential goes: two of one alternative in the same place cannot both be sent. */
function slot(credential: SecurityCredential): string {
  return `${credential.in}:${credential.in === 'query' ? credential.name : credential.name.toLowerCase()}`;
}

/** A credential whose name HTTP can carry: a token for a header (RFC 9110) or a cookie (RFC 6265), any query name. */
function placeable(credential: SecurityCredential): boolean {
  return credential.in === 'query' ? credential.name !== '' : httpToken.test(credential.name);
}

const httpToken = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** The value as sent: an apiKey's key, or an Authorization value of the http scheme (RFC 9110 section 11.4). */
function placeholderValue(credential: SecurityCredential): string {
  if (credential.prefix === undefined) return placeholderKey;
  const word = credential.prefix.toLowerCase();
  // RFC 7617: base64 of user-id ":" password.
  if (word === 'basic') return `Basic ${Buffer.from('contracts:placeholder').toString('base64')}`;
  if (word === 'bearer') return `Bearer ${placeholderToken}`;
  // RFC 7616's fields, which Prism looks for (each quoted value of letters and digits).
  if (word === 'digest')
    return 'Digest username="contracts", realm="contracts", nonce="contracts", uri="contracts", response="contracts"';
  return `${credential.prefix} ${placeholderToken}`;
}

/**
 * The request with the placeholders it lacks. A query key is appended to the URL's text: URLSearchParams would
 * re-encode the other pairs (a form list's `,` as `%2C`, another value: OpenAPI 3.1 section 4.8.12.4).
 */
export function withPlaceholders(
  request: { url: string; headers: [string, string][] },
  placeholders: readonly ApiCredential[],
): { url: string; headers: [string, string][] } {
  let url = request.url;
  const headers = [...request.headers];
  const at = (name: string) => headers.findIndex(([candidate]) => candidate.toLowerCase() === name.toLowerCase());
  for (const credential of placeholders) {
    const value = credential.value!;
    if (credential.in === 'header') {
      if (at(credential.name) === -1) headers.push([credential.name, value]);
    } else if (credential.in === 'query') {
      if (!new URL(url).searchParams.has(credential.name))
        url += `${url.includes('?') ? '&' : '?'}${encodeURIComponent(credential.name)}=${encodeURIComponent(value)}`;
    } else {
      const cookie = at('cookie');
      const pair = `${credential.name}=${value}`;
      if (cookie === -1) headers.push(['Cookie', pair]);
      else if (!headers[cookie]![1].split(';').some((part) => part.trim().startsWith(`${credential.name}=`)))
        headers[cookie] = [headers[cookie]![0], `${headers[cookie]![1]}; ${pair}`];
    }
  }
  return { url, headers };
}
