// A copy-paste curl line for a sent request. Credentials appear as references to the variables the config names
// ("$CLIENT_SESSION_API_KEY"), never as values: the line is safe to paste into a ticket. Every other part is one
// quoted word (shell-word.ts): what a spec or a target put in the request runs nothing when the line is pasted.
import { type ShellPiece, shellQuote, shellWord, variableReference } from './shell-word.js';

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

/** For a reproduction script: what stands for variables the script sets, in place of the text that holds them. */
export interface ScriptVariables {
  /** The variable the URL's origin is written as (BASE_URL): the script's target. */
  origin: string;
  /** Splits a text at the places that stand for variables (ids the script reads, secrets it makes up). */
  split: (text: string) => ShellPiece[];
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
  variables?: ScriptVariables,
): string {
  const quote = (text: string) => (variables ? shellWord(variables.split(text)) : shellQuote(text));
  const named = credentials.filter((credential) => credential.env !== undefined);
  const url = new URL(request.url);
  const own = varied?.in === 'query' && varied.value !== undefined && url.searchParams.has(varied.name);
  if (own) dropQueryName(url, varied.name);
  const query: CredentialSource[] = [];
  for (const credential of named.filter((candidate) => candidate.in === 'query')) {
    if (url.searchParams.has(credential.name)) {
      dropQueryName(url, credential.name);
      query.push(credential);
    }
  }
  let shownUrl = variables
    ? shellWord([{ variable: variables.origin }, ...variables.split(url.toString().slice(url.origin.length))])
    : quote(url.toString());
  query.forEach(
    (credential, index) =>
      (shownUrl += `${quote(`${url.search === '' && index === 0 ? '?' : '&'}${credential.name}=${credential.prefix}`)}${reference(credential)}`),
  );
  if (own)
    shownUrl += `${quote(`${url.search === '' && query.length === 0 ? '?' : '&'}${varied.name}=`)}${quote(
      new URLSearchParams({ v: varied.value! }).toString().slice(2),
    )}`;
  // A method is a token of letters; anything else in its place is quoted like the rest.
  const method = /^[A-Za-z]+$/.test(request.method) ? request.method : quote(request.method);
  // curl reads [ ] { } in a URL as globbing (a deepObject's `filter[a]`, a redacted `[REDACTED]`): exit 3, or
  // another URL sent. -g (--globoff) sends it as written, as the scripts do (repro-script.ts).
  const parts = ['curl', ...(/[[\]{}]/.test(shownUrl) ? ['-g'] : []), '-sS', '-i', '-X', method, shownUrl];
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
          quote,
        ),
      );
    else parts.push('-H', quote(`${name}: ${value}`));
  }
  if (request.body !== undefined) parts.push('--data-raw', quote(request.body));
  return parts.join(' ');
}

/** The shell's reference to the variable, as the credential is sent (Basic: base64 of user:password). */
function reference(credential: CredentialSource): string {
  const variable = variableReference(credential.env!);
  return credential.base64 ? `"$(printf %s ${variable} | base64)"` : variable;
}

function cookieLine(
  name: string,
  value: string,
  cookies: readonly CredentialSource[],
  quote: (text: string) => string,
): string {
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

/**
 * Removes the pairs named `name` from the URL's query and leaves the others byte for byte: URLSearchParams.delete
 * re-encodes them all, a form list's `,` as `%2C`, which is another value (OpenAPI 3.1 section 4.8.12.4).
 */
function dropQueryName(url: URL, name: string): void {
  url.search = url.search
    .slice(1)
    .split('&')
    .filter((pair) => pair !== '' && [...new URLSearchParams(pair).keys()][0] !== name)
    .join('&');
}
