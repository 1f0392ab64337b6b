// response_schema_conformance: the body validates against the documented schema; each ajv error is a finding
// with its path. Unknown fields pass (forward compatibility) unless --strict. OpenAPI 3.1 section 4.8.14.
import { shortened, type SchemaError } from '../compile-spec.js';
import type { Finding } from '../finding.js';
import { hiddenValue, isSensitiveName, renderValue, valueAtPointer } from '../render-value.js';
import { pointerToPath } from '../source-locator.js';
import { finding, type CheckContext, type ExchangeCheck } from './check-context.js';
import { itemFindings, judgesItems } from './response-item-conformance.js';

export const responseSchemaConformance: ExchangeCheck = {
  name: 'response_schema_conformance',
  // A body over the size limit was not read: response_body_wellformed says so, and this check has nothing to judge.
  // OpenAPI 3.2: a sequential media type with an itemSchema is judged item by item (response-item-conformance.ts).
  applies: (context) =>
    judgesItems(context) ||
    (context.media?.validate !== undefined &&
      context.body.kind !== 'empty' &&
      context.body.kind !== 'too-large' &&
      context.media.json),
  run(context) {
    if (judgesItems(context)) return itemFindings(context);
    const { body, media } = context;
    if (body.kind === 'invalid-json') {
      return [
        finding(context, 'response_schema_conformance', {
          message: `the body is not valid JSON: ${body.reason}`,
          expected: media!.mediaType,
        }),
      ];
    }
    if (body.kind !== 'json') return [];
    const validation = context.contract.check(media!.validate!, body.value);
    let errors: SchemaError[] = validation.errors;
    if (media!.placement) errors = errors.filter((error) => !isPlacementError(error, media!.placement!.accepted));
    // Each value is looked up and rendered once, however many errors name it (a million-key object is one value).
    const values = new Map<string, Actual>();
    // Only the first findings are kept (checkExchange's cap): the rest are counted, so their values are not looked up.
    const findings = errors.map((error, index) => toFinding(context, error, index < valuesShown ? values : undefined));
    if (validation.stoppedAfter !== undefined) findings.unshift(stopped(context, validation.stoppedAfter, ''));
    // OpenAPI 3.0.3 §4.7.24.1: a writeOnly property "SHOULD NOT be sent as part of the response" (a warning: SHOULD
    // NOT). Its value is not shown: writeOnly is how a spec marks a password.
    if (media!.writeOnlyPresence)
      for (const presence of media!.writeOnlyPresence(body.value))
        findings.push(
          finding(context, 'response_schema_conformance', {
            severity: 'warning',
            instancePath: presence.instancePath,
            schemaPath: presence.schemaPath,
            message: `${presence.instancePath} is writeOnly: OpenAPI 3.0 says it SHOULD NOT be sent in a response`,
          }),
        );
    if (context.strict && media!.validateStrict) {
      const strict = context.contract.checkStrict(media!.validateStrict, body.value);
      if (strict.stoppedAfter !== undefined && validation.stoppedAfter === undefined)
        findings.unshift(stopped(context, strict.stoppedAfter, ' (--strict)'));
      for (const error of strict.errors) {
        if (error.keyword !== 'unevaluatedProperties') continue;
        const property = shortened(String(error.params.unevaluatedProperty));
        findings.push(
          toFinding(
            context,
            {
              ...error,
              message: `${error.instancePath || 'body'} has a field the spec does not list: "${property}" (--strict)`,
            },
            values,
          ),
        );
      }
    }
    return findings;
  },
};

/** Said first, so it survives the cap on findings: the errors listed are the first ones, not all. */
function stopped(context: CheckContext, after: number, variant: string): Finding {
  return finding(context, 'response_schema_conformance', {
    message: `the body has too many schema errors to list${variant}: listing stopped after ${after}, so only the first are reported`,
  });
}

interface Actual {
  scalar: boolean;
  shown: string | undefined;
  actual: unknown;
}

function actualAt(context: CheckContext, pointer: string, values: Map<string, Actual>): Actual {
  const known = values.get(pointer);
  if (known) return known;
  // The value the finding is about: as is when it is a short scalar (JSON reports carry it), else a bounded rendering.
  if (pointerToPath(pointer).some(isSensitiveName)) {
    const hidden = { scalar: false, shown: undefined, actual: hiddenValue };
    values.set(pointer, hidden);
    return hidden;
  }
  const value = context.body.kind === 'json' ? valueAtPointer(context.body.value, pointer) : undefined;
  const scalar = value === null || (value !== undefined && typeof value !== 'object');
  const shown = value === undefined ? undefined : renderValue(value);
  const actual =
    value === undefined
      ? undefined
      : scalar && !(typeof value === 'string' && value.length > 200)
        ? value
        : renderValue(value, 200);
  const found = { scalar, shown, actual };
  values.set(pointer, found);
  return found;
}

/** As many findings as checkExchange keeps per response (maxFindings). */
const valuesShown = 100;

function toFinding(context: CheckContext, error: SchemaError, values: Map<string, Actual> | undefined): Finding {
  const { scalar, shown, actual } = values
    ? actualAt(context, error.instancePath, values)
    : { scalar: false, shown: undefined, actual: undefined };
  let message = error.message;
  if (error.keyword === 'enum' && shown !== undefined) {
    const allowed = Array.isArray(error.params.allowedValues) ? error.params.allowedValues.length : 0;
    message = `${error.instancePath || 'body'}: ${shown} is not one of the ${allowed} allowed value${allowed === 1 ? '' : 's'}`;
  } else if (scalar && shown !== undefined) {
    message = `${error.message}, not ${shown}`;
  }
  return finding(context, 'response_schema_conformance', {
    instancePath: error.instancePath,
    schemaPath: error.schemaPath,
    message,
    ...(error.keyword === 'enum' ? { expected: error.params.allowedValues } : {}),
    ...(actual !== undefined ? { actual } : {}),
  });
}

/** Errors the paymentMethod placement rule reports in its own words (payment_method_placement). */
function isPlacementError(error: SchemaError, accepted: string[]): boolean {
  if (error.keyword === 'anyOf' && error.instancePath === '') return true;
  if (error.keyword !== 'required') return false;
  const missing = `${error.instancePath}/${String(error.params.missingProperty)}`;
  // "/paymentMethod", "/order" (the parent of /order/paymentMethod), "/order/paymentMethod"
  return accepted.some((pointer) => pointer === missing || pointer.startsWith(missing + '/'));
}
