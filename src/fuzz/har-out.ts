// `contracts fuzz --har-out FILE`: every exchange of the run as a HAR 1.2 capture, redacted as the proxy's is
// (har/har-writer.ts), each entry with what the run made of it under `_contracts`: the API and operation, the
// phase, what the request was (valid, breaking the spec, or without its credentials) and the checks that failed on
// it, or that the run sent it for itself (its hook, a delivery list, cleanup) and judged nothing. `contracts
// validate --har FILE` reads it back: the same per-exchange verdicts (tests/integration/fuzz-har-out.test.ts).
import type { CheckName } from '../core/finding.js';
import type { HarWriter } from '../har/har-writer.js';
import type { ApiTarget, Sent } from './executor.js';

export interface HarNote {
  operation: string;
  phase?: string;
  /** The request as the validators saw it; `not judged` for what the run sent for itself. */
  request: 'valid' | 'breaks the spec' | 'no credentials' | 'not judged';
  /** Checks that failed on this exchange (the run's judgement of the answer). */
  failed?: CheckName[];
  /** How the answer was judged, when not by every check that applies to it. */
  answer?: string;
}

export class FuzzHar {
  constructor(private readonly writer: HarWriter) {}

  record(target: ApiTarget, sent: Sent, note: HarNote): void {
    const { url, method, headers, body } = sent.sent;
    const base = target.baseUrl.replace(/\/+$/, '');
    const parsed = new URL(url);
    this.writer.add(
      {
        method,
        target: url.startsWith(base) ? url.slice(base.length) : `${parsed.pathname}${parsed.search}`,
        startedAt: new Date(Date.now() - sent.durationMs),
        durationMs: sent.durationMs,
        request: {
          method,
          path: parsed.pathname,
          query: parsed.search.slice(1),
          headers: Object.fromEntries(headers),
          body: body ?? '',
        },
        status: sent.exchange.status,
        response: sent.exchange,
        blocked: false,
      },
      { base, contracts: { api: target.api, ...note } },
    );
  }

  /** What a spec marks as credentials (apiKey schemes, password and writeOnly fields) is redacted in the entries. */
  addSpec(document: unknown): void {
    this.writer.addSpec(document);
  }

  close(): Promise<void> {
    return this.writer.close();
  }
}
