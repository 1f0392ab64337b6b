// `contracts receive`: a webhook receiver that checks every delivery against the spec's webhooks, until Ctrl-C.
import { ContractsError } from '../core/errors.js';
import { exitCodes, type Command } from './command.js';
import { untilSignalled } from './parse-args.js';
import { deliveryTarget } from './delivery-target.js';
import { specOption } from './spec-option.js';
import { headTimeoutOption, hostOption, portOption, reportOption } from './options/shared-options.js';
import { text, valueOf, withOption } from './options/typed-option.js';

export const receiveCommand: Command = {
  name: 'receive',
  summary:
    "Receive webhook deliveries and check each against an API's webhooks: signature, headers, payload (port 4030)",
  usage: '[options]',
  description: [
    'Listens for the deliveries a service sends to a webhook URL and checks each one against the OpenAPI 3.1',
    '`webhooks` of an API of the config (--api NAME; by default the one with a `webhooks:` block, or the only API):',
    "the payload validates against the webhook's requestBody schema for its content type, and its documented",
    'headers are as the spec says. Which webhook a delivery is comes from the header `webhooks.eventHeader` names,',
    'else from its payload: the one webhook whose schema accepts it (several: ambiguous, none is claimed).',
    '',
    'Signatures are judged by the scheme the config sets (`webhooks.signature`: hmac, standard-webhooks or',
    'stripe), with the secret from the environment variable it names (--secret-env overrides); constant-time',
    'compares. Without a scheme, or with its variable unset, signatures are not judged, and the output says so.',
    'Neither secrets nor signatures appear in output or reports.',
    '',
    'One line per delivery; reports at exit. It answers 200 (400 with --reject-invalid to a delivery that breaks',
    'the contract, so the service records the failure).',
    '',
    'Exit status: 0 every delivery held (or none came), 1 one broke the contract, 2 it could not run.',
  ].join('\n'),
  options: [
    portOption(4030),
    hostOption,
    { name: 'api', type: 'string', valueName: 'name', description: 'The API whose webhooks deliveries are held to' },
    {
      name: 'secret-env',
      type: 'string',
      valueName: 'NAME',
      description:
        "Environment variable holding the signing secret (default: the one the API's signature scheme names)",
    },
    withOption(headTimeoutOption, { default: '15000' }),
    { name: 'reject-invalid', type: 'boolean', description: 'Answer 400 to a delivery that breaks the contract' },
    { name: 'count', type: 'string', valueName: 'n', description: 'Stop after n deliveries (default: at Ctrl-C)' },
    specOption('Hold deliveries to the webhooks of another spec file: FILE (or API=FILE)'),
    withOption(reportOption, { description: 'Write a report at exit: junit:FILE or json:FILE' }),
  ],
  examples: [
    {
      command: 'SHOP_WEBHOOK_SECRET=… contracts receive --api shop',
      description: "Check deliveries to http://127.0.0.1:4030 against shop's webhooks (point the webhook URL there)",
    },
    {
      command:
        'contracts receive --port 4030 --secret-env STAGING_HOOK_SECRET --reject-invalid --report junit:reports/deliveries.xml',
      description: 'Behind a public tunnel to port 4030, with a JUnit report',
    },
  ],
  async run(options, positionals, io) {
    if (positionals.length > 0) throw new ContractsError('USAGE', `unexpected argument "${positionals[0]}"`);
    const port = valueOf(options, portOption(4030));
    const headTimeoutMs = valueOf(options, headTimeoutOption);
    const rawCount = text(options.count);
    if (rawCount !== undefined && !/^[1-9]\d{0,5}$/.test(rawCount))
      throw new ContractsError('USAGE', `--count must be a whole number from 1 to 999999, not "${rawCount}"`);
    const target = deliveryTarget(options, io);
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
    const reports = parseReportTargets(valueOf(options, reportOption), io.cwd);
    const contract = compileDeliveryContract(await loadSpec(target.file, target.shown), target.convention);
    if (contract.webhooks.size === 0) throw new ContractsError('USAGE', `${target.shown} documents no webhooks`);
    const signalled = untilSignalled();
    let enough: () => void = () => undefined;
    const counted = new Promise<void>((resolve) => (enough = resolve));
    let received = 0;
    const began = performance.now();
    const receiver = await startReceiver({
      port,
      host: valueOf(options, hostOption),
      secrets: target.secrets,
      rejectInvalid: Boolean(options['reject-invalid']),
      headTimeoutMs,
      // The lines and reports need each delivery's verdict, not its payload: memory stays that of the findings.
      keepPayloads: false,
      contract,
      onDelivery: (delivery) => {
        io.out(deliveryLine(delivery));
        if (rawCount !== undefined && ++received >= Number(rawCount)) enough();
      },
    });
    const variables = [
      ...new Set(target.convention.signatures.map((scheme) => options['secret-env'] ?? scheme.secretEnv)),
    ];
    const signatures =
      target.notJudged === undefined
        ? `signatures checked with ${variables.join(', ')}`
        : `${target.notJudged}: signatures are not judged`;
    io.out(`Receiving webhook deliveries at ${receiver.url} for ${target.api} (${signatures}). Ctrl-C to stop.`);
    await Promise.race([signalled, counted]);
    await receiver.stop();
    const run = receiveRun(target.api, receiver.url, receiver.deliveries, performance.now() - began);
    if (run.results.length > 0) io.out(consoleReport(run));
    else io.out('No deliveries received.');
    if (target.notJudged !== undefined) io.out(`Signatures were not judged: ${target.notJudged}.`);
    if (receiver.dropped > 0)
      io.out(
        `(${receiver.dropped} older deliveries were let go to stay within memory bounds; their lines above still count)`,
      );
    await writeReports(run, reports, io.redactor);
    return run.summary.failed > 0 ? exitCodes.failed : exitCodes.ok;
  },
};
