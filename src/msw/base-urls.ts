// Which requests the handlers take: those under a base URL, the user's (`options.baseUrl`) or else the spec's own
// servers (OpenAPI 3.1 section 4.8.5: a Server Object's `url`, its `{variables}` replaced by their defaults; a
// relative one is "relative to the location where the document is being served", here the page's). Anything else
// passes by untouched, so a page's own assets and other APIs reach the network as they would without the mock.
import { ContractsError } from '../core/errors.js';
import type { OpenApiDocument } from '../core/load-spec.js';

export interface BaseUrl {
  origin: string;
  /** The path, without a final `/` ('' for the origin's root). */
  path: string;
}

/** Server Objects read at most (a spec is hostile input until checked). */
const maxServers = 100;

/** The base URLs for `given` (the option), else for the spec's servers; a clear error when there are none. */
export function baseUrls(given: string | readonly string[] | undefined, document: OpenApiDocument): BaseUrl[] {
  const page = (globalThis as { location?: { href?: string } }).location?.href;
  if (given !== undefined) {
    const list = typeof given === 'string' ? [given] : given;
    return list.map((url) => {
      const parsed = parse(url, page);
      if (!parsed)
        throw new ContractsError(
          'USAGE',
          `contracts-kit/msw: baseUrl ${JSON.stringify(url)} is not a URL${page ? '' : ' (outside a browser, give an absolute one: http://api.test)'}`,
        );
      return parsed;
    });
  }
  const found = serverUrls(document)
    .map((url) => parse(url, page))
    .filter((url) => url !== undefined);
  if (found.length === 0)
    throw new ContractsError(
      'USAGE',
      'contracts-kit/msw: the spec names no absolute server URL to intercept: give handlers(spec, { baseUrl: "http://api.test" })',
    );
  const unique = new Map(found.map((url) => [`${url.origin}${url.path}`, url]));
  return [...unique.values()];
}

/** Whether `url` is `base` or under it. */
export function isUnder(url: URL, base: BaseUrl): boolean {
  if (url.origin !== base.origin) return false;
  return base.path === '' || url.pathname === base.path || url.pathname.startsWith(`${base.path}/`);
}

function parse(url: string, page: string | undefined): BaseUrl | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url, page);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return undefined;
  return { origin: parsed.origin, path: parsed.pathname.replace(/\/+$/, '') };
}

function serverUrls(document: OpenApiDocument): string[] {
  const servers = (document as { servers?: unknown }).servers;
  const urls: string[] = [];
  for (const server of Array.isArray(servers) ? servers.slice(0, maxServers) : []) {
    if (server === null || typeof server !== 'object' || typeof (server as { url?: unknown }).url !== 'string')
      continue;
    const { url, variables } = server as { url: string; variables?: Record<string, { default?: unknown }> };
    urls.push(
      url.replace(/\{([^}]+)\}/g, (_all, name: string) => {
        const value = variables && Object.hasOwn(variables, name) ? variables[name]?.default : undefined;
        return typeof value === 'string' ? value : '';
      }),
    );
  }
  return urls;
}
