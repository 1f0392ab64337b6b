import { describe, expect, it } from 'vitest';
import { ContractsError } from '../../src/core/errors.js';
import { loadSpec, parseSpec } from '../../src/core/load-spec.js';
import { fixture, specFile } from '../helpers/paths.js';

describe('loadSpec', () => {
  it('loads both shipped specs as OpenAPI 3.1 documents', async () => {
    for (const name of ['client-session', 'repository-webhooks']) {
      const spec = await loadSpec(specFile(name));
      expect(spec.document.openapi).toBe('3.1.0');
    }
  });

  it('loads a spec that uses a few aliases', () => {
    const spec = parseSpec(
      'aliases.yaml',
      'openapi: 3.1.0\ninfo: &info { title: t, version: "1" }\nx-copy: *info\npaths: {}\n',
    );
    expect(spec.document['x-copy']).toEqual({ title: 't', version: '1' });
  });

  const failures: [string, { given: string; want: { code: string; message: RegExp; line?: number } }][] = [
    ['a missing file', { given: 'does-not-exist.yaml', want: { code: 'SPEC_NOT_FOUND', message: /spec not found/ } }],
    [
      'a file that is not YAML',
      { given: 'not-yaml.yaml', want: { code: 'SPEC_NOT_YAML', message: /not valid YAML/, line: 4 } },
    ],
    [
      'a Swagger 1.2 document',
      {
        given: 'swagger-12.yaml',
        want: {
          code: 'SPEC_NOT_OPENAPI_31',
          message: /only Swagger 2\.0 and OpenAPI 3\.0, 3\.1 and 3\.2 are supported, found swagger: 1\.2/,
          line: 2,
        },
      },
    ],
    [
      'an OpenAPI 4.0 document',
      {
        given: 'openapi-40.yaml',
        want: {
          code: 'SPEC_NOT_OPENAPI_31',
          message: /only OpenAPI 3\.0, 3\.1 and 3\.2 are supported, found openapi: 4\.0\.0/,
          line: 2,
        },
      },
    ],
    [
      'a YAML alias bomb',
      {
        given: 'alias-bomb.yaml',
        want: { code: 'SPEC_NOT_YAML', message: /YAML aliases \(\*name\) expand too far/, line: 5 },
      },
    ],
    [
      'a $ref that resolves to nothing',
      {
        given: 'broken-ref.yaml',
        want: { code: 'SPEC_BROKEN_REF', message: /#\/components\/schemas\/Itme.*does not resolve/, line: 32 },
      },
    ],
  ];

  it.each(failures)('refuses %s with a located ContractsError', async (_name, { given, want }) => {
    const error = await loadSpec(fixture('specs', given)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ContractsError);
    const failure = error as ContractsError;
    expect(failure.code).toBe(want.code);
    expect(failure.message).toMatch(want.message);
    if (want.line !== undefined) expect(failure.location?.line).toBe(want.line);
  });
});
