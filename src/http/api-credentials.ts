// How the config's credentials reach an API (contracts.config.yaml `credentials`): each environment variable's value,
// put where its header, query parameter or security scheme (OpenAPI Security Scheme Object, section 4.8.27) says.
// `check` and `fuzz` send them; every value is registered with the redactor, and goes only to the run's target.
import type { ConfigCredential } from '../config/read-config.js';
import type { Contract } from '../core/compile-contract.js';
import { ContractsError } from '../core/errors.js';
import { deref } from '../core/request-model.js';

export interface ApiCredential {
  /** The variable it comes from (undefined: a documented placeholder). */
  env: string | undefined;
  in: 'header' | 'query' | 'cookie';
  name: string;
  /** Put before the secret: `Bearer `, `Basic ` (empty for an apiKey). */
  prefix: string;
  /** Basic: the variable holds `user:password`, sent base64-encoded. */
  base64?: boolean;
  /** The security scheme it feeds, when it feeds one. */
  scheme?: string;
  /** As sent (prefix included); undefined when the variable is unset or empty. */
  value: string | undefined;
}

export interface CredentialOptions {
  api: string;
  configured: readonly ConfigCredential[];
  contract: Contract;
  env: NodeJS.ProcessEnv;
  /** Without --base-url the embedded mocks or sandbox are the target: a missing variable is no fault there. */
  remote: boolean;
  /** A header the command documents a placeholder for (client-session's X-API-KEY): sent when nothing feeds it. */
  placeholder?: { header: string; value: string };
  /** Registers every value sent, in every form it is sent in. */
  addSecret: (secret: string) => void;
  log: (line: string) => void;
}

/**
 * The credentials to send to one API. A variable some operation cannot do without (every one of its security
 * alternatives needs it) is a fault against a real target, one line naming the variable and the API; for the
 * placeholder's header it is a warning instead, as documented.
 */
export function apiCredentials(options: CredentialOptions): ApiCredential[] {
  const document = options.contract.spec.document;
  const credentials = options.configured.map((configured) => resolve(options.api, configured, document, options.env));
  for (const credential of credentials) {
    if (credential.value === undefined) continue;
    options.addSecret(credential.value);
    options.addSecret(credential.value.slice(credential.prefix.length));
  }
  // A Basic credential's user:password is also a secret as the variable holds it.
  for (const credential of credentials)
    if (credential.base64 && credential.env) options.addSecret(options.env[credential.env] ?? '');
  const placeholder = options.placeholder;
  const feedsPlaceholder = (credential: ApiCredential) =>
    placeholder !== undefined &&
    credential.in === 'header' &&
    credential.name.toLowerCase() === placeholder.header.toLowerCase();
  if (options.remote) {
    const missing = missingCredentials(options.contract, credentials);
    const fault = missing.find((entry) => !feedsPlaceholder(entry.credential));
    if (fault) {
      const more =
        fault.operations.length > 1
          ? ` and ${fault.operations.length - 1} more operation${fault.operations.length > 2 ? 's' : ''}`
          : '';
      throw new ContractsError(
        'CREDENTIAL_MISSING',
        `${fault.credential.env} is not set, and ${options.api} needs it: its security scheme ${fault.credential.scheme} is required by ${fault.operations[0]}${more} (contracts.config.yaml names the variable)`,
      );
    }
  }
  if (
    placeholder === undefined ||
    credentials.some((credential) => feedsPlaceholder(credential) && credential.value !== undefined)
  )
    return credentials;
  const unset = credentials.find(feedsPlaceholder);
  if (options.remote)
    options.log(
      `${unset?.env ?? `no credential of the config feeds ${placeholder.header}, and`} is not set: sending a placeholder key (enough for the sandbox; a real service will answer 401)`,
    );
  return [
    ...credentials.filter((credential) => !feedsPlaceholder(credential)),
    { env: unset?.env, in: 'header', name: placeholder.header, prefix: '', value: placeholder.value },
  ];
}

/** The variables that are unset although an operation needs them: every security alternative of it asks for one. */
export function missingCredentials(
  contract: Contract,
  credentials: readonly ApiCredential[],
): { credential: ApiCredential; operations: string[] }[] {
  const fed = new Set(
    credentials
      .filter((credential) => credential.value !== undefined && credential.scheme)
      .map((credential) => credential.scheme),
  );
  const unset = new Map(
    credentials
      .filter((credential) => credential.value === undefined && credential.scheme && !fed.has(credential.scheme))
      .map((credential) => [credential.scheme!, credential]),
  );
  const found = new Map<ApiCredential, string[]>();
  if (unset.size === 0) return [];
  for (const [operationId, request] of contract.requests) {
    const alternatives = request.security;
    if (
      alternatives.length === 0 ||
      !alternatives.every((alternative) => alternative.some((needed) => unset.has(needed.scheme)))
    )
      continue;
    const credential = unset.get(alternatives[0]!.find((needed) => unset.has(needed.scheme))!.scheme)!;
    found.set(credential, [...(found.get(credential) ?? []), operationId]);
  }
  return [...found].map(([credential, operations]) => ({ credential, operations }));
}

function resolve(api: string, configured: ConfigCredential, document: unknown, env: NodeJS.ProcessEnv): ApiCredential {
  const secret = env[configured.env] || undefined;
  const placed = placement(api, configured, document);
  const encoded = secret !== undefined && placed.base64 ? Buffer.from(secret, 'utf8').toString('base64') : secret;
  return { env: configured.env, ...placed, value: encoded === undefined ? undefined : `${placed.prefix}${encoded}` };
}

function placement(api: string, configured: ConfigCredential, document: unknown): Omit<ApiCredential, 'env' | 'value'> {
  if (configured.header !== undefined)
    return { in: 'header', name: configured.header, prefix: configured.prefix ?? '' };
  if (configured.query !== undefined) return { in: 'query', name: configured.query, prefix: configured.prefix ?? '' };
  const name = configured.securityScheme!;
  const schemes = ((document as { components?: { securitySchemes?: Record<string, unknown> } }).components
    ?.securitySchemes ?? {}) as Record<string, unknown>;
  const scheme = deref(document, Object.hasOwn(schemes, name) ? schemes[name] : undefined) as
    | { type?: unknown; in?: unknown; name?: unknown; scheme?: unknown }
    | undefined;
  const where = `${api}: the credential from ${configured.env} names the security scheme "${name}"`;
  if (scheme === undefined || scheme === null || typeof scheme !== 'object') {
    const known = Object.keys(schemes);
    throw new ContractsError(
      'CONFIG_INVALID',
      `${where}, which the spec does not define (${known.length > 0 ? `it has ${known.join(', ')}` : 'it has no securitySchemes'})`,
    );
  }
  const base = { scheme: name };
  if (
    scheme.type === 'apiKey' &&
    (scheme.in === 'header' || scheme.in === 'query' || scheme.in === 'cookie') &&
    typeof scheme.name === 'string'
  ) {
    return { ...base, in: scheme.in, name: scheme.name, prefix: configured.prefix ?? '' };
  }
  if (scheme.type === 'http' && typeof scheme.scheme === 'string') {
    const word =
      scheme.scheme.toLowerCase() === 'bearer'
        ? 'Bearer'
        : scheme.scheme.toLowerCase() === 'basic'
          ? 'Basic'
          : scheme.scheme;
    return {
      ...base,
      in: 'header',
      name: 'Authorization',
      prefix: configured.prefix ?? `${word} `,
      ...(word === 'Basic' ? { base64: true } : {}),
    };
  }
  if (scheme.type === 'oauth2' || scheme.type === 'openIdConnect')
    return { ...base, in: 'header', name: 'Authorization', prefix: configured.prefix ?? 'Bearer ' };
  throw new ContractsError(
    'CONFIG_INVALID',
    `${where}, of type ${String(scheme.type)}: it cannot be sent from an environment variable (name a header or query parameter instead)`,
  );
}

/** The request with the credentials it lacks: only when it goes to `baseUrl`'s origin (nothing else gets them). */
export function withCredentials(
  request: { url: string; headers: [string, string][] },
  credentials: readonly ApiCredential[],
  baseUrl: string,
): { url: string; headers: [string, string][] } {
  const url = new URL(request.url);
  if (url.origin !== new URL(baseUrl).origin) return request;
  const headers = [...request.headers];
  const has = (name: string) => headers.some(([candidate]) => candidate.toLowerCase() === name.toLowerCase());
  for (const credential of credentials) {
    if (credential.value === undefined) continue;
    if (credential.in === 'header' && !has(credential.name)) headers.push([credential.name, credential.value]);
    else if (credential.in === 'query' && !url.searchParams.has(credential.name))
      url.searchParams.append(credential.name, credential.value);
    else if (credential.in === 'cookie') {
      const cookie = headers.findIndex(([name]) => name.toLowerCase() === 'cookie');
      const pair = `${credential.name}=${credential.value}`;
      if (cookie === -1) headers.push(['Cookie', pair]);
      else if (!headers[cookie]![1].split(';').some((part) => part.trim().startsWith(`${credential.name}=`)))
        headers[cookie] = [headers[cookie]![0], `${headers[cookie]![1]}; ${pair}`];
    }
  }
  return { url: url.toString(), headers };
}

/** A fetch that adds the credentials to what goes to `baseUrl`'s origin (the typed clients' requests). */
export function credentialFetch(
  fetch: (request: Request) => Promise<Response>,
  credentials: readonly ApiCredential[],
  baseUrl: string,
): (request: Request) => Promise<Response> {
  if (credentials.every((credential) => credential.value === undefined)) return fetch;
  return async (request) => {
    const original = { url: request.url, headers: [...request.headers] };
    const added = withCredentials(original, credentials, baseUrl);
    if (JSON.stringify(added) === JSON.stringify(original)) return fetch(request);
    const body = request.body === null ? undefined : await request.arrayBuffer();
    return fetch(
      new Request(added.url, {
        method: request.method,
        headers: added.headers,
        redirect: request.redirect,
        signal: request.signal,
        ...(body !== undefined ? { body } : {}),
      }),
    );
  };
}
