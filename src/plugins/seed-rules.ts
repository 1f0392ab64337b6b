// Every rule the seeds state, the checks that enforce it and how a run exercises it: one table, from which the
// runner plans its checks and the example APIs page's seed rules table is rendered (a test holds
// docs/example-apis.md to it).
import { exchangeCheckNames, type CheckName } from '../core/finding.js';
import type { BehaviourCheck } from '../runner/check-plugin.js';

export type SeedApi = 'client-session' | 'repository-webhooks';

export interface SeedRule {
  api: SeedApi;
  /** Where the seed states it. */
  source: string;
  rule: string;
  /** The checks that enforce it, each at the operations it judges; empty where the seed leaves it "not shown". */
  checks: { check: CheckName; operations: string[] }[];
  /** How a run exercises it (or why nothing can). */
  exercise: string;
}

const config = ['getWebhookConfig', 'updateWebhookConfig'];
const lists = ['listWebhooks', 'listWebhookDeliveries'];
/** The operations that trigger a delivery: each delivery is judged under the one that caused it. */
const deliveries = ['pingWebhook', 'testPushWebhook', 'redeliverWebhookDelivery'];

export const seedRules: readonly SeedRule[] = [
  {
    api: 'client-session',
    source: 'Client session fields; currencyCode values',
    rule: 'The body is a client session: field types, max length 255, amount ≥ 0 (int64), currencyCode one of 172 codes',
    checks: [{ check: 'response_schema_conformance', operations: ['retrieveClientSession'] }],
    exercise:
      'GET /client-session with X-API-KEY and X-API-VERSION: 2.4 (and clientToken when set); the body is validated',
  },
  {
    api: 'client-session',
    source: 'Note on placement',
    rule: 'paymentMethod stands at the top level, under order, or both',
    checks: [{ check: 'payment_method_placement', operations: ['retrieveClientSession'] }],
    exercise: 'the same response: neither place fails, both places with different contents warns',
  },
  {
    api: 'client-session',
    source: 'Authentication 1',
    rule: 'Every request carries X-API-KEY',
    checks: [{ check: 'auth_required', operations: ['retrieveClientSession'] }],
    exercise: 'control: the retrieve with the key gets 2xx; probe: the same request without X-API-KEY must get a 4xx',
  },
  {
    api: 'client-session',
    source: 'Endpoint parameters',
    rule: 'X-API-VERSION must be 2.4',
    checks: [{ check: 'api_version_enforced', operations: ['retrieveClientSession'] }],
    exercise: 'control as above; probe: X-API-VERSION: 2.3 must get a 4xx',
  },
  {
    api: 'client-session',
    source: 'Authentication 2, 3',
    rule: 'clientToken is an optional client token; how keys and tokens are issued: not shown',
    checks: [],
    exercise: 'no check: the seed states no behaviour for it; the retrieve sends CLIENT_SESSION_CLIENT_TOKEN when set',
  },
  {
    api: 'repository-webhooks',
    source: 'Endpoints table; Errors table',
    rule: 'Each endpoint answers a documented status; 202 and 204 carry no body',
    checks: [
      { check: 'status_code_conformance', operations: ['*'] },
      { check: 'content_type_conformance', operations: ['*'] },
    ],
    exercise: 'every response of the sequence',
  },
  {
    api: 'repository-webhooks',
    source: 'Resources and their fields',
    rule: 'Bodies are webhooks, configs, delivery items and details with the fields and types of the seed',
    checks: [{ check: 'response_schema_conformance', operations: ['*'] }],
    exercise: 'every response body of the sequence',
  },
  {
    api: 'repository-webhooks',
    source: 'What the service does',
    rule: 'A webhook is addressed by owner, repository and hook_id',
    checks: [{ check: 'hook_addressable', operations: ['createWebhook'] }],
    exercise: 'the 201 of a create carries an integer id; GET of that id answers 200 with the same id',
  },
  {
    api: 'repository-webhooks',
    source: 'What the service does',
    rule: 'Webhooks may share one config only if their events do not overlap',
    checks: [{ check: 'shared_config_refused', operations: ['createWebhook'] }],
    exercise: "a third create with hook B's config and events [push] must get 422 (or 400)",
  },
  {
    api: 'repository-webhooks',
    source: 'Rules per endpoint 1',
    rule: 'Endpoints 1 and 2 return or change only the config properties',
    checks: [{ check: 'config_only', operations: config }],
    exercise: 'GET and PATCH …/config of a created hook return no webhook field (id, events, active, config, …)',
  },
  {
    api: 'repository-webhooks',
    source: 'Rules per endpoint 2',
    rule: 'Create: events defaults to push',
    checks: [{ check: 'events_default_push', operations: ['createWebhook'] }],
    exercise: 'hook A is created without events and must have [push]',
  },
  {
    api: 'repository-webhooks',
    source: 'Rules per endpoint 3',
    rule: 'Update: events replaces, add_events adds, remove_events removes',
    checks: [
      { check: 'events_replace', operations: ['updateWebhook'] },
      { check: 'add_events', operations: ['updateWebhook'] },
      { check: 'remove_events', operations: ['updateWebhook'] },
    ],
    exercise: 'hook A: events [pull_request], then add_events [issues], then remove_events [pull_request]',
  },
  {
    api: 'repository-webhooks',
    source: 'Rules per endpoint 3',
    rule: 'An update must carry the secret again, or the secret is removed',
    checks: [{ check: 'secret_removed_unless_resent', operations: ['updateWebhook'] }],
    exercise: 'hook B is updated with a config carrying its secret (the config read shows one), then without (none)',
  },
  {
    api: 'repository-webhooks',
    source: 'config table',
    rule: 'The secret never comes back in clear; config responses mask it with asterisks',
    checks: [{ check: 'secret_masked', operations: ['createWebhook', 'getWebhook', ...config] }],
    exercise: "every body that could carry hook B's secret is searched for it",
  },
  {
    api: 'repository-webhooks',
    source: 'Rules per endpoint 4; Events 2',
    rule: 'A ping sends a ping event to the hook',
    checks: [{ check: 'ping_delivery', operations: ['pingWebhook'] }],
    exercise: 'ping hook B; a new delivery with event ping must appear within --delivery-wait',
  },
  {
    api: 'repository-webhooks',
    source: 'Rules per endpoint 5; Events 2',
    rule: 'A test on a hook subscribed to push produces a push delivery',
    checks: [{ check: 'test_push_delivery', operations: ['testPushWebhook'] }],
    exercise: 'test hook B (events [push]); a new push delivery must appear',
  },
  {
    api: 'repository-webhooks',
    source: 'Rules per endpoint 5',
    rule: 'A test on a hook not subscribed to push answers 204 and produces no delivery',
    checks: [{ check: 'test_skips_unsubscribed', operations: ['testPushWebhook'] }],
    exercise: "test hook A (events [issues]); 204, and no delivery after waiting as long as B's took, plus 1 s",
  },
  {
    api: 'repository-webhooks',
    source: 'Rules per endpoint 6; Events 5',
    rule: 'A redelivery answers 202 without a body and produces a new delivery with redelivery: true',
    checks: [{ check: 'redelivery_flag', operations: ['redeliverWebhookDelivery'] }],
    exercise: "redeliver hook B's ping delivery; a new delivery with redelivery: true must appear",
  },
  {
    api: 'repository-webhooks',
    source: 'Rules per endpoint 7',
    rule: 'The webhook list pages with per_page and page',
    checks: [
      { check: 'per_page_respected', operations: ['listWebhooks'] },
      { check: 'page_parameter', operations: ['listWebhooks'] },
    ],
    exercise: 'with at least two hooks: per_page=1 gives exactly one, and page=2 a different one',
  },
  {
    api: 'repository-webhooks',
    source: 'Rules per endpoint 7',
    rule: 'Deliveries page with per_page and a cursor naming the delivery at which the page starts',
    checks: [
      { check: 'per_page_respected', operations: ['listWebhookDeliveries'] },
      { check: 'deliveries_cursor', operations: ['listWebhookDeliveries'] },
    ],
    exercise:
      'with at least two deliveries: per_page=1 gives exactly one; the cursor (Link rel="next", else the second delivery\'s id) starts the page at that delivery',
  },
  {
    api: 'repository-webhooks',
    source: 'Limits',
    rule: 'per_page is at most 100',
    checks: [{ check: 'per_page_capped', operations: lists }],
    exercise: 'control per_page=1 gets 2xx; probe per_page=101 must get 400/422, or 2xx with at most 100 items',
  },
  {
    api: 'repository-webhooks',
    source: 'Errors table (404 for endpoint 8)',
    rule: 'A deleted webhook is not found',
    checks: [{ check: 'deleted_hook_404', operations: ['getWebhook'] }],
    exercise: 'hook A is read (200), deleted (204), then read again: 404',
  },
  {
    api: 'repository-webhooks',
    source: 'Events 3',
    rule: 'A delivery record holds the request headers: X-Service-Delivery (the guid), X-Service-Event, X-Service-Hook-ID, and sha256=/sha1= signatures',
    checks: [{ check: 'delivery_request_headers', operations: ['getWebhookDelivery'] }],
    exercise:
      "hook B's ping delivery detail: the headers equal its guid, event and hook id; B has a secret, so both signatures have their form",
  },
  {
    api: 'repository-webhooks',
    source: 'Events 3, 4',
    rule: "A delivery is a POST with the seed's headers (X-Service-Delivery a uuid, X-Service-Event, X-Service-Hook-ID, the installation target, User-Agent), signed sha256= and sha1= when the hook has a secret, with its event's payload as JSON or in a form's payload field",
    checks: [
      { check: 'delivery_signature', operations: deliveries },
      { check: 'delivery_headers', operations: deliveries },
      { check: 'delivery_payload_schema', operations: deliveries },
    ],
    exercise:
      "the embedded receiver checks every delivery the run triggers against the spec's webhooks: hook B's verify with its secret (constant-time), hook A's (no secret) carry no signature",
  },
  {
    api: 'repository-webhooks',
    source: 'Rules per endpoint 4; Events 2',
    rule: "A ping reaches the hook's URL as a ping event",
    checks: [{ check: 'ping_delivered', operations: ['pingWebhook'] }],
    exercise:
      'ping hooks B and A; a delivery with X-Service-Event ping must arrive at the receiver within --delivery-wait',
  },
  {
    api: 'repository-webhooks',
    source: 'Rules per endpoint 5; Events 2',
    rule: 'A test reaches a hook subscribed to push as a push event, and nothing reaches one that is not',
    checks: [{ check: 'test_delivered', operations: ['testPushWebhook'] }],
    exercise:
      'test hook B: a push delivery must arrive; test hook A (events [issues]): nothing may arrive for it while test_skips_unsubscribed waits',
  },
  {
    api: 'repository-webhooks',
    source: 'Rules per endpoint 6; Events 5',
    rule: 'A redelivery reaches the hook again',
    checks: [{ check: 'redelivery_delivered', operations: ['redeliverWebhookDelivery'] }],
    exercise:
      "redeliver hook B's ping delivery; a delivery with the same event and payload must arrive at the receiver again",
  },
  {
    api: 'repository-webhooks',
    source: 'Events 3',
    rule: "A delivery record holds the request sent to the target and the target's answer",
    checks: [{ check: 'delivery_record_matches', operations: ['getWebhookDelivery'] }],
    exercise:
      "hook B's ping delivery detail: its guid, event, the seed's request headers and the payload equal what arrived at the receiver, and status_code the status the receiver answered",
  },
  {
    api: 'repository-webhooks',
    source: 'Events 1, 4, 6; Authentication',
    rule: 'Event names, payload shapes beyond the issues sample, signature computation, token presentation and scopes: not shown',
    checks: [],
    exercise:
      'no check of their own: ping and push payloads are held to being JSON objects; signatures are checked as hex HMACs of the body (the @octokit/webhooks-methods convention, an assumption the spec states); WEBHOOKS_TOKEN is sent as Authorization: Bearer',
  },
];

/** The seed table as markdown: docs/example-apis.md holds exactly this. */
export function seedRulesMarkdown(): string {
  const lines = ['| API | seed | rule | check → operations | how it is exercised |', '|---|---|---|---|---|'];
  for (const rule of seedRules) {
    const checks =
      rule.checks.length === 0
        ? '—'
        : rule.checks
            .map(
              ({ check, operations }) =>
                `\`${check}\` → ${operations.join(', ') === '*' ? 'every operation' : operations.join(', ')}`,
            )
            .join('; ');
    lines.push(`| ${rule.api} | ${rule.source} | ${rule.rule} | ${checks} | ${rule.exercise} |`);
  }
  return lines.join('\n');
}

/** The behavioural (check, operation) pairs of an API: every check of the table but the per-exchange ones. */
export function behaviourPairs(
  api: string,
  perExchange: ReadonlySet<string>,
): { check: CheckName; operation: string }[] {
  const pairs: { check: CheckName; operation: string }[] = [];
  for (const rule of seedRules.filter((candidate) => candidate.api === api)) {
    for (const { check, operations } of rule.checks) {
      if (perExchange.has(check)) continue;
      for (const operation of operations) pairs.push({ check, operation });
    }
  }
  return pairs;
}

/** Behavioural checks a stateless mock can judge: probes that need no state. */
const statelessChecks = new Set<CheckName>(['auth_required', 'api_version_enforced', 'per_page_capped']);

/** Behavioural checks --read-only can judge on an existing hook, with GET calls alone. */
const readOnlyChecks = new Set<CheckName>([
  'auth_required',
  'api_version_enforced',
  'per_page_capped',
  'per_page_respected',
  'page_parameter',
  'deliveries_cursor',
  'config_only',
  'delivery_request_headers',
]);

/** Checks only a receiver the run controls can judge: what actually arrived at the hooks' URL. */
const receiverChecks = new Set<CheckName>([
  'delivery_signature',
  'delivery_headers',
  'delivery_payload_schema',
  'ping_delivered',
  'test_delivered',
  'redelivery_delivered',
  'delivery_record_matches',
]);

/** The behavioural checks the seed rules give `api`'s plan (the per-exchange ones aside), and which runs judge each. */
export function seedBehaviour(api: SeedApi): BehaviourCheck[] {
  return behaviourPairs(api, new Set(exchangeCheckNames)).map(({ check, operation }) => ({
    check,
    operation,
    stateless: statelessChecks.has(check),
    readOnly: readOnlyChecks.has(check),
    receiver: receiverChecks.has(check),
  }));
}
