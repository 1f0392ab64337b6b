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
  locations: {
    physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } };
    logicalLocations: { fullyQualifiedName: string }[];
  }[];
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
        r.locations[0]!.logicalLocations[0]!.fullyQualifiedName,
      ]),
    ).toEqual([
      [
        'contracts-example-valid',
        'error',
        'tests/fixtures/specs/example-violates-schema.yaml',
        33,
        '#/paths/~1items~1%7Bid%7D/get/responses/200/content/application~1json/example',
      ],
      [
        'operation-description',
        'warning',
        'tests/fixtures/specs/openapi-warnings.yaml',
        14,
        '#/paths/~1items~1%7Bid%7D/get',
      ],
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

describe('a spec written on one line (real process)', () => {
  // Unleash serves its 748 KB description on one line: every finding at `spec.json:1:…`; the pointer tells them apart.
  it('names each finding by its JSON pointer in text and JSON', async () => {
    const spec = fixture('specs', 'one-line.json');
    const text = await runCli(['lint', spec], { cwd: fixture('specs') });
    expect(text.stdout.trim().split('\n')).toContain(
      'one-line.json:1:297 #/paths/~1items~1%7Bid%7D/get/responses/200/content/application~1json/example error contracts-example-valid example does not match its schema: the example must be integer',
    );
    const json = await runCli(['lint', '--format', 'json', spec], { cwd: fixture('specs') });
    const { problems } = JSON.parse(json.stdout) as { problems: { rule: string }[] };
    expect(problems.find((problem) => problem.rule === 'contracts-example-valid')).toEqual({
      file: 'one-line.json',
      line: 1,
      column: 297,
      severity: 'error',
      rule: 'contracts-example-valid',
      message: 'example does not match its schema: the example must be integer',
      pointer: '#/paths/~1items~1%7Bid%7D/get/responses/200/content/application~1json/example',
    });
  });
});

describe('contracts lint --format github (real process)', () => {
  it('writes one workflow command per problem, error or warning, with file, line, column and rule', async () => {
    const result = await runCli(['lint', '--format', 'github', ...broken]);
    expect(result.stdout.trim().split('\n')).toEqual([
      '::error file=tests/fixtures/specs/example-violates-schema.yaml,line=33,col=23,title=contracts-example-valid #/paths/~1items~1%257Bid%257D/get/responses/200/content/application~1json/example::example does not match its schema: /id must be integer',
      '::warning file=tests/fixtures/specs/openapi-warnings.yaml,line=14,col=9,title=operation-description #/paths/~1items~1%257Bid%257D/get::Operation "description" must be present and non-empty string.',
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
