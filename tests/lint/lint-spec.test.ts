import { describe, expect, it } from 'vitest';
import { lintSpec } from '../../src/lint/lint-spec.js';
import { fixture, specFile } from '../helpers/paths.js';

describe('lintSpec', () => {
  it('finds nothing in the shipped specs, not even a warning', async () => {
    expect(await lintSpec(specFile('client-session'))).toEqual([]);
    expect(await lintSpec(specFile('repository-webhooks'))).toEqual([]);
  });

  it("finds no error in OAI's own petstore example", async () => {
    const problems = await lintSpec(fixture('specs', 'oai-petstore.yaml'));
    expect(problems.filter((problem) => problem.severity === 'error')).toEqual([]);
  });

  it('finds nothing in the clean fixture the broken ones are made from', async () => {
    expect(await lintSpec(fixture('specs', 'clean.yaml'))).toEqual([]);
  });

  const broken: [string, { given: string; want: { rule: string; line: number; message: RegExp } }][] = [
    [
      'an unknown schema type',
      {
        given: 'unknown-type.yaml',
        want: { rule: 'oas3-schema', line: 44, message: /"type" property must be equal to one of the allowed values/ },
      },
    ],
    [
      'a misspelt schema keyword',
      {
        given: 'unknown-keyword.yaml',
        want: { rule: 'contracts-schema-valid', line: 45, message: /unknown schema keyword "maxLenght"/ },
      },
    ],
    [
      'an example that violates its schema',
      {
        given: 'example-violates-schema.yaml',
        want: { rule: 'contracts-example-valid', line: 33, message: /\/id must be integer/ },
      },
    ],
    [
      'a duplicate operationId',
      {
        given: 'duplicate-operation-id.yaml',
        want: { rule: 'operation-operationId-unique', line: 38, message: /unique "operationId"/ },
      },
    ],
    [
      'a path parameter the operation does not define',
      { given: 'missing-path-parameter.yaml', want: { rule: 'path-params', line: 14, message: /parameter "\{id\}"/ } },
    ],
  ];
  it.each(broken)('reports %s as an error on its line', async (_name, { given, want }) => {
    const problems = await lintSpec(fixture('specs', given));
    const errors = problems.filter((problem) => problem.severity === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ rule: want.rule, line: want.line });
    expect(errors[0]?.message).toMatch(want.message);
  });

  // Opinions, at spectral:oas's own level: a spec that breaks no tool and no client lints with exit 0.
  const opinions: [string, { given: string; want: { rule: string; line: number; message: RegExp } }][] = [
    [
      'an operation without a summary',
      { given: 'no-summary.yaml', want: { rule: 'contracts-operation-summary', line: 14, message: /no summary/ } },
    ],
    [
      'an unused component',
      {
        given: 'unused-component.yaml',
        want: { rule: 'oas3-unused-component', line: 38, message: /unused component/ },
      },
    ],
  ];

  it.each(opinions)('reports %s as a warning on its line, and no error', async (_name, { given, want }) => {
    const problems = await lintSpec(fixture('specs', given));
    expect(problems.filter((problem) => problem.severity === 'error')).toEqual([]);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ rule: want.rule, line: want.line, severity: 'warning' });
    expect(problems[0]?.message).toMatch(want.message);
  });
});
