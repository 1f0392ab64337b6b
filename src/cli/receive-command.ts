// `contracts receive`: a webhook receiver that checks every delivery against the spec's webhooks, until Ctrl-C.
import { ContractsError } from '../core/errors.js';
import { exitCodes, type Command } from './command.js';
import { requireMilliseconds, requirePort, untilSignalled } from './parse-args.js';
import { singleSpec, specOption } from './spec-option.js';

export const receiveCommand: Command = {
  name: 'receive',
  summary: 'Receive webhook deliveries and check each against the spec: signatures, headers, payload (port 4030)',
  usage: '[options]',
  description: [
    "Listens for the deliveries a service sends to a hook's config.url and checks each one against the webhooks of",
    'specs/repository-webhooks.yaml: X-Hub-Signature-256 and X-Hub-Signature verify over the raw body with the',
    "hook's secret (constant-time compares); the X-Service-* headers, User-Agent and the content type (JSON, or a",
    "form whose payload field holds the JSON) are as documented; the payload validates against its event's schema.",
    'One line per delivery; reports at exit. It answers 200 (400 with --reject-invalid to a delivery that breaks',
    'the contract, so the service records the failure).',
    '',
    'The secret comes only from the environment: WEBHOOK_SECRET, or the variable --secret-env names. When it is',
    'unset, signatures are not judged. It never appears in output or reports, nor do signatures.',
    '',
    'Exit status: 0 every delivery held (or none came), 1 one broke the contract, 2 it could not run.',
  ].join('\n'),
  options: [
    {
      name: 'port',
      type: 'string',
      valueName: 'port',
      description: 'Port to listen on (0: any free port)',
      default: '4030',
    },
    { name: 'host', type: 'string', valueName: 'host', description: 'Address to listen on', default: '127.0.0.1' },
    {
      name: 'secret-env',
      type: 'string',
      valueName: 'NAME',
      description: "Environment variable holding the hooks' secret",
      default: 'WEBHOOK_SECRET',
    },
    {
      name: 'head-timeout',
      type: 'string',
      valueName: 'ms',
      description: "How long a request's head may take to arrive, from its first byte; then 408, and closed",
      default: '15000',
    },
    { name: 'reject-invalid', type: 'boolean', description: 'Answer 400 to a delivery that breaks the contract' },
    { name: 'count', type: 'string', valueName: 'n', description: 'Stop after n deliveries (default: at Ctrl-C)' },
    specOption('Hold deliveries to the webhooks of another spec file: FILE (or API=FILE)'),
    {
      name: 'report',
      type: 'string',
      valueName: 'kind:file',
      multiple: true,
      description: 'Write a report at exit: junit:FILE or json:FILE',
    },
  ],
  examples: [
    {
      command: 'WEBHOOK_SECRET=… contracts receive',
      description: "Check deliveries to http://127.0.0.1:4030 (point a hook's config.url there)",
    },
    {
      command:
        'contracts receive --port 4030 --secret-env STAGING_HOOK_SECRET --reject-invalid --report junit:reports/deliveries.xml',
      description: 'Behind a public tunnel to port 4030, with a JUnit report',
    },
  ],
  async run(options, positionals, io) {
    if (positionals.length > 0) throw new ContractsError('USAGE', `unexpected argument "${positionals[0]}"`);
    const port = requirePort('port', options.port);
    const headTimeoutMs = requireMilliseconds('head-timeout', options['head-timeout']);
    const secretEnv = String(options['secret-env']);
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(secretEnv))
      throw new ContractsError('USAGE', `--secret-env must name an environment variable, not "${secretEnv}"`);
    const rawCount = options.count as string | undefined;
    if (rawCount !== undefined && !/^[1-9]\d{0,5}$/.test(rawCount))
      throw new ContractsError('USAGE', `--count must be a whole number from 1 to 999999, not "${rawCount}"`);
    const secret = io.env[secretEnv] || undefined;
    io.redactor.add(secret);
    const [
      { startReceiver },
      { receiveRun, deliveryLine },
      { consoleReport },
      { parseReportTargets, writeReports },
      { loadSpec },
      { compileDeliveryContract },
    ] = await Promise.all([
      import('../receiver/start-receiver.js'),
      import('../receiver/receive-reports.js'),
      import('../reports/console-report.js'),
      import('../reports/write-reports.js'),
      import('../core/load-spec.js'),
      import('../core/delivery/index.js'),
    ]);
    const reports = parseReportTargets((options.report as string[] | undefined) ?? [], io.cwd);
    const spec = singleSpec(options.spec, io.cwd);
    const contract = spec ? compileDeliveryContract(await loadSpec(spec.file, spec.shown)) : undefined;
    if (contract && contract.webhooks.size === 0)
      throw new ContractsError('USAGE', `${spec!.shown} documents no webhooks`);
    const signalled = untilSignalled();
    let enough: () => void = () => undefined;
    const counted = new Promise<void>((resolve) => (enough = resolve));
    let received = 0;
    const began = performance.now();
    const receiver = await startReceiver({
      port,
      host: String(options.host),
      ...(secret === undefined ? {} : { secret }),
      rejectInvalid: Boolean(options['reject-invalid']),
      headTimeoutMs,
      // The lines and reports need each delivery's verdict, not its payload: memory stays that of the findings.
      keepPayloads: false,
      ...(contract ? { contract } : {}),
      onDelivery: (delivery) => {
        io.out(deliveryLine(delivery));
        if (rawCount !== undefined && ++received >= Number(rawCount)) enough();
      },
    });
    io.out(
      `Receiving webhook deliveries at ${receiver.url} (${secret === undefined ? `${secretEnv} is not set: signatures are not judged` : `signatures checked with ${secretEnv}`}). Ctrl-C to stop.`,
    );
    await Promise.race([signalled, counted]);
    await receiver.stop();
    const run = receiveRun(receiver.url, receiver.deliveries, performance.now() - began);
    if (run.results.length > 0) io.out(consoleReport(run));
    else io.out('No deliveries received.');
    if (receiver.dropped > 0)
      io.out(
        `(${receiver.dropped} older deliveries were let go to stay within memory bounds; their lines above still count)`,
      );
    await writeReports(run, reports, io.redactor);
    return run.summary.failed > 0 ? exitCodes.failed : exitCodes.ok;
  },
};
