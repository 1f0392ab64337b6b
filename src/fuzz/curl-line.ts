// A copy-paste curl line for a sent request. Credentials appear as references to the variables the config names
// ("$CLIENT_SESSION_API_KEY"), never as values: the line is safe to paste into a ticket.

export interface SentRequest {
  method: string;
  url: string;
  headers: [string, string][];
  body?: string;
}

/** Where a credential goes and the variable that holds it (api-credentials.ts's ApiCredential fits). */
export interface CredentialSource {
  env: string | undefined;
  in: 'header' | 'query' | 'cookie';
  name: string;
  prefix: string;
  base64?: boolean;
}

/**
 * `varied`: a credential's query parameter that holds a value of the case's own (a clientToken's edge value). It is
 * written after the URL as a quoted word of its own (`'…?clientToken=''xxx'`): the shell joins them, and the
 * redaction of credentials' query values by name (redact.ts), which the line still passes, leaves it as it is.
 */
export function curlLine(
  request: SentRequest,
  credentials: readonly CredentialSource[] = [],
  varied?: { name: string; in: string; value?: string },
): string {
  const named = credentials.filter((credential) => credential.env !== undefined);
  const url = new URL(request.url);
  const own = varied?.in === 'query' && varied.value !== undefined && url.searchParams.has(varied.name);
  if (own) url.searchParams.delete(varied.name);
  const query: CredentialSource[] = [];
  for (const credential of named.filter((candidate) => candidate.in === 'query')) {
    if (url.searchParams.has(credential.name)) {
      url.searchParams.delete(credential.name);
      query.push(credential);
    }
  }
  let shownUrl = quote(url.toString());
  query.forEach(
    (credential, index) =>
      (shownUrl += `${quote(`${url.search === '' && index === 0 ? '?' : '&'}${credential.name}=${credential.prefix}`)}${reference(credential)}`),
  );
  if (own)
    shownUrl += `${quote(`${url.search === '' && query.length === 0 ? '?' : '&'}${varied.name}=`)}${quote(
      new URLSearchParams({ v: varied.value! }).toString().slice(2),
    )}`;
  const parts = ['curl', '-sS', '-i', '-X', request.method, shownUrl];
  for (const [name, value] of request.headers) {
    const credential = named.find(
      (candidate) => candidate.in === 'header' && candidate.name.toLowerCase() === name.toLowerCase(),
    );
    if (credential) parts.push('-H', `${quote(`${name}: ${credential.prefix}`)}${reference(credential)}`);
    else if (name.toLowerCase() === 'cookie')
      parts.push(
        '-H',
        cookieLine(
          name,
          value,
          named.filter((candidate) => candidate.in === 'cookie'),
        ),
      );
    else parts.push('-H', quote(`${name}: ${value}`));
  }
  if (request.body !== undefined) parts.push('--data-raw', quote(request.body));
  return parts.join(' ');
}

/** The shell's reference to the variable, as the credential is sent (Basic: base64 of user:password). */
function reference(credential: CredentialSource): string {
  return credential.base64 ? `"$(printf %s "$${credential.env}" | base64)"` : `"$${credential.env}"`;
}

function cookieLine(name: string, value: string, cookies: readonly CredentialSource[]): string {
  const pairs = value.split(';').map((pair) => pair.trim());
  return (
    quote(`${name}: `) +
    pairs
      .map((pair, index) => {
        const separator = index === 0 ? '' : quote('; ');
        const credential = cookies.find((candidate) => pair.startsWith(`${candidate.name}=`));
        return (
          separator +
          (credential ? `${quote(`${credential.name}=${credential.prefix}`)}${reference(credential)}` : quote(pair))
        );
      })
      .join('')
  );
}

/** POSIX single quotes: nothing inside is interpreted; a quote is closed, escaped, reopened. */
function quote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
