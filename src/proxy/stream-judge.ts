// A response of a sequential media type with an itemSchema (OpenAPI 3.2 section 4.14.3) judged as it flows through
// the proxy: each item (a JSON Lines line, an event) is read off the chunks as they are forwarded and judged at once
// by the same rule as validate's (core/stream/judge-items.ts), so a stream that never ends is judged too. Memory is
// one unfinished item (bounded by --max-body) and the first findings kept for the exchange's report; the rest are
// said as they come and counted. The answer is decided at its head: no per-chunk lookup, nothing for other answers.
// A body with a Content-Encoding (gzip...) is not read live: it is judged whole at its end, as before, if it fits.
import type { Contract } from '../core/compile-contract.js';
import type { Finding } from '../core/finding.js';
import { headerValue } from '../core/exchange.js';
import { parseMediaType, selectMediaType } from '../core/media-type.js';
import { responseFor } from '../core/operation-index.js';
import { matchRequest } from '../core/server-bases.js';
import { splitTarget } from '../core/check-request.js';
import type { ItemContract } from '../core/stream/item-contract.js';
import { judgeItem } from '../core/stream/judge-items.js';
import { SequenceReader, type SequenceItem } from '../core/stream/sequence-items.js';

/** Findings kept for the exchange's report (the rest are said live and counted): checkExchange's own cap. */
const keptFindings = 100;

export class StreamJudge {
  private readonly reader: SequenceReader;
  private readonly decoder = new TextDecoder('utf-8');
  /** The first findings, for the exchange's report once it ends. */
  readonly kept: Finding[] = [];
  /** Findings past `kept`. */
  dropped = 0;

  constructor(
    private readonly contract: Contract,
    readonly operationId: string,
    private readonly items: ItemContract,
    maxItemChars: number,
  ) {
    this.reader = new SequenceReader(items.format, maxItemChars);
  }

  /** The findings of the items this chunk completes. */
  push(chunk: Uint8Array): Finding[] {
    return this.judge(this.reader.push(this.decoder.decode(chunk, { stream: true })));
  }

  /** The findings of what the end of the body completes. */
  end(): Finding[] {
    const rest = this.decoder.decode();
    return this.judge([...(rest === '' ? [] : this.reader.push(rest)), ...this.reader.end()]);
  }

  private judge(items: SequenceItem[]): Finding[] {
    const findings: Finding[] = [];
    for (const item of items)
      for (const judged of judgeItem(this.contract, this.items, item)) {
        const finding: Finding = {
          check: 'response_schema_conformance',
          severity: 'error',
          operation: this.operationId,
          ...judged,
        };
        findings.push(finding);
        if (this.kept.length < keptFindings) this.kept.push(finding);
        else this.dropped++;
      }
    return findings;
  }
}

/** A judge for this answer when its documented media type is a sequence with an itemSchema; else undefined. */
export function streamJudgeFor(
  contract: Contract,
  exchange: { method: string; target: string; status: number },
  headers: readonly string[],
  maxItemChars: number,
): StreamJudge | undefined {
  const flat: Record<string, string> = Object.create(null);
  for (let index = 0; index + 1 < headers.length; index += 2)
    flat[headers[index]!.toLowerCase()] ??= headers[index + 1]!;
  const encoding = headerValue(flat, 'content-encoding');
  if (encoding !== undefined && encoding.trim().toLowerCase() !== 'identity') return undefined;
  const match = matchRequest(contract, exchange.method, splitTarget(exchange.target).path);
  if (!match) return undefined;
  const operation = contract.byOperationId.get(match.operation.operationId);
  const response = responseFor(match.operation, exchange.status);
  const compiled = response && operation?.responses.find((candidate) => candidate.spec === response);
  const media = compiled && selectMediaType(compiled.mediaTypes, parseMediaType(headerValue(flat, 'content-type')));
  if (!media?.items) return undefined;
  return new StreamJudge(contract, match.operation.operationId, media.items, maxItemChars);
}
