// A finding: one way a response breaks the contract, as data (like ajv's ErrorObject). Checks return
// arrays of findings, empty when the rule holds; they never throw for a non-conforming response.

export type FindingSeverity = 'error' | 'warning';

/** The core's checks of one exchange's answer (src/core/checks/): what validate, check, proxy and fuzz judge alike. */
export const exchangeCheckNames = [
  'status_code_conformance',
  'content_type_conformance',
  'response_body_wellformed',
  'response_schema_conformance',
  'response_headers_conformance',
  'payment_method_placement',
] as const;

export const checkNames = [
  ...exchangeCheckNames,
  'operation_matching',
  'auth_required',
  'api_version_enforced',
  'events_default_push',
  'events_replace',
  'add_events',
  'remove_events',
  'secret_masked',
  'redelivery_flag',
  'deleted_hook_404',
  'per_page_respected',
  'per_page_capped',
  'page_parameter',
  'deliveries_cursor',
  'hook_addressable',
  'config_only',
  'secret_removed_unless_resent',
  'ping_delivery',
  'test_push_delivery',
  'test_skips_unsubscribed',
  'delivery_request_headers',
  'shared_config_refused',
  'delivery_signature',
  'delivery_headers',
  'delivery_payload_schema',
  'ping_delivered',
  'test_delivered',
  'redelivery_delivered',
  'delivery_record_matches',
  // contracts fuzz
  'not_a_server_error',
  'negative_data_rejection',
  'positive_data_acceptance',
  'ignored_auth',
  'use_after_free',
  'ensure_resource_availability',
  // the stateful walk's lifecycle rules (src/fuzz/stateful/rules/)
  'read_after_write',
  'listed_after_create',
  'paging_consistent',
  'conflict_documented',
  // request conformance (validate --har --side request, contracts proxy)
  'request_parameters_conformance',
  'request_body_conformance',
  'request_security_conformance',
] as const;
/**
 * A check of the user's own module (`apis[].checks`, `--checks`): any name it exports that is none of ours, told
 * apart from ours by its findings' `source` (src/core/user-checks/).
 */
export type UserCheckName = string & { readonly userCheck: true };
export type CheckName = (typeof checkNames)[number] | UserCheckName;

export interface Finding {
  check: CheckName;
  severity: FindingSeverity;
  /** operationId, or `METHOD /path` when the exchange matched none. */
  operation: string;
  /** Where in the body (JSON pointer), '' for the whole body or for non-body findings. */
  instancePath: string;
  schemaPath?: string;
  message: string;
  expected?: unknown;
  actual?: unknown;
  /** 'user check': the finding is a check of the user's own module, not one of contracts-kit's. */
  source?: 'user check';
}
