// A project sets the level of lint's rules: `lint.rules` in contracts.config.yaml, `apis[].lint.rules` over it,
// `--level RULE=LEVEL` over both. The level is the problem's severity in every output, `off` drops the rule, and
// only errors fail the lint; a rule lint does not know is refused (exit 2) with the nearest known name.
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMain } from '../helpers/run-main.js';

const spec =
  'openapi: 3.1.0\ninfo: { title: inventory, version: "1" }\npaths:\n  /items:\n    get:\n      responses: { "200": { description: ok } }\n';

async function lint(config: string, args: string[] = []) {
  const project = await mkdtemp(path.join(os.tmpdir(), 'contracts-lint-levels-'));
  await writeFile(path.join(project, 'inventory.yaml'), spec);
  await writeFile(path.join(project, 'contracts.config.yaml'), config);
  return runMain(['lint', '--format', 'json', ...args], project);
}

const api = 'apis:\n  - name: inventory\n    spec: inventory.yaml\n';
/** The problem operation-operationId reports on the spec, at the level given. */
const operationId = (severity: string) => ({
  file: 'inventory.yaml',
  line: 5,
  column: 9,
  severity,
  rule: 'operation-operationId',
  message: 'Operation must have "operationId".',
  pointer: '#/paths/~1items/get',
});

function problemsOf(output: string): { rule: string; severity: string }[] {
  return (JSON.parse(output.slice(output.indexOf('{'), output.lastIndexOf('}') + 1)) as { problems: never[] }).problems;
}

describe('lint rule levels', () => {
  it.each([
    ['spectral:oas’s own level without a setting', api, [], 'warning', 0],
    [
      'a config that turns the warning into an error fails the lint',
      `lint:\n  rules:\n    operation-operationId: error\n${api}`,
      [],
      'error',
      1,
    ],
    [
      'an API’s own level wins over the config’s',
      `lint:\n  rules:\n    operation-operationId: error\n${api}    lint: { rules: { operation-operationId: info } }\n`,
      [],
      'info',
      0,
    ],
    [
      '--level wins over both',
      `lint:\n  rules:\n    operation-operationId: info\n${api}`,
      ['--level', 'operation-operationId=error'],
      'error',
      1,
    ],
    [
      'the level applies to a SPEC given by path when it is an API’s spec',
      `${api}    lint: { rules: { operation-operationId: error } }\n`,
      ['inventory.yaml'],
      'error',
      1,
    ],
    [
      'Spectral’s `warn` and our `warning` are the same level',
      `lint:\n  rules:\n    operation-operationId: warning\n${api}`,
      ['--level', 'oas3-schema=warn'],
      'warning',
      0,
    ],
  ])('%s', async (_name, config, args, severity, code) => {
    const result = await lint(config, args);
    expect(problemsOf(result.output).find((p) => p.rule === 'operation-operationId')).toEqual(operationId(severity));
    expect(result.code, result.output).toBe(code);
  });

  it.each([
    ['the config', `lint:\n  rules:\n    operation-operationId: "off"\n${api}`, []],
    ['--level', api, ['--level', 'operation-operationId=off']],
  ])('drops a rule set off in %s', async (_where, config, args) => {
    const result = await lint(config, args);
    const rules = problemsOf(result.output).map((p) => p.rule);
    expect(rules).toEqual([
      'oas3-api-servers',
      'info-description',
      'contracts-operation-summary',
      'operation-description',
      'operation-tags',
    ]);
    expect(result.code).toBe(0);
  });

  it('turns on a rule spectral:oas leaves off, at the level given', async () => {
    const result = await lint(`lint:\n  rules:\n    info-contact: error\n${api}`);
    expect(problemsOf(result.output).find((p) => p.rule === 'info-contact')).toEqual({
      file: 'inventory.yaml',
      line: 2,
      column: 6,
      severity: 'error',
      rule: 'info-contact',
      message: 'Info object must have "contact" object.',
      pointer: '#/info',
    });
    expect(result.code).toBe(1);
  });

  it.each([
    ['text', 'inventory.yaml:5:9 #/paths/~1items/get error operation-operationId Operation must have "operationId".'],
    [
      'github',
      '::error file=inventory.yaml,line=5,col=9,title=operation-operationId #/paths/~1items/get::Operation must have "operationId".',
    ],
  ])('shows the configured level in the %s output', async (format, line) => {
    const result = await lint(`lint:\n  rules:\n    operation-operationId: error\n${api}`, ['--format', format]);
    expect(result.output.split('\n')).toContain(line);
    expect(result.code).toBe(1);
  });

  it('shows the configured level in the SARIF log', async () => {
    const result = await lint(`lint:\n  rules:\n    operation-operationId: error\n${api}`, ['--format', 'sarif']);
    const log = JSON.parse(result.output.slice(0, result.output.lastIndexOf('}') + 1)) as {
      runs: { results: { ruleId: string; level: string }[] }[];
    };
    expect(log.runs[0]!.results.filter((r) => r.ruleId === 'operation-operationId').map((r) => r.level)).toEqual([
      'error',
    ]);
    expect(result.code).toBe(1);
  });

  it.each([
    [
      'a misspelt rule in the config',
      `lint:\n  rules:\n    oas3-unused-components: error\n${api}`,
      [],
      'contracts lint: contracts.config.yaml:3:5: lint.rules: unknown rule "oas3-unused-components". Did you mean "oas3-unused-component"?',
    ],
    [
      'a rule nothing is near, in an API',
      `${api}    lint: { rules: { xyzzy: "off" } }\n`,
      [],
      `contracts lint: contracts.config.yaml:4:22: apis[0].lint.rules: unknown rule "xyzzy". A rule is one of spectral:oas's, one of ours (contracts-operation-summary, contracts-example-valid…) or swagger-parser`,
    ],
    [
      'a level no ruleset has',
      `lint:\n  rules:\n    operation-operationId: fatal\n${api}`,
      [],
      'contracts lint: contracts.config.yaml:3:5: lint.rules.operation-operationId must be one of error, warn, warning, info, hint, off',
    ],
    [
      'a misspelt rule on the command line',
      api,
      ['--level', 'operation-operationid=error'],
      'contracts lint: --level: unknown rule "operation-operationid". Did you mean "operation-operationId"?',
    ],
    [
      'a level missing on the command line',
      api,
      ['--level', 'operation-tags'],
      'contracts lint: --level operation-tags= takes one of error, warn, warning, info, hint, off, not ""',
    ],
  ])('refuses %s in one line, exit 2', async (_name, config, args, line) => {
    const result = await lint(config, args);
    expect(result.output.split('\n')).toContain(line);
    expect(result.code).toBe(2);
  });
});
