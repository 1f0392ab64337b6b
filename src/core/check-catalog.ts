// What each check of the generic engine judges, its severity and the commands that run it: one table, from which
// docs/reference/checks.md is written (scripts/docs-reference.ts) and which tests/core/check-catalog.test.ts holds
// to the names findings carry (finding.ts). The example APIs' behaviour rules are their plug-ins' (seed-rules.ts).
import type { CheckName } from './finding.js';

export type CheckFamily = 'exchange' | 'request' | 'delivery' | 'fuzz' | 'lifecycle';

export interface CatalogEntry {
  name: CheckName;
  family: CheckFamily;
  /** What a finding of it says is wrong, and the OpenAPI (or RFC) text that makes it so. */
  judges: string;
  /** `error`, or when a finding is only a warning. */
  severity: string;
  /** The commands whose runs judge it. */
  runBy: string;
}

const exchangeCommands = 'validate, check, proxy, fuzz, the matchers';
const requestCommands = 'validate --har, proxy; fuzz before it sends';

export const checkCatalog: readonly CatalogEntry[] = [
  {
    name: 'operation_matching',
    family: 'exchange',
    judges: 'The request names an operation of the spec (method and path template, servers base path removed)',
    severity: 'error',
    runBy: exchangeCommands,
  },
  {
    name: 'status_code_conformance',
    family: 'exchange',
    judges: 'The status is one the operation documents, by code, by range (`2XX`) or by `default`',
    severity: 'error',
    runBy: exchangeCommands,
  },
  {
    name: 'content_type_conformance',
    family: 'exchange',
    judges: "The Content-Type is one the documented response's `content` lists (media type parameters compared too)",
    severity: 'error',
    runBy: exchangeCommands,
  },
  {
    name: 'response_body_wellformed',
    family: 'exchange',
    judges: 'The body parses as its media type (JSON: valid UTF-8, no duplicate key) within the size bound',
    severity: 'error',
    runBy: exchangeCommands,
  },
  {
    name: 'response_schema_conformance',
    family: 'exchange',
    judges: "The body validates against the response's schema (item by item for a 3.2 `itemSchema` stream)",
    severity: 'error; a writeOnly property present in a response is a warning (OpenAPI: SHOULD NOT)',
    runBy: exchangeCommands,
  },
  {
    name: 'response_headers_conformance',
    family: 'exchange',
    judges: 'Every required response header is present, and each documented header validates against its schema',
    severity: 'error',
    runBy: exchangeCommands,
  },
  {
    name: 'payment_method_placement',
    family: 'exchange',
    judges: "A body with `x-payment-method-placement` has paymentMethod where it says (an example API's seed rule)",
    severity: 'error; the same field in both places with different contents is a warning',
    runBy: exchangeCommands,
  },
  {
    name: 'request_parameters_conformance',
    family: 'request',
    judges: 'Every required parameter is present, and each validates against its schema in its declared style',
    severity: 'error; a reserved character sent unencoded where allowReserved is false is a warning (a SHOULD)',
    runBy: requestCommands,
  },
  {
    name: 'request_body_conformance',
    family: 'request',
    judges: 'A required body is present, of a documented media type, and validates against its schema',
    severity: 'error; a body where none is documented, or one too large to check, is a warning',
    runBy: requestCommands,
  },
  {
    name: 'request_security_conformance',
    family: 'request',
    judges: "The request carries the credentials one of the operation's `security` alternatives needs",
    severity: 'error',
    runBy: requestCommands,
  },
  {
    name: 'delivery_signature',
    family: 'delivery',
    judges:
      "The delivery's signature verifies with the secret, by the scheme the config sets (hmac, Standard Webhooks, Stripe)",
    severity: 'error',
    runBy: 'receive, validate --delivery, check',
  },
  {
    name: 'delivery_headers',
    family: 'delivery',
    judges: "The delivery's headers are those its webhook documents",
    severity: 'error',
    runBy: 'receive, validate --delivery, check',
  },
  {
    name: 'delivery_payload_schema',
    family: 'delivery',
    judges: "The payload validates against its webhook's requestBody schema for its content type",
    severity: 'error',
    runBy: 'receive, validate --delivery, check',
  },
  {
    name: 'not_a_server_error',
    family: 'fuzz',
    judges: 'No request, valid or not, is answered 5xx (or kills the connection)',
    severity: 'error',
    runBy: 'fuzz',
  },
  {
    name: 'positive_data_acceptance',
    family: 'fuzz',
    judges: 'A request the spec allows (by our own validators) is not refused with 400 or 422',
    severity: 'error',
    runBy: 'fuzz',
  },
  {
    name: 'negative_data_rejection',
    family: 'fuzz',
    judges: 'A request that breaks exactly one constraint of the spec is not answered 2xx',
    severity: 'error',
    runBy: 'fuzz',
  },
  {
    name: 'ignored_auth',
    family: 'fuzz',
    judges: 'A secured operation sent with no credential, on a resource the run created, is not answered 2xx',
    severity: 'error',
    runBy: 'fuzz',
  },
  {
    name: 'use_after_free',
    family: 'lifecycle',
    judges: 'A resource the run deleted answers 404 or 410 afterwards (any 4xx where the read documents neither)',
    severity: 'error',
    runBy: 'fuzz (the stateful walk), check',
  },
  {
    name: 'ensure_resource_availability',
    family: 'lifecycle',
    judges: 'A resource the run created is readable afterwards',
    severity: 'error',
    runBy: 'fuzz (the stateful walk), check',
  },
  {
    name: 'read_after_write',
    family: 'lifecycle',
    judges: 'What a successful PATCH or PUT set shows in the next GET (readOnly and server-managed fields excepted)',
    severity: 'error',
    runBy: 'fuzz (the stateful walk), check',
  },
  {
    name: 'listed_after_create',
    family: 'lifecycle',
    judges: 'A created resource appears in its list, pages followed as the spec declares them',
    severity: 'error',
    runBy: 'fuzz (the stateful walk), check',
  },
  {
    name: 'paging_consistent',
    family: 'lifecycle',
    judges: 'Pages of the list neither repeat nor lose an item the list showed',
    severity: 'error',
    runBy: 'fuzz (the stateful walk)',
  },
  {
    name: 'conflict_documented',
    family: 'lifecycle',
    judges: 'Where the operation documents 409, 410 or 412, repeating its state change is not answered 2xx',
    severity: 'error',
    runBy: 'fuzz (the stateful walk), check',
  },
];
