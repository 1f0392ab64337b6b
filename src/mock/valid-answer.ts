// What the mock's validating front serves in place of an answer Prism made: the answer itself when the spec accepts
// it, else the same status with a body (and headers) the spec accepts, else a refusal to pretend. Prism's static mode
// serves an invalid `example` as is, and for a schema without one a sample that ignores `pattern` ("string"); the
// spec's own checks (src/core/checks/) judge every answer, so the mock never serves what its spec refuses.
import fc from 'fast-check';
import { checkExchange, type ExchangeResult } from '../core/check-exchange.js';
import type { CompiledOperation, CompiledResponse, Contract } from '../core/compile-contract.js';
import { headerValue, type Exchange } from '../core/exchange.js';
import { parseMediaType, selectMediaType } from '../core/media-type.js';
import type { CheckName, Finding } from '../core/finding.js';
import { resolvePointer } from '../core/source-locator.js';
import { responseFor } from '../core/operation-index.js';
import { mockRefusalHeader, mockRefusalValue } from '../core/mock-refusal.js';
import { parseJson } from '../core/parse-json.js';
import { pathToPointer } from '../core/source-locator.js';
import { schemaArbitrary } from '../fuzz/schema-arbitrary.js';
import { validBody } from './valid-body.js';

export type MockAnswer =
  | { kind: 'as-is' }
  | { kind: 'replaced'; headers: Record<string, string>; body: string; why: string }
  | { kind: 'unable'; status: 500; headers: Record<string, string>; body: string };

/** The checks whose failures a mock can mend: what the answer carries. Its status is Prism's choice (a refusal). */
const mendable: ReadonlySet<CheckName> = new Set([
  'content_type_conformance',
  'response_body_wellformed',
  'response_schema_conformance',
  'response_headers_conformance',
]);

/** Header values tried per header before giving up. */
const headerProposals = 50;

/**
 * Judges Prism's answer to `method path` and mends it. An answer whose status the spec does not document for the
 * operation (Prism's 422 to an invalid request, a 404 for no route) is Prism's refusal and passes as it is.
 */
export function validAnswer(
  contract: Contract,
  exchange: Exchange & { method: string },
  candidates: readonly unknown[] = [],
): MockAnswer {
  // An answer to HEAD has no body to judge (RFC 9110 section 9.3.2); its GET twin is judged.
  if (exchange.method.toUpperCase() === 'HEAD') return { kind: 'as-is' };
  const result = checkExchange(contract, exchange);
  const failed = mendableFindings(result);
  if (failed.length === 0 || result.operationId === undefined) return { kind: 'as-is' };
  const operation = contract.byOperationId.get(result.operationId)!;
  const response = compiledResponse(operation, exchange.status);
  if (!response) return { kind: 'as-is' };
  const why = failed[0]!.message;
  const unable = (reason: string) => refusal(operation, exchange.status, reason, why);
  const headers: Record<string, string> = {};
  let body = '';
  const bodyFails = failed.some((finding) => finding.check !== 'response_headers_conformance');
  const contentType = headerValue(exchange.headers, 'content-type');
  if (!bodyFails) {
    // Only headers failed: the body the spec accepted is kept, with its type.
    body = exchange.body;
    if (contentType !== undefined) headers['content-type'] = contentType;
  } else if (!response.spec.noBody) {
    // The key the answer's Content-Type selects, as the checks select it (media-type.ts), else a JSON one.
    const withSchema = response.mediaTypes.filter((entry) => entry.validate);
    const media = selectMediaType(withSchema, parseMediaType(contentType)) ?? withSchema.find((entry) => entry.json);
    if (!media) return unable('no JSON media type with a schema is documented for it');
    const hint = candidates.find((candidate) => candidate !== undefined) ?? parseJson(exchange.body);
    const made = validBody(contract, media, { hint, candidates });
    if (!made) return unable(`no ${media.mediaType} body its schema accepts was found`);
    body = JSON.stringify(made.value);
    headers['content-type'] = media.mediaType.includes('*') ? 'application/json' : media.mediaType;
  }
  for (const header of response.headers) {
    const value = validHeader(contract, response, header.name, headerValue(exchange.headers, header.name));
    if (value === null) return unable(`no value of response header ${header.name} its schema accepts was found`);
    if (value !== undefined) headers[header.name.toLowerCase()] = value;
  }
  // The mended answer is judged again in full: what is served is what the checks accept, not what was meant.
  const mended = { ...exchange, headers: { ...lowerCased(exchange.headers), ...headers }, body, json: undefined };
  delete mended.json;
  const again = mendableFindings(checkExchange(contract, mended));
  if (again.length > 0) return unable(again[0]!.message);
  return { kind: 'replaced', headers, body, why };
}

/** Whether the spec refuses Prism's answer in what a mock can mend: cheap, the checks every answer gets anyway. */
export function answerFails(contract: Contract, exchange: Exchange & { method: string }): boolean {
  if (exchange.method.toUpperCase() === 'HEAD') return false;
  const result = checkExchange(contract, exchange);
  return result.operationId !== undefined && mendableFindings(result).length > 0;
}

function mendableFindings(result: ExchangeResult): Finding[] {
  return result.findings.filter((finding) => mendable.has(finding.check));
}

function compiledResponse(operation: CompiledOperation, status: number): CompiledResponse | undefined {
  const spec = responseFor(operation.spec, status);
  return spec && operation.responses.find((candidate) => candidate.spec === spec);
}

/**
 * A value for one documented response header: the present one when its schema accepts it (undefined: keep it), else
 * the first proposal it accepts; null when none is found. An optional header that is absent stays absent.
 */
function validHeader(
  contract: Contract,
  response: CompiledResponse,
  name: string,
  present: string | undefined,
): string | undefined | null {
  const header = response.headers.find((entry) => entry.name === name)!;
  const spec = response.spec.headers.find((entry) => entry.name === name);
  const fits = (value: string) => {
    if (!header.validate) return true;
    const typed = header.schemaType === 'integer' || header.schemaType === 'number' ? Number(value) : value;
    const coerced = header.schemaType === 'boolean' ? value === 'true' : typed;
    return contract.check(header.validate, coerced).errors.length === 0;
  };
  if (present !== undefined && fits(present)) return undefined;
  if (present === undefined && !header.required) return undefined;
  if (!spec?.schemaPath) return present === undefined ? 'x' : undefined;
  const schema = resolvePointer(contract.spec.document, '#' + pathToPointer(spec.schemaPath));
  const samples = fc.sample(schemaArbitrary(contract.spec.document, schema, { header: true }), {
    numRuns: headerProposals,
    seed: 1,
  });
  for (const sample of samples) {
    const text = Array.isArray(sample) ? sample.join(',') : String(sample);
    if (fits(text)) return text;
  }
  return null;
}

/**
 * The mock could make no answer its spec accepts (a schema no value satisfies, a pattern generation cannot match):
 * a 500 that says so and carries the mock's refusal header (src/core/mock-refusal.ts), never an answer passed off as the API's.
 */
function refusal(operation: CompiledOperation, status: number, reason: string, why: string): MockAnswer {
  const detail = `the mock could not make a valid ${status} answer for ${operation.spec.operationId}: ${reason} (Prism's answer: ${why})`;
  return {
    kind: 'unable',
    status: 500,
    headers: { 'content-type': 'application/problem+json', [mockRefusalHeader]: mockRefusalValue },
    body: JSON.stringify({ title: 'contracts mock: no valid answer', status: 500, detail }),
  };
}

function lowerCased(headers: Exchange['headers']): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(headers)) out[name.toLowerCase()] = value;
  return out;
}
