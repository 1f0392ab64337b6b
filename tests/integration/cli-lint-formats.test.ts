import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { fixture } from '../helpers/paths.js';
import { runCli } from '../helpers/run-cli.js';

// The published SARIF 2.1.0 schema, vendored (see tests/fixtures/sarif/SOURCE.md).
const sarifSchema = JSON.parse(readFileSync(fixture('sarif', 'sarif-2.1.0.json'), 'utf8')) as object;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormatsModule.default(ajv);
const validateSarif = ajv.compile(sarifSchema);

const broken = ['tests/fixtures/specs/example-violates-schema.yaml', 'tests/fixtures/specs/openapi-warnings.yaml'];

interface SarifResult {
  ruleId: string;
  level: string;
  locations: { physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } } }[];
}

describe('contracts lint --format sarif (real process)', () => {
  it('writes a SARIF 2.1.0 log that its published JSON schema accepts, one result per problem', async () => {
    const result = await runCli(['lint', '--format', 'sarif', ...broken]);
    const log = JSON.parse(result.stdout) as { version: string; runs: { results: SarifResult[] }[] };
    expect(validateSarif(log), JSON.stringify(validateSarif.errors)).toBe(true);
    const results = log.runs[0]!.results;
    expect(
      results.map((r) => [
        r.ruleId,
        r.level,
        r.locations[0]!.physicalLocation.artifactLocation.uri,
        r.locations[0]!.physicalLocation.region.startLine,
      ]),
    ).toEqual([
      ['contracts-example-valid', 'error', 'tests/fixtures/specs/example-violates-schema.yaml', 33],
      ['operation-description', 'warning', 'tests/fixtures/specs/openapi-warnings.yaml', 14],
    ]);
    expect(result.code).toBe(1);
  });

  it('writes a valid log with no results for clean specs', async () => {
    const result = await runCli(['lint', '--format', 'sarif']);
    const log = JSON.parse(result.stdout) as { runs: { results: unknown[] }[] };
    expect(validateSarif(log), JSON.stringify(validateSarif.errors)).toBe(true);
    expect(log.runs[0]!.results).toEqual([]);
    expect(result.code).toBe(0);
  });

  it('is checked by a validator that refuses a log the schema forbids', () => {
    const bad = {
      version: '2.1.0',
      runs: [{ tool: { driver: { name: 'x' } }, results: [{ ruleId: 'r', level: 'fatal', message: { text: 'm' } }] }],
    };
    expect(validateSarif(bad)).toBe(false);
  });
});

describe('contracts lint --format github (real process)', () => {
  it('writes one workflow command per problem, error or warning, with file, line, column and rule', async () => {
    const result = await runCli(['lint', '--format', 'github', ...broken]);
    expect(result.stdout.trim().split('\n')).toEqual([
      '::error file=tests/fixtures/specs/example-violates-schema.yaml,line=33,col=23,title=contracts-example-valid::example does not match its schema: /id must be integer',
      '::warning file=tests/fixtures/specs/openapi-warnings.yaml,line=14,col=9,title=operation-description::Operation "description" must be present and non-empty string.',
    ]);
    expect(result.code).toBe(1);
  });

  it('names the new formats in --help and refuses others', async () => {
    expect((await runCli(['lint', '--help'])).stdout).toContain('--format <text|json|github|sarif>');
    const bad = await runCli(['lint', '--format', 'xml']);
    expect(bad.stderr).toMatch(/--format must be one of text, json, github, sarif, not "xml"/);
    expect(bad.code).toBe(2);
  });
});
