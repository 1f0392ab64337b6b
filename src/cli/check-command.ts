// `contracts check`: the conformance suite against embedded mocks (no --base-url) or a real server.
import { specPath, type Project } from '../config/project.js';
import { ContractsError } from '../core/errors.js';
import type { ApiPlugin } from '../plugins/api-plugin.js';
import type { CheckPlugin } from '../runner/check-plugin.js';
import { allowEnvOption } from './allow-env-option.js';
import { exitCodes, type Command, type OptionSpec, type ParsedOptions } from './command.js';
import { optionSets, pluginOptions, pluginSettings } from './plugin-options.js';
import {
  apiOption,
  baseUrlOption,
  maxBodyOption,
  reportOption,
  strictOption,
  timeoutOption,
} from './options/shared-options.js';
import { valueOf, withOption, type TypedOption } from './options/typed-option.js';
import { wholeNumber } from './options/values.js';
import { coverageOptions, coverageSettings, reportCoverage } from './coverage-output.js';
import { specOption, specOverrides } from './spec-option.js';
import { checksOption, userChecksFor } from './checks-option.js';
import { mockEngine, mockEngineOption } from './mock-engine-option.js';

/** Retries of a request answered 429 (RFC 6585 §4), each waiting as its Retry-After says (RFC 9110 §10.2.3). */
const retriesOption: TypedOption<number> = {
  name: 'retries',
  type: 'string',
  valueName: 'n',
  description: 'Retries of a request answered 429, waiting as Retry-After says (at most 30 s each)',
  default: '3',
  parse: (raw) => wholeNumber('retries', raw, 0, 10),
};

export const checkCommand: Command = {
  name: 'check',
  summary: 'Run the conformance suite against the embedded mocks or a server (--base-url)',
  usage: '[options]',
  description: [
    'Calls each API of the config and checks every answer against its spec: status code, content type, body schema',
    "and response headers. Its operations go in the order of the API's resource model (creates first, a",
    'parent before what nests under it; deletes last), with its documented request examples or, where it has none,',
    'its smallest valid request; ids come from earlier answers (links, the id field, Location). Only what the run',
    'created is updated or deleted. An operation whose path it cannot bind is reported as not exercised, with the',
    'reason (a failure with --strict, or when an answer of the target kept it from a value). It prints how many of',
    'the documented statuses it saw. An API with a check sequence of its own (its plug-in) runs that instead, with',
    'the options the plug-in adds (listed below when the config has such an API).',
    '',
    'Without --base-url it starts an embedded mock of each API (the stateful sandbox of its spec), runs against it',
    'and stops it; an API with a sequence of its own gets Prism, and its checks that need a stateful server are',
    'reported as skipped. Credentials come only from the environment variables the config names',
    '(apis[].credentials), and never appear in output or reports.',
  ].join('\n'),
  // The options name the project's APIs, known once main() has read it.
  options(project: Project): OptionSpec[] {
    return [
      apiOption(project.names),
      withOption(baseUrlOption, {
        description: 'The server to check (staging, the sandbox); without it, the embedded mock of each API',
      }),
      {
        ...mockEngineOption,
        description:
          'Without --base-url: the embedded mock checked. stateful: the stateful sandbox of each spec (what contracts sandbox --spec serves: a create stores, a read returns it); prism: Prism behind our checks; own: our stateless engine',
      },
      {
        name: 'read-only',
        type: 'boolean',
        description: 'Only GET operations, on what exists; creates, changes and deletes nothing',
        parse: (raw) => raw === true,
      },
      // The options of the plug-ins of the config's APIs (an owner and a repository, a receiver of deliveries, …).
      ...pluginOptions(project, 'check'),
      strictOption,
      checksOption,
      timeoutOption,
      retriesOption,
      maxBodyOption,
      specOption(
        `Check against another spec file: API=FILE, e.g. ${project.names[0] ?? 'NAME'}=draft.yaml (or FILE when --api chose one API)`,
      ),
      withOption(reportOption, {
        description:
          'Write a report: junit:FILE (one testcase per operation × check), json:FILE or html:FILE (one page, offline)',
      }),
      ...coverageOptions,
      allowEnvOption,
    ];
  },
  sendsCredentials: true,
  examples: [
    { command: 'contracts check', description: 'Every API of the config against its embedded mock' },
    {
      command: 'contracts check --api NAME --base-url https://staging.example.com --report junit:reports/contracts.xml',
      description: 'One API against staging, with a JUnit report for CI',
    },
    {
      command: 'contracts check --api NAME --base-url https://staging.example.com --read-only',
      description: 'Only GET operations: creates, changes and deletes nothing',
    },
  ],
  async run(options, positionals, io) {
    if (positionals.length > 0) throw new ContractsError('USAGE', `unexpected argument "${positionals[0]}"`);
    // The example APIs run their own sequences; every other API the generic conformance pass (runner/generic/).
    const { project } = io;
    const entries = project.select(valueOf(options, apiOption(project.names)));
    const selected = entries.map((entry) => entry.name);
    const settings = validate(options);
    // Each selected API's plug-in reads its own options' values (src/plugins/api-plugin.ts): the command names none.
    const plugged = optionSets(selected, 'check');
    const pluginSetting = Object.assign({}, ...plugged.map(({ set }) => pluginSettings(set, options)));
    for (const { set } of plugged) set.settle?.(pluginSetting, settings);
    const receiver = plugged.find(({ set }) => set.receiver)?.set.receiver?.(pluginSetting);
    const userChecks = userChecksFor(options, io, selected, io.project.apis);
    const [
      { CheckRunner },
      { consoleReport },
      { parseReportTargets, writeReports },
      { checkReportTargets },
      { pluginOf },
    ] = await Promise.all([
      import('../runner/run-check.js'),
      import('../reports/console-report.js'),
      import('../reports/write-reports.js'),
      import('../reports/report-path.js'),
      import('../plugins/registry.js'),
    ]);
    const coverageSetting = coverageSettings(options, io);
    const wantsCoverage = coverageSetting.file !== undefined || coverageSetting.min !== undefined;
    const reports = parseReportTargets(valueOf(options, reportOption), io.cwd);
    const specFiles = specOverrides(options.spec, io.cwd, selected, project.names);
    // Before anything runs: a report must not replace a spec (the run's, or a shipped one) or land nowhere.
    await checkReportTargets(reports, [
      ...Object.entries(specFiles).map(([name, file]) => ({ file, what: `the ${name} spec given with --spec` })),
      ...project.apis.map((entry) => ({
        file: specPath(entry),
        what: `the shipped ${entry.name} spec (${entry.spec})`,
      })),
    ]);
    const { redactor } = io;
    const checkPlugins = await loadCheckPlugins(selected, pluginOf);
    const runner = new CheckRunner({
      apis: entries,
      ...(settings.baseUrl ? { baseUrl: settings.baseUrl } : { mockEngine: mockEngine(options['mock-engine']) }),
      readOnly: settings.readOnly,
      strict: valueOf(options, strictOption),
      timeoutMs: settings.timeoutMs,
      retries: settings.retries,
      maxBodyBytes: settings.maxBodyBytes,
      env: io.env,
      plugins: (api) => checkPlugins.get(api),
      settings: pluginSetting,
      ...(settings.baseUrl !== undefined && receiver !== undefined ? { receiver } : {}),
      redactor,
      log: (line) => io.err(`contracts check: ${line}`),
      specFiles,
      coverage: wantsCoverage,
      userChecks,
    });
    const onSignal = (signal: string) => {
      io.err(`contracts check: ${signal}: stopping after the request in flight (press Ctrl-C again to abort it)…`);
      runner.interrupt();
    };
    const onInt = () => onSignal('SIGINT');
    const onTerm = () => onSignal('SIGTERM');
    process.once('SIGINT', onInt);
    process.once('SIGTERM', onTerm);
    let run;
    try {
      run = await runner.run();
    } finally {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
    }
    if (run.results.length > 0) io.out(consoleReport(run));
    await writeReports(run, reports, redactor);
    if (run.error) {
      io.err(`contracts check: ${run.error.toLine()}`);
      return exitCodes.cannotRun;
    }
    const underCoverage = run.coverage ? await reportCoverage(run.coverage, coverageSetting, io, io.out) : false;
    return run.summary.failed > 0 || underCoverage ? exitCodes.failed : exitCodes.ok;
  },
};

function validate(options: ParsedOptions) {
  const baseUrl = valueOf(options, baseUrlOption);
  const readOnly = options['read-only'] === true;
  if (readOnly && baseUrl === undefined)
    throw new ContractsError('USAGE', '--read-only needs --base-url (the embedded mocks change nothing anyway)');
  return {
    baseUrl,
    timeoutMs: valueOf(options, timeoutOption),
    retries: valueOf(options, retriesOption),
    maxBodyBytes: valueOf(options, maxBodyOption),
    readOnly,
  };
}

/** The check part of each selected API's plug-in (src/plugins/registry.ts), loaded before the run starts. */
async function loadCheckPlugins(
  selected: readonly string[],
  pluginOf: (api: string) => ApiPlugin | undefined,
): Promise<Map<string, CheckPlugin>> {
  const loaded = new Map<string, CheckPlugin>();
  for (const api of selected) {
    const load = pluginOf(api)?.check;
    if (load) loaded.set(api, await load());
  }
  return loaded;
}
