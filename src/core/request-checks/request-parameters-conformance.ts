// request_parameters_conformance: every path, query and header parameter is present when required and, decoded as
// the server decodes it from the wire, satisfies its schema (type, enum, maximum…). OpenAPI 3.1 section 4.8.12.
import { headerValue } from '../exchange.js';
import { wireValue, type ParamModel } from '../request-model.js';
import { requestFinding, type RequestCheck, type RequestCheckContext } from './request-check-context.js';
import { ownValue } from '../own-key.js';

/** Longest parameter value repeated in a finding; a longer one is described by its length. */
const maxShownValue = 100;

export const requestParametersConformance: RequestCheck = {
  name: 'request_parameters_conformance',
  applies: (context) => context.compiled.params.length > 0,
  run(context) {
    const findings = [];
    // A parameter that is also a credential (a security scheme's name) never has its value shown.
    const credentials = new Set(
      context.compiled.security.flat().map((credential) => `${credential.in}:${credential.name.toLowerCase()}`),
    );
    for (const { model, types, validate } of context.compiled.params) {
      const raw = valueOf(context, model);
      const where = `${model.in} parameter ${model.name}`;
      if (raw === undefined) {
        if (model.required)
          findings.push(
            requestFinding(context, 'request_parameters_conformance', { message: `the required ${where} is missing` }),
          );
        continue;
      }
      const value = types.includes('array')
        ? raw.map((item) => wireValue({ ...model, schema: itemSchema(model) }, item))
        : wireValue(model, raw[0]!);
      const validation = context.contract.check(validate, value);
      if (validation.valid) continue;
      const secret = credentials.has(`${model.in}:${model.name.toLowerCase()}`);
      // A value too long to repeat in the message is not carried whole in the finding either: its length says it.
      const text = shown(raw);
      const kept = !secret && text.length <= maxShownValue;
      for (const error of validation.errors) {
        // The message names the value `body`, an item of it by its pointer (`/1`), then a space (compile-spec.ts's
        // describeError): here the parameter, `ids/1`.
        const subject = error.instancePath === '' ? 'body' : error.instancePath;
        const reason = error.message.slice(subject.length + 1);
        findings.push(
          requestFinding(context, 'request_parameters_conformance', {
            message: `${where}${error.instancePath} ${reason}${secret ? '' : `: got ${kept ? text : `a value of ${text.length} characters`}`}`,
            schemaPath: error.schemaPath,
            ...(kept ? { actual: raw.length === 1 ? raw[0] : raw } : {}),
          }),
        );
      }
    }
    return findings;
  },
};

/** The parameter's values as sent (several for a repeated query parameter), or undefined when it is absent. */
function valueOf(context: RequestCheckContext, model: ParamModel): string[] | undefined {
  if (model.in === 'path') {
    const value = ownValue(context.pathParams, model.name);
    return value === undefined ? undefined : [value];
  }
  if (model.in === 'query') {
    const values = context.query.getAll(model.name);
    return values.length > 0 ? values : undefined;
  }
  const value = headerValue(context.request.headers, model.name.toLowerCase());
  return value === undefined ? undefined : [value];
}

function itemSchema(model: ParamModel): Record<string, unknown> {
  const items = model.schema.items;
  return items && typeof items === 'object' ? (items as Record<string, unknown>) : {};
}

function shown(values: string[]): string {
  return values.length === 1 ? JSON.stringify(values[0]) : JSON.stringify(values);
}
