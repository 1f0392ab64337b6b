// The one check of a URL given on the command line (--base-url, a plug-in's --hook-url): an absolute http(s) URL
// with a host (RFC 9110 §4.2.1-4.2.2), without userinfo — credentials come only from the environment, and a URL gets
// printed (RFC 9110 §4.2.4: a sender must not put userinfo in an http(s) URI). A base URL (`bare`) carries no query
// or fragment either: paths are appended to it.
import { ContractsError } from './errors.js';

export function httpUrlValue(flag: string, value: string, { bare }: { bare: boolean }): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || !/^https?:$/.test(url.protocol) || !/^https?:\/\/[^/]/i.test(value))
    throw new ContractsError('USAGE', `${flag} must be an http(s) URL, such as https://staging.example.com`);
  if (url.username !== '' || url.password !== '')
    throw new ContractsError(
      'USAGE',
      `${flag} must not carry a user or password: credentials come only from the environment (the variables the config names)`,
    );
  if (bare && (url.search !== '' || url.hash !== ''))
    throw new ContractsError('USAGE', `${flag} must not carry a query or a fragment`);
  return value;
}
