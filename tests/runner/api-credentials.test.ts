import { describe, expect, it } from 'vitest';
import type { ConfigCredential } from '../../src/config/read-config.js';
import { compileContract } from '../../src/core/compile-contract.js';
import { ContractsError } from '../../src/core/errors.js';
import { parseSpec } from '../../src/core/load-spec.js';
import { apiCredentials, withCredentials, type ApiCredential } from '../../src/http/api-credentials.js';
import { securedSpec } from '../helpers/secured-spec.js';

const schemes = {
  headerKey: { type: 'apiKey', in: 'header', name: 'X-Widget-Key' },
  queryKey: { type: 'apiKey', in: 'query', name: 'api_key' },
  cookieKey: { type: 'apiKey', in: 'cookie', name: 'session' },
  bearer: { type: 'http', scheme: 'bearer' },
  basic: { type: 'http', scheme: 'Basic' },
  oauth: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: 'https://auth.example/token', scopes: {} } } },
  tls: { type: 'mutualTLS' },
};

function credentialsOf(
  configured: ConfigCredential[],
  env: Record<string, string>,
  security: Record<string, string[]>[] = [{ headerKey: [] }],
  remote = true,
) {
  const contract = compileContract(parseSpec('secured.json', securedSpec(schemes, security)));
  const secrets: string[] = [];
  const lines: string[] = [];
  const credentials = apiCredentials({
    api: 'widgets',
    configured,
    contract,
    env,
    remote,
    addSecret: (secret) => secrets.push(secret),
    log: (line) => lines.push(line),
  });
  return { credentials, secrets, lines };
}

describe('apiCredentials', () => {
  it.each<[string, { given: ConfigCredential; want: Pick<ApiCredential, 'in' | 'name' | 'value'> }]>([
    [
      'an apiKey scheme in a header',
      {
        given: { env: 'V', securityScheme: 'headerKey' },
        want: { in: 'header', name: 'X-Widget-Key', value: 'secret-1' },
      },
    ],
    [
      'an apiKey scheme in the query',
      { given: { env: 'V', securityScheme: 'queryKey' }, want: { in: 'query', name: 'api_key', value: 'secret-1' } },
    ],
    [
      'an apiKey scheme in a cookie',
      { given: { env: 'V', securityScheme: 'cookieKey' }, want: { in: 'cookie', name: 'session', value: 'secret-1' } },
    ],
    [
      'http bearer',
      {
        given: { env: 'V', securityScheme: 'bearer' },
        want: { in: 'header', name: 'Authorization', value: 'Bearer secret-1' },
      },
    ],
    [
      'http basic, user:password base64-encoded',
      {
        given: { env: 'V', securityScheme: 'basic' },
        want: { in: 'header', name: 'Authorization', value: `Basic ${Buffer.from('secret-1').toString('base64')}` },
      },
    ],
    [
      'oauth2, as a bearer token',
      {
        given: { env: 'V', securityScheme: 'oauth' },
        want: { in: 'header', name: 'Authorization', value: 'Bearer secret-1' },
      },
    ],
    [
      'a header with a prefix',
      {
        given: { env: 'V', header: 'Authorization', prefix: 'Token ' },
        want: { in: 'header', name: 'Authorization', value: 'Token secret-1' },
      },
    ],
    [
      'a query parameter',
      { given: { env: 'V', query: 'clientToken' }, want: { in: 'query', name: 'clientToken', value: 'secret-1' } },
    ],
  ])('places %s where the spec or the config says', (_name, { given, want }) => {
    const { credentials, secrets } = credentialsOf([given], { V: 'secret-1' }, [{}]);
    expect(credentials).toEqual([expect.objectContaining(want)]);
    // Every form sent is a secret: as sent, without its prefix, and what the variable holds.
    expect(secrets).toContain(want.value);
    expect(secrets).toContain('secret-1');
  });

  it.each<[string, { given: ConfigCredential; want: RegExp }]>([
    [
      'a scheme the spec does not define',
      {
        given: { env: 'V', securityScheme: 'nope' },
        want: /^widgets: the credential from V names the security scheme "nope", which the spec does not define \(it has headerKey, /,
      },
    ],
    [
      'a scheme no variable can carry',
      {
        given: { env: 'V', securityScheme: 'tls' },
        want: /of type mutualTLS: it cannot be sent from an environment variable/,
      },
    ],
  ])('refuses %s in one line', (_name, { given, want }) => {
    expect(() => credentialsOf([given], { V: 'x' })).toThrow(want);
  });

  it.each<[string, { security: Record<string, string[]>[]; env: Record<string, string>; missing: string | undefined }]>(
    [
      ['the only scheme', { security: [{ headerKey: [] }], env: {}, missing: 'KEY' }],
      [
        'needed together with another',
        { security: [{ headerKey: [], bearer: [] }], env: { TOKEN: 'token-1' }, missing: 'KEY' },
      ],
      [
        'not needed when another alternative is fed',
        { security: [{ headerKey: [] }, { bearer: [] }], env: { TOKEN: 'token-1' }, missing: undefined },
      ],
      ['not needed when security is optional ({})', { security: [{ headerKey: [] }, {}], env: {}, missing: undefined }],
      ['not needed when it is set', { security: [{ headerKey: [] }], env: { KEY: 'key-1' }, missing: undefined }],
    ],
  )(
    'against a real target, a variable is required when every alternative needs it: %s',
    (_name, { security, env, missing }) => {
      const configured: ConfigCredential[] = [
        { env: 'KEY', securityScheme: 'headerKey' },
        { env: 'TOKEN', securityScheme: 'bearer' },
      ];
      const run = () => credentialsOf(configured, env, security);
      if (missing === undefined) expect(run).not.toThrow();
      else {
        expect(run).toThrow(ContractsError);
        expect(run).toThrow(
          `${missing} is not set, and widgets needs it: its security scheme headerKey is required by getWidget (contracts.config.yaml names the variable)`,
        );
      }
      // The embedded target documents defaults: nothing is required there.
      expect(() => credentialsOf(configured, env, security, false)).not.toThrow();
    },
  );

  it('sends the documented placeholder, with a warning against a real target, when the variable is unset', () => {
    const contract = compileContract(
      parseSpec(
        'secured.json',
        securedSpec({ apiKey: { type: 'apiKey', in: 'header', name: 'X-API-KEY' } }, [{ apiKey: [] }]),
      ),
    );
    const lines: string[] = [];
    const credentials = apiCredentials({
      api: 'client-session',
      configured: [{ env: 'MY_KEY', securityScheme: 'apiKey' }],
      contract,
      env: {},
      remote: true,
      placeholder: { header: 'X-API-KEY', value: 'placeholder-key' },
      addSecret: () => undefined,
      log: (line) => lines.push(line),
    });
    expect(credentials).toEqual([
      expect.objectContaining({ env: 'MY_KEY', in: 'header', name: 'X-API-KEY', value: 'placeholder-key' }),
    ]);
    expect(lines).toEqual([
      'MY_KEY is not set: sending a placeholder key (enough for the sandbox; a real service will answer 401)',
    ]);
  });
});

describe('withCredentials', () => {
  const credentials: ApiCredential[] = [
    { env: 'A', in: 'header', name: 'X-Key', prefix: '', value: 'key-1' },
    { env: 'B', in: 'query', name: 'token', prefix: '', value: 'token-1' },
    { env: 'C', in: 'cookie', name: 'session', prefix: '', value: 'cookie-1' },
    { env: 'D', in: 'header', name: 'X-Unset', prefix: '', value: undefined },
  ];

  it('adds what a request to the target lacks, and keeps what it carries', () => {
    const placed = withCredentials(
      {
        url: 'https://api.example/v1/w?x=1',
        headers: [
          ['cookie', 'theme=dark'],
          ['x-key', 'own'],
        ],
      },
      credentials,
      'https://api.example/v1',
    );
    expect(placed).toEqual({
      url: 'https://api.example/v1/w?x=1&token=token-1',
      headers: [
        ['cookie', 'theme=dark; session=cookie-1'],
        ['x-key', 'own'],
      ],
    });
  });

  it.each([
    ['another host', 'https://evil.example/v1/w'],
    ['another port', 'https://api.example:8443/v1/w'],
    ['another scheme', 'http://api.example/v1/w'],
  ])('adds nothing to a request to %s', (_name, url) => {
    expect(withCredentials({ url, headers: [] }, credentials, 'https://api.example/v1')).toEqual({ url, headers: [] });
  });
});
