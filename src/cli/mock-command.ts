// `contracts mock`: Prism mock servers for the specs, one process and one port per API, until Ctrl-C.
import { ContractsError } from '../core/errors.js';
import type { ApiName, Project } from '../config/project.js';
import { exitCodes, type Command, type OptionSpec } from './command.js';
import { aside } from './help.js';
import { untilSignalled } from './parse-args.js';
import { requirePort } from './options/values.js';
import { specOption, specOverrides } from './spec-option.js';
import { mockEngine } from './mock-engine-option.js';

const portOption = (api: ApiName) => `port-${api}`;

function requireSeconds(name: string, value: unknown): number {
  const seconds = Number(value);
  if (!/^\d+(\.\d+)?$/.test(String(value)) || seconds <= 0 || seconds > 3600)
    throw new ContractsError('USAGE', `--${name} takes a number of seconds from 1 to 3600, not "${String(value)}"`);
  return seconds;
}

export const mockCommand: Command = {
  name: 'mock',
  summary(project: Project) {
    return `Serve the specs with Prism mock servers${aside(project.apis.map((api) => `${api.name} :${api.mockPort}`))}`;
  },
  usage: '[options]',
  description: [
    'Starts one Prism process per spec, waits until each answers, prints the base URLs and runs until Ctrl-C or',
    'SIGTERM, when it stops every Prism process it started. By default the mocks answer with the examples of',
    'the specs; --dynamic generates bodies from the schemas instead.',
    '',
    'Prism validates requests: one the spec does not allow (a missing credential or required header, a parameter',
    'of the wrong type or out of range) gets 401 or 422. Send `Prefer: code=404` (any documented status) to get',
    'that response, `Prefer: example=NAME` for a named example.',
    '',
    '--engine own serves with our own engine instead: no Prism, ready in seconds on any spec. A request the spec',
    'refuses gets its documented 400 or 422 (else 400, problem+json saying why), one without the credential its',
    'security requires 401 (any value passes); otherwise the lowest documented 2xx, with the first example the',
    'schema accepts, else a generated body. Every answer is checked against the spec before it is served.',
  ].join('\n'),
  // The options name the project's APIs (`--port-NAME`), known once main() has read it.
  options(project: Project): OptionSpec[] {
    return [
      {
        name: 'api',
        type: 'string',
        valueName: 'name',
        description: `Which API to serve: ${project.names.join(', ')} or all`,
        default: 'all',
      },
      // No table default: the default is the config's mockPort, known only once the config is read.
      ...project.apis.map(({ name: api, mockPort }) => ({
        name: portOption(api),
        type: 'string' as const,
        valueName: 'port',
        description: `Port of the ${api} mock (0: any free port; default: its mockPort in the config, ${mockPort})`,
      })),
      { name: 'host', type: 'string', valueName: 'host', description: 'Address to listen on', default: '127.0.0.1' },
      {
        name: 'engine',
        type: 'string',
        valueName: 'prism|own',
        description:
          "prism: Prism behind our checks; own: our engine, ready in seconds on any spec (Prism takes minutes on Stripe's), documented answers, examples first",
        default: 'prism',
      },
      {
        name: 'dynamic',
        type: 'boolean',
        description: 'Generate response bodies from the schemas (Prism dynamic mode)',
      },
      {
        name: 'seed',
        type: 'string',
        valueName: 'seed',
        description: 'With --dynamic: seed for repeatable generated data',
        requires: ['dynamic'],
      },
      specOption(
        `Serve another spec file: API=FILE, e.g. ${project.names[0] ?? 'NAME'}=draft.yaml (or FILE when --api chose one API)`,
      ),
      {
        name: 'verbose',
        type: 'boolean',
        description: "Show Prism's own log (it is quiet by default: its logging halves its throughput)",
      },
      {
        name: 'start-timeout',
        type: 'string',
        valueName: 'seconds',
        description:
          "How long each Prism may take to answer after it starts (default: 30 s plus 10 s per MB of the spec; Stripe's took over 30 s on 2 cores)",
      },
    ];
  },
  examples(project: Project) {
    const api = project.names[0] ?? 'NAME';
    return [
      { command: 'contracts mock', description: `Every API's mock, on its mockPort of the config` },
      {
        command: `contracts mock --api ${api} --port-${api} 5011`,
        description: `Only the ${api} mock, on port 5011`,
      },
      { command: 'contracts mock --dynamic --seed 42', description: 'Generated bodies, the same on every run' },
    ];
  },
  async run(options, _positionals, io) {
    const { project } = io;
    const entries = project.select(String(options.api));
    const selected = entries.map((entry) => entry.name);
    const engine = mockEngine(options.engine, 'engine');
    if (engine === 'own' && (options.dynamic || options.verbose))
      throw new ContractsError(
        'USAGE',
        `--${options.dynamic ? 'dynamic' : 'verbose'} is Prism's: it does not go with --engine own`,
      );
    const ports = Object.fromEntries(
      project.apis.map(({ name: api, mockPort }) => [
        api,
        requirePort(portOption(api), options[portOption(api)] ?? mockPort),
      ]),
    ) as Record<ApiName, number>;
    const starting = new AbortController();
    const signalled = untilSignalled().then((signal) => {
      starting.abort();
      return { signal };
    });
    const { startMocks, PrismTimeout } = await import('../mock/start-mocks.js');
    const began = Date.now();
    const mocks = await startMocks({
      apis: entries,
      ports,
      host: String(options.host),
      dynamic: Boolean(options.dynamic),
      ...(typeof options.seed === 'string' ? { seed: options.seed } : {}),
      verbose: Boolean(options.verbose),
      onLog: (api, line) => io.err(`[${api}] ${line}`),
      specFiles: specOverrides(options.spec, io.cwd, selected, project.names),
      signal: starting.signal,
      engine,
      ...(options['start-timeout'] === undefined
        ? {}
        : { startTimeoutMs: requireSeconds('start-timeout', options['start-timeout']) * 1000 }),
    }).catch((error: unknown) => {
      // A spec Prism reads for minutes (Stripe's): our own engine serves it in seconds.
      if (error instanceof PrismTimeout)
        throw new ContractsError(error.code, `${error.message}, or serve it without Prism: --engine own`);
      throw error;
    });
    for (const mock of mocks.mocks)
      io.out(`${mock.api.padEnd(20)} ${mock.url}   (${engine === 'own' ? 'our engine' : `Prism pid ${mock.pid}`})`);
    const mode =
      engine === 'own'
        ? 'documented answers, checked against the specs'
        : options.dynamic
          ? `dynamic bodies${options.seed === undefined ? '' : `, seed ${String(options.seed)}`}`
          : "the specs' examples";
    io.out(`Mocks ready in ${((Date.now() - began) / 1000).toFixed(1)} s, serving ${mode}. Ctrl-C to stop.`);

    let outcome = await Promise.race([signalled, mocks.unexpectedExit.then((exit) => ({ exit }))]);
    // Ctrl-C in a terminal signals the whole process group: Prism may end of it before our own handler runs. A Prism
    // ended by a terminal's signal, with that signal reaching us too, is the user stopping the mocks.
    if ('exit' in outcome && ['SIGINT', 'SIGTERM', 'SIGHUP'].includes(outcome.exit.signal ?? '')) {
      const ours = await Promise.race([
        signalled,
        new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 1000)),
      ]);
      if (ours) outcome = ours;
    }
    await mocks.stop();
    if ('exit' in outcome) {
      const { api, code, signal, output } = outcome.exit;
      io.err(
        `contracts mock: Prism for ${api} stopped unexpectedly (${signal ?? `exit ${code}`}): ${output.split('\n').slice(-3).join(' | ') || 'no output'}`,
      );
      return exitCodes.cannotRun;
    }
    io.out('Mocks stopped.');
    return exitCodes.ok;
  },
};
