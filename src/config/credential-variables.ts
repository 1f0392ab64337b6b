// Which environment variables a config may turn into credentials. A config can come from a pull request; were any
// variable allowed, `credentials: [{ env: AWS_SECRET_ACCESS_KEY, header: X-Debug }]` would send the user's cloud
// key to the target. Nor may the API's name alone pick the namespace: the same config chooses the name, and an API
// named `aws` or `github` would then reach AWS_SECRET_ACCESS_KEY or GITHUB_TOKEN. So a variable must lie in
// contracts-kit's own namespace for the API, CONTRACTS_<API>_… (CONTRACTS_INVENTORY_API_API_KEY for the API
// inventory-api, as `init` names them), or be named by the user on the command line (--allow-env).
import { ContractsError } from '../core/errors.js';

/** A name as a variable's: upper case, words joined by `_` (`inventory-api` → INVENTORY_API, `apiKey` → API_KEY). */
export function envName(text: string): string {
  const name = text
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  return /^[A-Z_]/.test(name) ? name : `API_${name}`;
}

/** The prefix every credential variable of `api` carries: `CONTRACTS_INVENTORY_API_`. */
export function credentialPrefix(api: string): string {
  return `CONTRACTS_${envName(api)}_`;
}

/** The variable `init` names for `api`'s credential `word` (a scheme's name): CONTRACTS_INVENTORY_API_API_KEY. */
export function credentialVariable(api: string, word: string): string {
  // After a letter, envName never adds its API_ for a leading digit: `2fa` → 2FA.
  const rest = envName(`x_${word}`).slice(2);
  return `${credentialPrefix(api)}${rest === '' ? 'KEY' : rest}`;
}

/**
 * Whether `api`'s credential may come from the variable `env`, given the variables the user allowed and those the
 * API's plug-in documents (`documented`: the example APIs' CLIENT_SESSION_API_KEY and WEBHOOKS_TOKEN, which predate
 * the namespace; a config chooses none of them for an API of another name, src/plugins/registry.ts).
 */
export function credentialVariableAllowed(
  api: string,
  env: string,
  allowed: ReadonlySet<string>,
  documented: readonly string[] = [],
): boolean {
  return (
    allowed.has(env) ||
    (env.startsWith(credentialPrefix(api)) && env.length > credentialPrefix(api).length) ||
    documented.includes(env)
  );
}

/** The --allow-env values (repeatable, each a comma-separated list) as a set of names. */
export function allowedVariables(values: readonly string[]): Set<string> {
  return new Set(
    values
      .flatMap((value) => value.split(','))
      .map((name) => name.trim())
      .filter((name) => name !== ''),
  );
}

/**
 * Refuses, in one line naming the way out, the first credential of `apis` whose variable is neither the API's own
 * (its namespace, or documented by its plug-in) nor allowed on the command line: nothing is sent then.
 */
export function refuseForeignVariables(
  apis: readonly { name: string; credentials: readonly { env: string }[] }[],
  allowed: ReadonlySet<string>,
  configShown: string,
  documented: (api: string) => readonly string[] = () => [],
): void {
  for (const api of apis)
    for (const { env } of api.credentials)
      if (!credentialVariableAllowed(api.name, env, allowed, documented(api.name)))
        throw new ContractsError(
          'CONFIG_INVALID',
          `${configShown} sends the variable ${env} as a credential of ${api.name}, but a config may name only variables in contracts-kit's namespace for its API (${credentialPrefix(api.name)}…): rename it, or give --allow-env ${env} to send it`,
        );
}
