// What `receive` and `validate --delivery` hold deliveries to: one API's spec (its OpenAPI 3.1 `webhooks`) and its
// config's delivery convention (event header, signature schemes), and the secrets those schemes read from the
// environment. The API is --api NAME; else the one --spec API=FILE names; else the config's one API with a
// `webhooks:` block (or its only API). A bare --spec FILE without --api has no convention: signatures are not judged.
import { specPath, type ApiEntry, type Project } from '../config/project.js';
import { webhooksApi } from '../config/webhooks-api.js';
import type { DeliveryConvention } from '../core/delivery/delivery-convention.js';
import { standardWebhooksKey } from '../core/delivery/standard-webhooks-signature.js';
import { ContractsError } from '../core/errors.js';
import type { Io, ParsedOptions } from './command.js';
import { singleSpec } from './spec-option.js';
import { text } from './options/typed-option.js';

export interface DeliveryTarget {
  /** The API's name (the spec file's, for a bare --spec without a config entry). */
  api: string;
  file: string;
  shown: string;
  convention: DeliveryConvention;
  /** Each scheme's secret by its variable (the schemes whose variable is unset are not judged). */
  secrets: Record<string, string>;
  /** Why some or all signatures are not judged (`WEBHOOK_SECRET is not set`); undefined when every scheme is. */
  notJudged: string | undefined;
}

export function deliveryTarget(options: ParsedOptions, io: Io): DeliveryTarget {
  const spec = singleSpec(options.spec, io.cwd, io.project.names);
  const entry = chosenApi(io.project, text(options.api), spec?.api, spec === undefined);
  const convention: DeliveryConvention = entry?.webhooks ?? { signatures: [] };
  const override = text(options['secret-env']);
  if (override !== undefined && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(override))
    throw new ContractsError('USAGE', `--secret-env must name an environment variable, not "${override}"`);
  const secrets: Record<string, string> = {};
  const unset = new Set<string>();
  // --secret-env replaces every scheme's variable: the schemes then read it under their own names.
  for (const scheme of convention.signatures) {
    const variable = override ?? scheme.secretEnv;
    const secret = io.env[variable] || undefined;
    if (secret === undefined) {
      unset.add(variable);
      continue;
    }
    if (scheme.scheme === 'standard-webhooks') {
      const key = standardWebhooksKey(secret);
      if (key === undefined)
        throw new ContractsError(
          'USAGE',
          `${variable} does not hold a Standard Webhooks secret (whsec_ followed by base64): its value is not shown`,
        );
      io.redactor.add(secret.replace(/^whsec_/, ''));
    }
    io.redactor.add(secret);
    secrets[scheme.secretEnv] = secret;
  }
  const name = entry?.name ?? 'the spec';
  const notJudged =
    convention.signatures.length === 0
      ? `the config sets no signature scheme for ${name} (apis[].webhooks.signature)`
      : unset.size > 0
        ? `${[...unset].join(', ')} ${unset.size === 1 ? 'is' : 'are'} not set`
        : undefined;
  return {
    api: entry?.name ?? 'webhooks',
    file: spec?.file ?? specPath(entry!),
    shown: spec?.shown ?? entry!.spec,
    convention,
    secrets,
    notJudged,
  };
}

/** The API the deliveries belong to (see the header); undefined only for a bare --spec FILE. */
function chosenApi(
  project: Project,
  api: string | undefined,
  specApi: string | undefined,
  needed: boolean,
): ApiEntry | undefined {
  const name = api ?? specApi;
  if (name !== undefined) return project.api(name);
  if (!needed) return undefined;
  return webhooksApi(project);
}
