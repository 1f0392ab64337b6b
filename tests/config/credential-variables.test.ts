import { describe, expect, it } from 'vitest';
import {
  allowedVariables,
  credentialVariableAllowed,
  refuseForeignVariables,
} from '../../src/config/credential-variables.js';

describe('which variables a config may send as credentials', () => {
  it.each<[string, { api: string; env: string; allowed?: string[]; want: boolean }]>([
    ['the name init gives it', { api: 'inventory-api', env: 'INVENTORY_API_API_KEY', want: true }],
    ["any name with the API's prefix", { api: 'notes', env: 'NOTES_TOKEN', want: true }],
    ['the prefix alone', { api: 'notes', env: 'NOTES_', want: false }],
    ["another API's prefix", { api: 'notes', env: 'INVENTORY_KEY', want: false }],
    ['a cloud secret', { api: 'notes', env: 'AWS_SECRET_ACCESS_KEY', want: false }],
    [
      'a cloud secret the user allowed',
      { api: 'notes', env: 'AWS_SECRET_ACCESS_KEY', allowed: ['AWS_SECRET_ACCESS_KEY'], want: true },
    ],
    ["a seed API's documented variable", { api: 'repository-webhooks', env: 'WEBHOOKS_TOKEN', want: true }],
    ["a seed API's variable for another API", { api: 'notes', env: 'WEBHOOKS_TOKEN', want: false }],
  ])('%s', (_name, { api, env, allowed = [], want }) => {
    expect(credentialVariableAllowed(api, env, new Set(allowed))).toBe(want);
  });

  it('reads --allow-env as repeatable, comma-separated names', () => {
    expect([...allowedVariables(['A,B', ' C ', ''])]).toEqual(['A', 'B', 'C']);
  });

  it('refuses a foreign variable in one line that says how to allow it', () => {
    const apis = [{ name: 'notes', credentials: [{ env: 'AWS_SECRET_ACCESS_KEY' }] }];
    expect(() => refuseForeignVariables(apis, new Set(), 'contracts.config.yaml')).toThrow(
      'contracts.config.yaml sends the variable AWS_SECRET_ACCESS_KEY as a credential of notes, and a config may only name variables that start with NOTES_: rename it, or give --allow-env AWS_SECRET_ACCESS_KEY to send it',
    );
    expect(() => refuseForeignVariables(apis, new Set(['AWS_SECRET_ACCESS_KEY']), 'c')).not.toThrow();
  });
});
