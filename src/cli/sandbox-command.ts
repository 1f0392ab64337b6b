// `contracts sandbox`: the stateful engine of any spec (sandbox-stateful.ts), or without one the seed project's APIs
// by their sandbox plug-ins (src/sandbox/start-sandbox.ts); their --help paragraphs and banner lines are the
// plug-ins' own.
import { ContractsError } from '../core/errors.js';
import { exitCodes, type Command } from './command.js';
import { untilSignalled } from './parse-args.js';
import { requireMilliseconds, requirePort } from './options/values.js';
import { runStatefulSandbox, seedSandboxes, statefulSpec } from './sandbox-stateful.js';

export const sandboxCommand: Command = {
  name: 'sandbox',
  summary: 'Serve any spec statefully in memory (--spec, --api), or both example APIs with signed deliveries',
  usage: '[options]',
  description: () =>
    [
      'With --spec FILE (or --api NAME, an API of the config other than the example APIs): a stateful mock of that',
      "spec, no code: a create stores the resource (server-made fields filled: ids in the spec's format or pattern,",
      'readOnly fields, timestamps) and a read, list, update, replace, delete or action acts on what is stored, each',
      'answered with the documented status and body; requests the spec refuses get its documented 4xx, a missing',
      "credential 401. Every answer passes the spec's own checks before it is sent. POST /__contracts/reset puts the",
      "seeds back and GET /__contracts/state shows what is held (--no-admin turns both off). Seeds: the spec's",
      'examples of each resource, and --data FILE ({ "<collection>": [item, …] }, JSON or YAML).',
      "Hooks (--hooks FILE, or the config API's sandbox.hooks): a .ts or .js module whose default export holds, per",
      'operationId, before(ctx) (may answer, or change ctx.request) and after(ctx) (may change ctx.response), with',
      "ctx.store; what a hook answers passes the spec's checks too, or the sandbox answers its own 500 naming why.",
      '--strict says each such 500 on stderr and ends 1; --record FILE writes every exchange as a HAR 1.2 file.',
      '',
      'Without them: the example APIs this package ships, in one server, each the same engine on its spec with its',
      "plug-in's hooks (its state and the rules the spec cannot say). POST /__sandbox/reset (or /__contracts/reset)",
      'puts them back as started.',
      ...seedSandboxes().flatMap(({ sandbox }) => ['', ...sandbox.describe]),
    ].join('\n'),
  options: () => [
    {
      name: 'port',
      type: 'string',
      valueName: 'port',
      description: 'Port to listen on (0: any free port)',
      default: '4020',
    },
    { name: 'host', type: 'string', valueName: 'host', description: 'Address to listen on', default: '127.0.0.1' },
    ...seedSandboxes().flatMap(({ sandbox }) => sandbox.command?.options ?? []),
    { name: 'spec', type: 'string', valueName: 'file', description: 'Serve this OpenAPI file statefully' },
    {
      name: 'api',
      type: 'string',
      valueName: 'name',
      description: "Serve this config API's spec statefully (the example APIs: their own sandbox)",
    },
    { name: 'data', type: 'string', valueName: 'file', description: 'Seed items per collection (JSON or YAML)' },
    { name: 'no-admin', type: 'boolean', description: 'No /__contracts/ admin paths (reset, state)' },
    { name: 'latency', type: 'string', valueName: 'ms', description: 'Wait this long before each answer' },
    {
      name: 'faults',
      type: 'string',
      valueName: 'N%',
      description: 'Answer this share of requests with a documented 5xx (or drop the connection when none is)',
    },
    { name: 'max-items', type: 'string', valueName: 'n', description: 'Items kept per collection (default 1000)' },
    {
      name: 'max-memory',
      type: 'string',
      valueName: 'MB',
      description: 'Memory all stored items may hold (default 64); past either bound the oldest go, said once',
    },
    {
      name: 'hooks',
      type: 'string',
      valueName: 'file',
      description:
        "A .ts or .js module of hooks by operationId (before/after, ctx.store); default: the config API's sandbox.hooks",
    },
    {
      name: 'strict',
      type: 'boolean',
      description: "Say each answer the spec's checks refused (answered 500 instead) and end 1 if there was one",
    },
    {
      name: 'record',
      type: 'string',
      valueName: 'file',
      description: 'Write every exchange to this HAR 1.2 file, credentials redacted (inside the project)',
    },
    {
      name: 'head-timeout',
      type: 'string',
      valueName: 'ms',
      description: "How long a request's head may take to arrive, from its first byte; then 408, and closed",
      default: '10000',
    },
  ],
  examples: [
    { command: 'contracts sandbox --spec openapi.yaml', description: 'Your spec, stateful, on http://127.0.0.1:4020' },
    { command: 'contracts sandbox', description: 'Both example APIs on http://127.0.0.1:4020' },
    {
      command: 'contracts check --base-url http://127.0.0.1:4020',
      description: 'In another terminal: the full conformance sequence against it',
    },
    {
      command: 'contracts sandbox --port 5020 --sessions sessions.json --repository acme/shop',
      description: 'Your own sessions and repository',
    },
  ],
  async run(options, positionals, io) {
    if (positionals.length > 0) throw new ContractsError('USAGE', `unexpected argument "${positionals[0]}"`);
    const stateful = statefulSpec(options, io);
    if (stateful !== undefined) {
      return (await runStatefulSandbox(stateful, options, io)) === 0 ? exitCodes.ok : exitCodes.failed;
    }
    const port = requirePort('port', options.port);
    const served = seedSandboxes();
    // Each plug-in reads its own options into the library's (a bad value: one line, exit 2).
    const own = Object.assign({}, ...(await Promise.all(served.map(({ sandbox }) => sandbox.command?.read(options)))));
    const headTimeoutMs = requireMilliseconds('head-timeout', options['head-timeout']);
    const signalled = untilSignalled();
    const { startSandbox } = await import('../plugins/example-sandbox.js');
    const sandbox = await startSandbox({
      apis: io.project.apis,
      port,
      host: String(options.host),
      ...own,
      headTimeoutMs,
    });
    io.out(`Sandbox serving ${served.map(({ name }) => name).join(' and ')} at ${sandbox.url}`);
    for (const { sandbox: part } of served) for (const line of part.banner?.(sandbox.url) ?? []) io.out(line);
    io.out(`  contracts check --base-url ${sandbox.url}`);
    io.out('Ctrl-C to stop.');
    await signalled;
    await sandbox.stop();
    io.out('Sandbox stopped.');
    return exitCodes.ok;
  },
};
