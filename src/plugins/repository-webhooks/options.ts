// repository-webhooks' command-line options: the repository its calls use, the hook --read-only reads, the URL its
// hooks deliver to, its receiver of deliveries and how long a delivery may take. Declared once here with their
// parsers; `contracts check --help` and `contracts fuzz --help` list them only when the config has this API.
import { ContractsError } from '../../core/errors.js';
import { httpUrlValue } from '../../core/http-url-value.js';
import type { CheckOptions, FuzzOptions, PluginOption } from '../api-plugin.js';

const usage = (message: string) => new ContractsError('USAGE', message);

/** A path segment of /repos/{owner}/{repo}/hooks (RFC 3986 §3.3: no "/", and nothing that ends the path). */
function segment(name: string, description: string, fallback: string): PluginOption {
  return {
    name,
    type: 'string',
    valueName: name,
    description,
    default: fallback,
    setting: name,
    parse(raw) {
      const value = typeof raw === 'string' ? raw : fallback;
      if (!/^[^/\s?#]+$/.test(value)) throw usage(`--${name} must be one path segment, not "${value}"`);
      return value;
    },
  };
}

const owner = segment(
  'owner',
  "Repository owner for the webhooks calls (the default is the sandbox's demo repository; name yours on staging)",
  'octo',
);
const repo = segment('repo', 'Repository name for the webhooks calls', 'app');

/** hook_id is an integer in the spec (components/parameters/hook-id: type integer). */
const hookId: PluginOption = {
  name: 'hook-id',
  type: 'string',
  valueName: 'id',
  description: 'With --read-only: the webhook to read',
  requires: ['read-only'],
  setting: 'hookId',
  parse(raw) {
    if (typeof raw !== 'string') return undefined;
    if (!/^\d+$/.test(raw)) throw usage(`--hook-id must be an integer, not "${raw}"`);
    return Number(raw);
  },
};

/** config.url: where deliveries are sent; any http(s) URL (a tunnel's may carry a query). */
const hookUrl = (description: string): PluginOption => ({
  name: 'hook-url',
  type: 'string',
  valueName: 'url',
  description,
  setting: 'hookUrl',
  parse: (raw) => (typeof raw === 'string' ? httpUrlValue('--hook-url', raw, { bare: false }) : undefined),
});

/** One default for check and fuzz (they had drifted: 10000 and 5000). */
const deliveryWait: PluginOption = {
  name: 'delivery-wait',
  type: 'string',
  valueName: 'ms',
  description: 'How long a ping, a test or a redelivery may take to show its delivery, in the list and at the receiver',
  default: '10000',
  setting: 'deliveryWaitMs',
  parse(raw) {
    const value = Number(raw);
    if (typeof raw !== 'string' || !/^\d+$/.test(raw) || value > 600_000)
      throw usage(`--delivery-wait must be a whole number of milliseconds up to 600000, not "${String(raw)}"`);
    return value;
  },
};

const receiverPort: PluginOption = {
  name: 'receiver-port',
  type: 'string',
  valueName: 'port',
  description:
    'Port of the embedded webhook receiver (default: any free port); with --hook-url, the port your tunnel forwards to',
  requires: ['base-url'],
  conflicts: ['read-only', 'no-receiver'],
  setting: 'receiverPort',
  parse(raw) {
    if (typeof raw !== 'string') return undefined;
    if (!/^\d+$/.test(raw) || Number(raw) > 65535)
      throw usage(`--receiver-port must be a port number from 0 to 65535, not "${raw}"`);
    return Number(raw);
  },
};

const noReceiver: PluginOption = {
  name: 'no-receiver',
  type: 'boolean',
  description: 'No embedded receiver: the delivery checks (signature, headers, payload, arrival) are skipped',
  requires: ['base-url'],
  conflicts: ['read-only'],
  setting: 'noReceiver',
  parse: (raw) => raw === true,
};

export const webhooksCheckOptions: CheckOptions = {
  options: [
    owner,
    repo,
    hookId,
    {
      ...hookUrl(
        'config.url of the webhooks the full sequence creates; the default is the embedded receiver on loopback (for a staging that cannot reach it, a public tunnel to --receiver-port)',
      ),
      requires: ['base-url'],
      conflicts: ['read-only'],
    },
    receiverPort,
    noReceiver,
    { ...deliveryWait, requires: ['base-url'], conflicts: ['read-only'] },
  ],
  settle(settings, run) {
    if (run.readOnly && settings.hookId === undefined)
      throw usage('--read-only needs --hook-id: the existing webhook to read');
  },
  receiver(settings) {
    if (settings.noReceiver === true) return { off: '--no-receiver: no receiver sees the deliveries' };
    const port = settings.receiverPort as number | undefined;
    if (settings.hookUrl !== undefined && port === undefined)
      return { off: '--hook-url without --receiver-port: the deliveries go where this run cannot see them' };
    return { port: port ?? 0 };
  },
};

/** Where hooks point when no receiver runs and no --hook-url was given: a loopback port where nothing listens. */
const nowhere = 'http://127.0.0.1:9/contracts-check';

export const webhooksFuzzOptions: FuzzOptions = {
  options: [
    owner,
    repo,
    {
      ...hookUrl(
        'config.url of every webhook it creates (plus the run marker); the default is an embedded receiver on loopback, which checks the deliveries of the stateful phase (with --hook-url those checks are skipped)',
      ),
      conflicts: ['read-only'],
    },
    { ...deliveryWait, conflicts: ['replay'] },
  ],
  cleanupNote: 'then deleting the webhooks this run created',
  async prepare(settings, run) {
    const given = settings.hookUrl as string | undefined;
    const base = { ...settings, readOnly: run.readOnly };
    if (run.replay) return { settings: { ...base, hookUrl: given ?? nowhere, readOnly: false } };
    // The stateful phase's deliveries go to an embedded receiver, unless --hook-url sends them elsewhere.
    if (run.readOnly || !run.phases.includes('stateful') || given !== undefined) {
      const off =
        given === undefined
          ? 'no receiver was started'
          : '--hook-url: the deliveries go to a receiver this run cannot see';
      return { settings: { ...base, hookUrl: given ?? nowhere, deliveries: { off } } };
    }
    const [{ startReceiver }, { FuzzDeliveries }] = await Promise.all([
      import('../../receiver/start-receiver.js'),
      import('./fuzz/fuzz-deliveries.js'),
    ]);
    let deliveries: InstanceType<typeof FuzzDeliveries> | undefined;
    const receiver = await startReceiver({
      port: 0,
      host: '127.0.0.1',
      ...FuzzDeliveries.receiverOptions(() => deliveries),
    });
    deliveries = new FuzzDeliveries(receiver);
    return {
      settings: { ...base, hookUrl: `${receiver.url}/contracts-fuzz`, deliveries },
      stop: () => receiver.stop(),
    };
  },
};
