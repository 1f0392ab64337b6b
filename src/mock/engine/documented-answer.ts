// An answer with a documented status of one operation, made to pass the spec's checks: a draft (the media type
// chosen, a named example, or the engine's problem+json for a refusal) mended by valid-answer.ts, which tries the
// media type's examples first, then generated bodies, fills required headers, and judges the result again in full.
import type { CompiledMediaType, CompiledOperation, CompiledResponse, Contract } from '../../core/compile-contract.js';
import { deref } from '../../core/request-model.js';
import { resolvePointer } from '../../core/source-locator.js';
import { parseMediaType, rangeMatches } from '../../core/media-type.js';
import { responseFor } from '../../core/operation-index.js';
import { pathToPointer } from '../../core/source-locator.js';
import { answerFails, validAnswer } from '../valid-answer.js';
import { unable, type EngineAnswer } from './engine-answer.js';
import { sequenceBody } from './sequence-answer.js';

export interface DraftOptions {
  /** `Prefer: example=NAME`. */
  example?: string;
  /** The request's Accept header: the first documented media type it admits is served. */
  accept?: string;
  /** A refusal's problem+json: served as it is where the documented schema accepts it. */
  problem?: Record<string, unknown>;
}

export function compiledResponse(operation: CompiledOperation, status: number): CompiledResponse | undefined {
  const spec = responseFor(operation.spec, status);
  return spec && operation.responses.find((candidate) => candidate.spec === spec);
}

/** The documented `status` answer of `operation` (judged by method `method`), valid, or the mock's 500. */
export function documentedAnswer(
  contract: Contract,
  operation: CompiledOperation,
  request: { method: string; path: string },
  status: number,
  options: DraftOptions = {},
): EngineAnswer {
  const response = compiledResponse(operation, status);
  if (!response) return unable(`${status} is not documented for ${operation.spec.operationId}`);
  const headers: Record<string, string> = {};
  let body = '';
  const media = response.spec.noBody ? undefined : chooseMedia(response.mediaTypes, options);
  if (media) {
    headers['content-type'] = media.mediaType.includes('*') ? 'application/json' : media.mediaType;
    const drafted = draftBody(contract, media, options);
    if (typeof drafted !== 'string') return drafted;
    body = drafted;
  }
  const exchange = { method: request.method, path: request.path, status, headers, body };
  const judged = validAnswer(contract, exchange);
  if (judged.kind === 'unable') return { status: judged.status, headers: judged.headers, body: judged.body };
  if (judged.kind === 'as-is') return { status, headers, body };
  return { status, headers: { ...headers, ...judged.headers }, body: judged.body };
}

function chooseMedia(mediaTypes: readonly CompiledMediaType[], options: DraftOptions): CompiledMediaType | undefined {
  if (mediaTypes.length === 0) return undefined;
  if (options.problem) {
    const problemType = mediaTypes.find((media) => media.mediaType === 'application/problem+json');
    if (problemType) return problemType;
  }
  const accepted = (options.accept ?? '')
    .slice(0, 4096)
    .split(',')
    .map((entry) => parseMediaType(entry))
    .filter((range) => range !== undefined && range.essence !== '*/*');
  for (const range of accepted) {
    const found = mediaTypes.find(
      (media) => media.range && (rangeMatches(range!, media.range) || rangeMatches(media.range, range!)),
    );
    if (found) return found;
  }
  return (
    mediaTypes.find((media) => media.json && media.schemaPath) ??
    mediaTypes.find((media) => media.schemaPath) ??
    mediaTypes[0]
  );
}

/** The draft body text, or the mock's 500 when a named example is not there. */
function draftBody(contract: Contract, media: CompiledMediaType, options: DraftOptions): string | EngineAnswer {
  // OpenAPI 3.2 section 4.14.3: a sequence of items, each its itemSchema's (sequence-answer.ts).
  if (media.items && !options.problem)
    return (
      sequenceBody(contract, media, options.example) ??
      unable(`no ${media.mediaType} item its itemSchema accepts was found`)
    );
  const mediaPointer = '#' + pathToPointer(media.schemaPath ? media.schemaPath.slice(0, -1) : []);
  const mediaObject = (media.schemaPath ? resolvePointer(contract.spec.document, mediaPointer) : undefined) as
    | { example?: unknown; examples?: Record<string, unknown> }
    | undefined;
  const text = (value: unknown) => (typeof value === 'string' && !media.json ? value : (JSON.stringify(value) ?? ''));
  if (options.example !== undefined) {
    const examples = mediaObject?.examples;
    const entry =
      examples && Object.hasOwn(examples, options.example)
        ? deref(contract.spec.document, examples[options.example])
        : undefined;
    if (!entry || typeof entry !== 'object' || !Object.hasOwn(entry, 'value'))
      return unable(`no example named ${JSON.stringify(options.example)} is documented for ${media.mediaType}`);
    return text((entry as { value: unknown }).value);
  }
  if (options.problem) return text(options.problem);
  if (media.schemaPath) return '';
  return media.json ? '{}' : '';
}

/** The refusal's reason written into the documented body where it has a place for one and stays valid. */
export function withReason(
  contract: Contract,
  request: { method: string; path: string },
  answer: EngineAnswer,
  detail: string,
): EngineAnswer {
  let value: unknown;
  try {
    value = JSON.parse(answer.body);
  } catch {
    return answer;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return answer;
  const record = value as Record<string, unknown>;
  const inner = record.error;
  for (const [holder, key] of [
    [record, 'detail'],
    [record, 'message'],
    [inner, 'message'],
  ] as const) {
    if (holder === null || typeof holder !== 'object' || typeof (holder as Record<string, unknown>)[key] !== 'string')
      continue;
    const before = (holder as Record<string, unknown>)[key];
    (holder as Record<string, unknown>)[key] = detail;
    const candidate = { ...answer, body: JSON.stringify(record) };
    if (!answerFails(contract, { ...request, ...candidate })) return candidate;
    (holder as Record<string, unknown>)[key] = before;
  }
  return answer;
}
