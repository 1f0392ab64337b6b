import { describe, expect, it } from 'vitest';
import {
  allowedVariables,
  credentialVariable,
  credentialVariableAllowed,
  refuseForeignVariables,
} from '../../src/config/credential-variables.js';
import { pluginOf } from '../../src/plugins/registry.js';

describe('which variables a config may send as credentials', () => {
  it.each<[string, { api: string; env: string; allowed?: string[]; documented?: string[]; want: boolean }]>([
    ['the name init gives it', { api: 'inventory-api', env: 'CONTRACTS_INVENTORY_API_API_KEY', want: true }],
    ["any name in the API's namespace", { api: 'notes', env: 'CONTRACTS_NOTES_TOKEN', want: true }],
    ['the prefix alone', { api: 'notes', env: 'CONTRACTS_NOTES_', want: false }],
    ["the API's name without the namespace", { api: 'notes', env: 'NOTES_TOKEN', want: false }],
    ["another API's namespace", { api: 'notes', env: 'CONTRACTS_INVENTORY_KEY', want: false }],
    ["contracts-kit's own settings", { api: 'config', env: 'CONTRACTS_CONFIG', want: false }],
    ['a cloud secret', { api: 'notes', env: 'AWS_SECRET_ACCESS_KEY', want: false }],
    ['a cloud secret, the API named after it', { api: 'aws', env: 'AWS_SECRET_ACCESS_KEY', want: false }],
    ['a forge token, the API named after it', { api: 'github', env: 'GITHUB_TOKEN', want: false }],
    [
      'a cloud secret the user allowed',
      { api: 'notes', env: 'AWS_SECRET_ACCESS_KEY', allowed: ['AWS_SECRET_ACCESS_KEY'], want: true },
    ],
    ['a variable its plug-in documents', { api: 'hooks', env: 'HOOKS_TOKEN', documented: ['HOOKS_TOKEN'], want: true }],
    ['a documented variable for an API without a plug-in', { api: 'hooks', env: 'HOOKS_TOKEN', want: false }],
    [
      "a plug-in's variable for another API",
      { api: 'notes', env: 'WEBHOOKS_TOKEN', documented: ['CONTRACTS_X'], want: false },
    ],
  ])('%s', (_name, { api, env, allowed = [], documented = [], want }) => {
    expect(credentialVariableAllowed(api, env, new Set(allowed), documented)).toBe(want);
  });

  it("refuses no example API's documented variable when its plug-in is given, and each without it", () => {
    const apis = [
      { name: 'client-session', credentials: [{ env: 'CLIENT_SESSION_API_KEY' }] },
      { name: 'repository-webhooks', credentials: [{ env: 'WEBHOOKS_TOKEN' }] },
    ];
    const documented = (api: string) => pluginOf(api)?.variables ?? [];
    expect(() => refuseForeignVariables(apis, new Set(), 'c', documented)).not.toThrow();
    expect(() => refuseForeignVariables(apis, new Set(), 'c')).toThrow(
      /CLIENT_SESSION_API_KEY as a credential of client-session/,
    );
  });

  it.each([
    ['inventory-api', 'apiKey', 'CONTRACTS_INVENTORY_API_API_KEY'],
    ['inventory', 'BearerAuth', 'CONTRACTS_INVENTORY_BEARER_AUTH'],
    ['notes', '2fa', 'CONTRACTS_NOTES_2FA'],
    ['notes', '---', 'CONTRACTS_NOTES_KEY'],
  ])('names the credential of %s for the scheme %s %s, inside the namespace', (api, scheme, want) => {
    expect(credentialVariable(api, scheme)).toBe(want);
    expect(credentialVariableAllowed(api, want, new Set())).toBe(true);
  });

  it('reads --allow-env as repeatable, comma-separated names', () => {
    expect([...allowedVariables(['A,B', ' C ', ''])]).toEqual(['A', 'B', 'C']);
  });

  it('refuses a foreign variable in one line that says how to allow it', () => {
    const apis = [{ name: 'notes', credentials: [{ env: 'AWS_SECRET_ACCESS_KEY' }] }];
    expect(() => refuseForeignVariables(apis, new Set(), 'contracts.config.yaml')).toThrow(
      "contracts.config.yaml sends the variable AWS_SECRET_ACCESS_KEY as a credential of notes, but a config may name only variables in contracts-kit's namespace for its API (CONTRACTS_NOTES_…): rename it, or give --allow-env AWS_SECRET_ACCESS_KEY to send it",
    );
    expect(() => refuseForeignVariables(apis, new Set(['AWS_SECRET_ACCESS_KEY']), 'c')).not.toThrow();
  });
});
