// `contracts lint`: swagger-parser + Spectral over the shipped specs or the ones given.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { configuredApis, projectRoot, selectApis, specPath } from '../config/apis.js';
import { ContractsError } from '../core/errors.js';
import { githubCommand } from '../lint/github-annotations.js';
import { formatProblem, type LintProblem, problemPointer } from '../lint/lint-problem.js';
import { sarifLog } from '../lint/sarif-report.js';
import { exitCodes, type Command } from './command.js';
import { requireChoice } from './parse-args.js';

export const lintCommand: Command = {
  name: 'lint',
  summary: 'Lint OpenAPI specs (swagger-parser, spectral:oas and our own rules)',
  usage: '[options] [SPEC...]',
  description: [
    'Validates each spec with swagger-parser and Spectral (the spectral:oas recommended rules at their own levels,',
    'plus our own: every example valid against its schema with the same ajv setup the conformance suite uses,',
    'every schema compiling in ajv strict mode, a summary on every operation). Errors are what breaks a tool or a',
    'client (an invalid schema or example, a broken $ref, a duplicate operationId); opinions are warnings.',
    'Prints one line per problem: file:line:col #/json/pointer severity rule message; or JSON, GitHub workflow',
    'commands (annotations on a pull request) or a SARIF 2.1.0 log (for code scanning) with --format; each carries',
    'the pointer.',
    'Without SPEC it lints the spec of every API in contracts.config.yaml (--api picks one).',
  ].join('\n'),
  positionals: [{ name: 'SPEC', description: 'Path of an OpenAPI 3.0 or 3.1 YAML or JSON file (any number)' }],
  options: [
    {
      name: 'api',
      type: 'string',
      valueName: 'name',
      description: 'Lint the spec of this API of the config (or all), instead of SPEC files',
    },
    {
      name: 'format',
      type: 'string',
      valueName: 'text|json|github|sarif',
      description: 'Output format',
      default: 'text',
    },
    {
      name: 'fail-on',
      type: 'string',
      valueName: 'error|warning',
      description: 'Lowest severity that makes the exit status 1',
      default: 'error',
    },
    {
      name: 'spectral-limit',
      type: 'string',
      valueName: 'MB',
      description:
        "Largest spec Spectral's rules run on: past it our own rules and swagger-parser run and a warning says Spectral did not (its time grows faster than the spec: minutes past 20 MB)",
      default: '16',
    },
    {
      name: 'spectral-max-nodes',
      type: 'string',
      valueName: 'N',
      description:
        "Largest spec, counted in JSON nodes with its $refs expanded, Spectral's rules run on (Spectral walks the expanded document: about a second per million nodes; GitHub's description is 1.3 million)",
      default: '10000000',
    },
  ],
  examples: [
    { command: 'contracts lint', description: "Lint every API's spec in contracts.config.yaml" },
    { command: 'contracts lint --api petstore', description: 'Lint one API of the config' },
    {
      command: 'contracts lint specs/client-session.yaml --fail-on warning',
      description: 'Lint one spec; warnings fail too',
    },
    { command: 'contracts lint my-api.yaml --format json', description: 'Lint any OpenAPI 3.1 file, problems as JSON' },
    { command: 'contracts lint --format sarif > contracts-lint.sarif', description: 'A SARIF log for code scanning' },
  ],
  async run(options, positionals, io) {
    const format = requireChoice('format', options.format, ['text', 'json', 'github', 'sarif']);
    const failOn = requireChoice('fail-on', options['fail-on'], ['error', 'warning']);
    const spectralLimitMb = Number(options['spectral-limit']);
    if (!/^\d+(\.\d+)?$/.test(String(options['spectral-limit'])) || !(spectralLimitMb > 0))
      throw new ContractsError(
        'USAGE',
        `--spectral-limit takes a size in MB greater than 0, not "${String(options['spectral-limit'])}"`,
      );
    const spectralMaxNodes = Number(options['spectral-max-nodes']);
    if (!/^\d+$/.test(String(options['spectral-max-nodes'])) || !(spectralMaxNodes > 0))
      throw new ContractsError(
        'USAGE',
        `--spectral-max-nodes takes a whole number greater than 0, not "${String(options['spectral-max-nodes'])}"`,
      );
    if (options.api !== undefined && positionals.length > 0)
      throw new ContractsError('USAGE', 'give SPEC files or --api, not both');
    const files =
      positionals.length > 0
        ? positionals.map((file) => path.resolve(io.cwd, file))
        : (options.api === undefined ? configuredApis() : selectApis(String(options.api))).map(specPath);
    // Spectral is heavy: loaded only when a lint runs, so other commands start fast.
    const { lintSpec } = await import('../lint/lint-spec.js');
    const problems: LintProblem[] = [];
    let couldNotRun: ContractsError | undefined;
    let linted = 0;
    for (const file of files) {
      const display = path.relative(io.cwd, file) || file;
      try {
        problems.push(...(await lintSpec(file, display, { spectralLimitMb, spectralMaxNodes })));
        linted++;
      } catch (error) {
        if (!(error instanceof ContractsError)) throw error;
        couldNotRun ??= error;
        io.err(`contracts lint: ${error.toLine()}`);
      }
    }
    if (format === 'json') {
      const error = couldNotRun && { code: couldNotRun.code, message: couldNotRun.toLine() };
      io.out(
        JSON.stringify(
          {
            problems: problems.map((problem) => {
              const { path: _path, ...rest } = problem;
              return { ...rest, pointer: problemPointer(problem) };
            }),
            ...(error ? { error } : {}),
          },
          null,
          2,
        ),
      );
    } else if (format === 'sarif') io.out(JSON.stringify(sarifLog(problems, toolVersion()), null, 2));
    else if (format === 'github') for (const problem of problems) io.out(githubProblem(problem));
    else for (const problem of problems) io.out(formatProblem(problem));
    const errors = problems.filter((p) => p.severity === 'error').length;
    const warnings = problems.filter((p) => p.severity === 'warning').length;
    if (linted > 0)
      io.err(
        `${linted} spec${linted === 1 ? '' : 's'} linted: ${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}`,
      );
    if (couldNotRun) return exitCodes.cannotRun;
    const failing = failOn === 'warning' ? errors + warnings : errors;
    return failing > 0 ? exitCodes.failed : exitCodes.ok;
  },
};

function githubProblem(problem: LintProblem): string {
  const command = problem.severity === 'error' ? 'error' : problem.severity === 'warning' ? 'warning' : 'notice';
  return githubCommand(
    command,
    {
      file: problem.file,
      line: problem.line,
      col: problem.column,
      title: `${problem.rule} ${problemPointer(problem)}`,
    },
    problem.message,
  );
}

function toolVersion(): string {
  return (JSON.parse(readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as { version: string }).version;
}
