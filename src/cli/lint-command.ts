// `contracts lint`: swagger-parser + Spectral over the shipped specs or the ones given.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../config/package-root.js';
import { type ApiEntry, type Project, specPath } from '../config/project.js';
import { ContractsError } from '../core/errors.js';
import { githubCommand } from '../lint/github-annotations.js';
import { formatProblem, type LintProblem, problemPointer } from '../lint/lint-problem.js';
import { applyRuleLevels, type RuleLevels } from '../lint/rule-levels.js';
import { isLintRule, type LintLevel, lintLevels, unknownRuleHint } from '../lint/rule-names.js';
import { sarifLog } from '../lint/sarif-report.js';
import { type Command, exitCodes, type Io, type ParsedOptions } from './command.js';
import { requireChoice } from './options/values.js';
import { formatOption } from './options/shared-options.js';
import { texts, valueOf } from './options/typed-option.js';

const lintFormat = formatOption(['text', 'json', 'github', 'sarif'] as const);

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
    "A rule's level comes from the config's lint.rules (RULE: error|warn|info|hint|off, as in a Spectral ruleset), an",
    "API's own apis[].lint.rules over it, and --level RULE=LEVEL over both; off drops the rule's problems.",
  ].join('\n'),
  positionals: [
    { name: 'SPEC', description: 'Path of a Swagger 2.0 or OpenAPI 3.0-3.2 YAML or JSON file (any number)' },
  ],
  options: [
    {
      name: 'api',
      type: 'string',
      valueName: 'name',
      description: 'Lint the spec of this API of the config (or all), instead of SPEC files',
    },
    lintFormat,
    {
      name: 'fail-on',
      type: 'string',
      valueName: 'error|warning',
      description: 'Lowest severity that makes the exit status 1',
      default: 'error',
    },
    {
      name: 'level',
      type: 'string',
      valueName: 'rule=level',
      multiple: true,
      description: `Set a rule's level (${lintLevels.join(', ')}), over the config's lint.rules`,
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
      command: 'contracts lint specs/orders.yaml --fail-on warning',
      description: 'Lint one spec; warnings fail too',
    },
    { command: 'contracts lint my-api.yaml --format json', description: 'Lint any OpenAPI 3.1 file, problems as JSON' },
    { command: 'contracts lint --format sarif > contracts-lint.sarif', description: 'A SARIF log for code scanning' },
    {
      command: 'contracts lint --level oas3-unused-component=error --level operation-tags=off',
      description: 'An unused component fails the lint; missing tags are not reported',
    },
  ],
  async run(options, positionals, io) {
    const format = valueOf(options, lintFormat);
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
    const cliLevels = parseLevels(texts(options.level));
    if (options.api !== undefined && positionals.length > 0)
      throw new ContractsError('USAGE', 'give SPEC files or --api, not both');
    const targets = lintTargets(options, positionals, io.cwd, io.project);
    const { problems, couldNotRun, linted } = await lintAll(
      targets,
      io,
      (api) => ({
        ...io.project.lintRules,
        ...api?.lintRules,
        ...cliLevels,
      }),
      { spectralLimitMb, spectralMaxNodes },
    );
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

/** The files to lint, each with the API of the config whose spec it is (its lint.rules apply), if any. */
function lintTargets(
  options: ParsedOptions,
  positionals: string[],
  cwd: string,
  project: Project,
): { file: string; api?: ApiEntry }[] {
  if (positionals.length === 0)
    return (options.api === undefined ? project.all() : project.select(String(options.api))).map((api) => ({
      file: specPath(api),
      api,
    }));
  // SPEC files given without a config: no API, no levels but --level's.
  const byFile = new Map(project.apis.map((api) => [specPath(api), api]));
  return positionals.map((given) => {
    const file = path.resolve(cwd, given);
    const api = byFile.get(file);
    return api ? { file, api } : { file };
  });
}

/**
 * Lints each file in turn. SIGINT or SIGTERM stops the lint at once (a spec can take minutes): it says so in one
 * line, and what was finished is reported with the stop as the error that kept the rest from running (exit 2).
 */
async function lintAll(
  targets: readonly { file: string; api?: ApiEntry }[],
  io: Io,
  levelsFor: (api: ApiEntry | undefined) => RuleLevels,
  limits: { spectralLimitMb: number; spectralMaxNodes: number },
): Promise<{ problems: LintProblem[]; couldNotRun: ContractsError | undefined; linted: number }> {
  let signalled: (signal: NodeJS.Signals) => void = () => {};
  const stopped = new Promise<NodeJS.Signals>((resolve) => (signalled = resolve));
  const onInt = () => signalled('SIGINT');
  const onTerm = () => signalled('SIGTERM');
  process.once('SIGINT', onInt);
  process.once('SIGTERM', onTerm);
  const problems: LintProblem[] = [];
  let couldNotRun: ContractsError | undefined;
  let linted = 0;
  try {
    // Spectral is heavy: loaded only when a lint runs, so other commands start fast.
    const loading = import('../lint/lint-spec.js');
    for (const [index, { file, api }] of targets.entries()) {
      const display = path.relative(io.cwd, file) || file;
      const levels = levelsFor(api);
      const lint = loading.then(({ lintSpec }) => lintSpec(file, display, { ...limits, rules: levels }));
      lint.catch(() => {}); // a lint the signal overtook may still fail: nobody is waiting for it any more
      try {
        const outcome = await Promise.race([lint, stopped]);
        if (typeof outcome === 'string') {
          const left = targets.length - index;
          couldNotRun = new ContractsError(
            'INTERRUPTED',
            `${outcome}: stopped while linting ${display}${left > 1 ? ` and ${left - 1} more spec${left > 2 ? 's' : ''} not linted` : ''}`,
          );
          io.err(`contracts lint: ${couldNotRun.toLine()}`);
          break;
        }
        problems.push(...applyRuleLevels(outcome, levels));
        linted++;
      } catch (error) {
        if (!(error instanceof ContractsError)) throw error;
        couldNotRun ??= error;
        io.err(`contracts lint: ${error.toLine()}`);
      }
    }
  } finally {
    process.off('SIGINT', onInt);
    process.off('SIGTERM', onTerm);
  }
  return { problems, couldNotRun, linted };
}

/** `--level RULE=LEVEL` values → levels; an unknown rule or level is a usage error naming the nearest rule. */
function parseLevels(values: readonly string[]): RuleLevels {
  const levels: Record<string, LintLevel> = {};
  for (const value of values) {
    const at = value.lastIndexOf('=');
    const rule = at < 0 ? value : value.slice(0, at);
    const level = at < 0 ? '' : value.slice(at + 1);
    if (!isLintRule(rule))
      throw new ContractsError('USAGE', `--level: unknown rule "${rule}". ${unknownRuleHint(rule)}`);
    if (!(lintLevels as readonly string[]).includes(level))
      throw new ContractsError('USAGE', `--level ${rule}= takes one of ${lintLevels.join(', ')}, not "${level}"`);
    levels[rule] = level as LintLevel;
  }
  return levels;
}

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
  return (JSON.parse(readFileSync(path.join(packageRoot, 'package.json'), 'utf8')) as { version: string }).version;
}
