// A copy-paste curl line for a sent request. Credentials appear as environment references
// ("$CLIENT_SESSION_API_KEY"), never as values: the line is safe to paste into a ticket.

export interface SentRequest {
  method: string;
  url: string;
  headers: [string, string][];
  body?: string;
}

/** Header names and query parameters whose value is a credential, and the variable that holds it. */
const credentialHeaders: Record<string, string> = { 'x-api-key': 'CLIENT_SESSION_API_KEY', authorization: 'WEBHOOKS_TOKEN' };
const credentialQuery: Record<string, string> = { clientToken: 'CLIENT_SESSION_CLIENT_TOKEN' };

export function curlLine(request: SentRequest): string {
  const url = new URL(request.url);
  const credentials: [string, string][] = [];
  for (const [name, variable] of Object.entries(credentialQuery)) {
    if (url.searchParams.has(name)) {
      url.searchParams.delete(name);
      credentials.push([name, variable]);
    }
  }
  let shownUrl = quote(url.toString());
  for (const [name, variable] of credentials) shownUrl += `${quote(`${url.search === '' && credentials[0]![0] === name ? '?' : '&'}${name}=`)}"$${variable}"`;
  const parts = ['curl', '-sS', '-i', '-X', request.method, shownUrl];
  for (const [name, value] of request.headers) {
    const variable = credentialHeaders[name.toLowerCase()];
    if (variable === undefined) parts.push('-H', quote(`${name}: ${value}`));
    else if (name.toLowerCase() === 'authorization') parts.push('-H', `${quote(`${name}: Bearer `)}"$${variable}"`);
    else parts.push('-H', `${quote(`${name}: `)}"$${variable}"`);
  }
  if (request.body !== undefined) parts.push('--data-raw', quote(request.body));
  return parts.join(' ');
}

/** POSIX single quotes: nothing inside is interpreted; a quote is closed, escaped, reopened. */
function quote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
