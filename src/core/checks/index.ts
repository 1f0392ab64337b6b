// Every per-exchange check, in the order their findings are reported.
import type { ExchangeCheck } from './check-context.js';
import { contentTypeConformance } from './content-type-conformance.js';
import { paymentMethodPlacement } from './payment-method-placement.js';
import { responseBodyWellformed } from './response-body-wellformed.js';
import { responseHeadersConformance } from './response-headers-conformance.js';
import { responseSchemaConformance } from './response-schema-conformance.js';
import { statusCodeConformance } from './status-code-conformance.js';

export const exchangeChecks: readonly ExchangeCheck[] = [
  statusCodeConformance,
  contentTypeConformance,
  responseBodyWellformed,
  responseSchemaConformance,
  responseHeadersConformance,
  paymentMethodPlacement,
];
