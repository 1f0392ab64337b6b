// Which API of a project deliveries belong to when no --api names one (`contracts receive`, `validate --delivery`,
// and the library's receiver without a contract, on the package's own project). Decided from the config alone, so
// no spec is read to choose: a `webhooks:` block (apis[].webhooks: the event header and signature schemes) is how
// a config says an API sends webhooks (the OpenAPI Object's `webhooks`, the requests an API may initiate:
// https://spec.openapis.org/oas/v3.1.0#oasWebhooks).
import { ContractsError } from '../core/errors.js';
import type { ApiEntry, Project } from './project.js';

/**
 * The project's one API with a `webhooks:` block; without any, its only API (its spec is then held to its
 * `webhooks`, and the caller says when it documents none). Several with a block, or several APIs and none with
 * one, is a usage error asking for --api and naming the candidates; no API at all says how to write a config.
 */
export function webhooksApi(project: Project): ApiEntry {
  const all = project.all();
  const withWebhooks = all.filter((candidate) => candidate.webhooks !== undefined);
  if (withWebhooks.length === 1) return withWebhooks[0]!;
  if (withWebhooks.length > 1)
    throw new ContractsError(
      'USAGE',
      `give --api NAME: several APIs of the config have a webhooks: block (${names(withWebhooks)})`,
    );
  if (all.length === 1) return all[0]!;
  throw new ContractsError(
    'USAGE',
    `give --api NAME: no API of the config has a webhooks: block to say which one sends these deliveries (${names(all)})`,
  );
}

const names = (entries: readonly ApiEntry[]) => entries.map((entry) => entry.name).join(', ');
