import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

describe('contracts lint (real process)', () => {
  it('exits 0 on both shipped specs', async () => {
    const result = await runCli(['lint']);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('2 specs linted: 0 errors, 0 warnings');
    expect(result.code).toBe(0);
  });

  it('exits 1 with file:line:col #/json/pointer severity rule message for a broken spec', async () => {
    const result = await runCli(['lint', 'tests/fixtures/specs/example-violates-schema.yaml']);
    expect(result.stdout.trim()).toBe(
      'tests/fixtures/specs/example-violates-schema.yaml:33:23 #/paths/~1items~1%7Bid%7D/get/responses/200/content/application~1json/example error contracts-example-valid example does not match its schema: /id must be integer',
    );
    expect(result.code).toBe(1);
  });

  it.each([
    ['unknown-type.yaml', 44, 'oas3-schema'],
    ['example-violates-schema.yaml', 33, 'contracts-example-valid'],
    ['duplicate-operation-id.yaml', 38, 'operation-operationId-unique'],
    ['missing-path-parameter.yaml', 14, 'path-params'],
  ])('exits 1 for %s, naming the file and line of the problem', async (file, line, rule) => {
    const result = await runCli(['lint', `tests/fixtures/specs/${file}`]);
    expect(result.stdout).toMatch(
      new RegExp(`^tests/fixtures/specs/${file.replace('.', '\\.')}:${line}:\\d+ #\\S* error ${rule} `, 'm'),
    );
    expect(result.code).toBe(1);
  });

  it("skips Spectral's rules on a spec over --spectral-limit, says so, and still runs our own rules", async () => {
    // duplicate-operation-id.yaml breaks a Spectral rule; example-violates-schema.yaml one of ours.
    const spectral = await runCli([
      'lint',
      '--spectral-limit',
      '0.0001',
      'tests/fixtures/specs/duplicate-operation-id.yaml',
    ]);
    expect(spectral.stdout).toMatch(
      /^tests\/fixtures\/specs\/duplicate-operation-id\.yaml:1:1 # warning contracts-spectral-skipped Spectral's rules \(spectral:oas\) were not run: the spec is 0\.0 MB, over --spectral-limit 0\.0001 MB/m,
    );
    expect(spectral.stdout).not.toContain('operation-operationId-unique');
    expect(spectral.code).toBe(0);
    const ours = await runCli([
      'lint',
      '--spectral-limit',
      '0.0001',
      'tests/fixtures/specs/example-violates-schema.yaml',
    ]);
    expect(ours.stdout).toMatch(
      /:33:\d+ #\S+ error contracts-example-valid example does not match its schema: \/id must be integer/,
    );
    expect(ours.code).toBe(1);
    const refused = await runCli(['lint', '--spectral-limit', 'big', 'tests/fixtures/specs/clean.yaml']);
    expect(refused.stderr).toContain('--spectral-limit takes a size in MB greater than 0, not "big"');
    expect(refused.code).toBe(2);
  });

  it("skips Spectral's rules on a spec whose $refs expand past --spectral-max-nodes, and says so", async () => {
    const args = ['lint', 'tests/fixtures/specs/duplicate-operation-id.yaml'];
    const skipped = await runCli([...args, '--spectral-max-nodes', '50']);
    expect(skipped.stdout).toMatch(
      /^tests\/fixtures\/specs\/duplicate-operation-id\.yaml:1:1 # warning contracts-spectral-skipped Spectral's rules \(spectral:oas\) were not run: the spec with its \$refs expanded is over 50 JSON nodes \(--spectral-max-nodes\)/m,
    );
    expect(skipped.stdout).not.toContain('operation-operationId-unique');
    const ran = await runCli(args);
    expect(ran.stdout).toContain('operation-operationId-unique');
    expect(ran.stdout).not.toContain('contracts-spectral-skipped');
    const refused = await runCli([...args, '--spectral-max-nodes', '1e6']);
    expect(refused.stderr).toContain('--spectral-max-nodes takes a whole number greater than 0, not "1e6"');
    expect(refused.code).toBe(2);
  });

  it('prints problems as JSON with --format json', async () => {
    const result = await runCli(['lint', '--format', 'json', 'tests/fixtures/specs/duplicate-operation-id.yaml']);
    const parsed = JSON.parse(result.stdout) as { problems: { rule: string; line: number }[] };
    expect(parsed.problems).toEqual([expect.objectContaining({ rule: 'operation-operationId-unique', line: 38 })]);
    expect(result.code).toBe(1);
  });

  it('fails on warnings only when asked with --fail-on warning', async () => {
    const spec = 'tests/fixtures/specs/openapi-warnings.yaml';
    expect((await runCli(['lint', spec])).code).toBe(0);
    expect((await runCli(['lint', '--fail-on', 'warning', spec])).code).toBe(1);
  });

  it.each([
    ['a missing file', ['lint', 'nope.yaml'], /^contracts lint: spec not found: nope\.yaml$/m],
    [
      'a file that is not YAML',
      ['lint', 'tests/fixtures/specs/not-yaml.yaml'],
      /^contracts lint: tests\/fixtures\/specs\/not-yaml\.yaml:4:1: not valid YAML/m,
    ],
    ['Swagger 1.2', ['lint', 'tests/fixtures/specs/swagger-12.yaml'], /found swagger: 1\.2$/m],
    [
      'a broken $ref',
      ['lint', 'tests/fixtures/specs/broken-ref.yaml'],
      /broken-ref\.yaml:32:17: \$ref "#\/components\/schemas\/Itme" does not resolve/,
    ],
    ['an unknown option', ['lint', '--frob'], /^contracts lint: unknown option --frob$/m],
    ['a bad --format', ['lint', '--format', 'xml'], /--format must be one of text, json, github, sarif, not "xml"/],
  ])('exits 2 with one clear line for %s, and no stack trace', async (_name, args, message) => {
    const result = await runCli(args);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(result.code).toBe(2);
  });

  it('explains every option in --help', async () => {
    const result = await runCli(['lint', '--help']);
    for (const option of ['--format', '--fail-on', '--help']) expect(result.stdout).toContain(option);
    expect(result.stdout).toContain('Examples:');
    expect(result.code).toBe(0);
  });
});
