// request_parameters_conformance: every path, query, header and cookie parameter is present when required and,
// decoded as the server decodes it from the wire (its style and explode, or its `content` media type), satisfies its
// schema (type, enum, maximum…); a query value carries no raw reserved character unless allowReserved. OpenAPI 3.1
// section 4.8.12.
import type { CompiledParameter } from '../compile-request.js';
import { headerValue } from '../exchange.js';
import type { Finding } from '../finding.js';
import { ownValue } from '../own-key.js';
import {
  cookiePairs,
  decodeParameter,
  MalformedParameter,
  queryPairs,
  rawQueryPairs,
  reservedInQuery,
  unescapeIn,
} from '../parameter-style-decode.js';
import type { WireInput, WirePairs } from '../parameter-style.js';
import { wireValue, type CheckedParamModel, type ParamModel } from '../request-model.js';
import { requestFinding, type RequestCheck, type RequestCheckContext } from './request-check-context.js';
import { unnamedQuerystringFields } from './unnamed-querystring-fields.js';

/** Longest parameter value repeated in a finding; a longer one is described by its length. */
const maxShownValue = 100;

/** A raw query with none of these has no reserved character in a value: the allowReserved check is skipped. */
const maybeReserved = /[:/?[\]@!$'()*,;]|=[^&]*=/;

export const requestParametersConformance: RequestCheck = {
  name: 'request_parameters_conformance',
  applies: (context) => context.compiled.params.length > 0 || context.compiled.closedQuerystring !== undefined,
  run(context) {
    const findings: Finding[] = [];
    // Built only for a parameter that is not plain, or a query that may carry a reserved character.
    let wire: WireView | undefined;
    const mayHaveReserved = maybeReserved.test(context.request.query);
    for (const param of context.compiled.params) {
      const { secret } = param;
      if (param.plain) plainParameter(context, param, secret, findings);
      else styledParameter(context, param, (wire ??= new WireView(context)), secret, findings);
      if (mayHaveReserved && param.reservedEncoded) {
        wire ??= new WireView(context);
        const character = reservedInQuery(param.decodable, wire.rawQuery(), param.otherQueryNames);
        if (character !== undefined)
          findings.push(
            requestFinding(context, 'request_parameters_conformance', {
              // Section 4.8.12.2: allowReserved "Determines whether the parameter value SHOULD allow reserved
              // characters … to be included without percent-encoding". A SHOULD, and RFC 3986 section 3.4 lets a
              // query carry `:` `/` `?` raw, which every server reads alike: a warning, never a failed request.
              severity: 'warning',
              message: `query parameter ${param.model.name} carries ${JSON.stringify(character)} not percent-encoded, and its allowReserved is false`,
            }),
          );
      }
    }
    findings.push(...unnamedQuerystringFields(context));
    return findings;
  },
};

/** A default-style parameter of a primitive (or form-exploded array) schema: read as the query's, path's or
 * header's text, as before parameter styles were decoded. */
function plainParameter(
  context: RequestCheckContext,
  param: CompiledParameter,
  secret: boolean,
  findings: Finding[],
): void {
  const model = param.model as ParamModel;
  const raw = valueOf(context, model);
  if (raw === undefined) {
    if (model.required) findings.push(missing(context, model));
    return;
  }
  const value = param.types.includes('array')
    ? raw.map((item) => wireValue({ ...model, schema: itemSchema(model) }, item))
    : wireValue(model, raw[0]!);
  report(context, param, value, raw, secret, findings);
}

function styledParameter(
  context: RequestCheckContext,
  param: CompiledParameter,
  wire: WireView,
  secret: boolean,
  findings: Finding[],
): void {
  const { model } = param;
  const where = `${model.in} parameter ${model.name}`;
  let value: unknown;
  let text: string | undefined;
  if (model.mediaType === undefined) {
    const input = wire.input(model);
    value = input === undefined ? undefined : decodeParameter(param.decodable, input, param.otherQueryNames);
  } else {
    text = wire.text(model);
    value = text === undefined ? undefined : parsedContent(model.mediaType, text);
    if (value === unparsed) {
      findings.push(
        requestFinding(context, 'request_parameters_conformance', {
          message: `${where} is not ${model.mediaType}${secret ? '' : `: got ${quoted(text!)}`}`,
        }),
      );
      return;
    }
  }
  if (value === undefined) {
    if (model.required) findings.push(missing(context, model));
    return;
  }
  if (value === skipped) return;
  if (value instanceof MalformedParameter) {
    findings.push(
      requestFinding(context, 'request_parameters_conformance', {
        message: `${where} is not written in ${value.style} style${secret ? '' : `: got ${quoted(value.text)}`}`,
      }),
    );
    return;
  }
  report(context, param, value, text === undefined ? () => wire.sent(model) : () => [text], secret, findings);
}

/**
 * Findings of the parameter's schema on its decoded value. `sent`: the texts sent under its name (percent-decoded),
 * which the message shows and `actual` keeps when short; an object spread over several names is shown decoded.
 * Worked out only for a finding: a valid parameter costs its validation alone.
 */
function report(
  context: RequestCheckContext,
  param: CompiledParameter,
  value: unknown,
  sent: string[] | (() => string[] | undefined),
  secret: boolean,
  findings: Finding[],
): void {
  const { model } = param;
  const validation = context.contract.check(param.validate, value);
  if (validation.valid) return;
  const texts = typeof sent === 'function' ? sent() : sent;
  const text = texts === undefined ? JSON.stringify(value) : shown(texts);
  const actual = texts === undefined ? value : texts.length === 1 ? texts[0] : texts;
  const where = `${model.in} parameter ${model.name}`;
  // A value too long to repeat in the message is not carried whole in the finding either: its length says it.
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
        ...(kept ? { actual } : {}),
      }),
    );
  }
}

function missing(context: RequestCheckContext, model: CheckedParamModel): Finding {
  return requestFinding(context, 'request_parameters_conformance', {
    message: `the required ${model.in} parameter ${model.name} is missing`,
  });
}

const unparsed = Symbol('unparsed');
const skipped = Symbol('skipped');

/** A `content` parameter's text as its media type reads it: JSON parsed, text/plain as it is; another media type
 * is not judged (we cannot read it). */
function parsedContent(mediaType: string, text: string): unknown {
  const base = mediaType.split(';')[0]!.trim().toLowerCase();
  if (base === 'application/json' || /^application\/[\w.+-]*\+json$/.test(base)) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return unparsed;
    }
  }
  return base === 'text/plain' ? text : skipped;
}

/** The wire as parameters read it, each view built once per request and only when a parameter asks for it. */
class WireView {
  private query?: WirePairs;
  private cookies?: WirePairs;
  private raw?: [string, string][];
  private segments?: RegExpExecArray | null;

  constructor(private readonly context: RequestCheckContext) {}

  input(model: CheckedParamModel): WireInput | undefined {
    if (model.in === 'query') {
      this.query ??= queryPairs(this.context.request.query);
      return this.query;
    }
    if (model.in === 'cookie') {
      this.cookies ??= cookiePairs(headerValue(this.context.request.headers, 'cookie'));
      return this.cookies;
    }
    if (model.in === 'header') return headerValue(this.context.request.headers, model.name.toLowerCase());
    if (this.segments === undefined) this.segments = this.context.operation.matcher.exec(this.context.request.path);
    const index = this.context.operation.pathParams.indexOf(model.name);
    return index < 0 ? undefined : this.segments?.[index + 1];
  }

  /** A `content` parameter's one text, percent-decoded where its location is (RFC 3986; a header is not). */
  text(model: CheckedParamModel): string | undefined {
    return this.sent(model)?.[0];
  }

  /** The texts sent under the parameter's own name, percent-decoded; undefined when it sent none. */
  sent(model: CheckedParamModel): string[] | undefined {
    if (model.in === 'cookie') {
      const values = (this.input(model) as WirePairs).getAll(model.name).map((value) => unescapeIn('cookie', value));
      return values.length > 0 ? values : undefined;
    }
    return valueOf(this.context, model as ParamModel);
  }

  rawQuery(): [string, string][] {
    this.raw ??= rawQueryPairs(this.context.request.query);
    return this.raw;
  }
}

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

function quoted(text: string): string {
  return text.length <= maxShownValue ? JSON.stringify(text) : `a value of ${text.length} characters`;
}
