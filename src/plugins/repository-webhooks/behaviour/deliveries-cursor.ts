// deliveries_cursor: deliveries page with per_page and a cursor naming the delivery at which the page starts
// (webhooks seed: rule 7). The cursor is taken from the Link header's rel="next" when there is one, else it is the
// id of the second delivery; the page it gives starts at that delivery.
import type { Finding } from '../../../core/finding.js';
import { behaviourFinding } from './behaviour-finding.js';
import { idsOf } from './ids.js';
import { isSuccess } from './request-refused.js';

/** `expectedFirst`: the delivery the cursor names (the second of the full list). */
export function deliveriesCursor(
  operation: string,
  cursor: string,
  expectedFirst: unknown,
  status: number,
  page: unknown,
): Finding[] {
  if (!isSuccess(status))
    return [
      behaviourFinding('deliveries_cursor', operation, `the page at cursor ${cursor} answered ${status}`, {
        expected: '2xx',
        actual: status,
      }),
    ];
  const first = idsOf(page)[0];
  if (first === expectedFirst) return [];
  return [
    behaviourFinding(
      'deliveries_cursor',
      operation,
      `the page at cursor ${cursor} must start at delivery ${String(expectedFirst)}, got ${first === undefined ? 'an empty page' : `delivery ${String(first)}`}`,
      { expected: expectedFirst, actual: first ?? null },
    ),
  ];
}

/** The cursor parameter of the Link header's rel="next" URL, if there is one. */
export function nextCursor(link: string | undefined): string | undefined {
  if (!link || link.length > 8192) return undefined;
  for (const part of link.split(',')) {
    const match = /^\s*<([^>]*)>\s*;(.*)$/.exec(part);
    if (!match) continue;
    // rel="next", rel=next, or "next" among space-separated relation types (RFC 8288 section 3.3): not "nextpage".
    const rel = /(?:^|;)\s*rel\s*=\s*(?:"([^"]*)"|([^\s;"]+))/i.exec(match[2]!);
    if (!rel || !(rel[1] ?? rel[2]!).toLowerCase().split(/\s+/).includes('next')) continue;
    try {
      return new URL(match[1]!, 'http://link.invalid').searchParams.get('cursor') ?? undefined;
    } catch {
      return undefined;
    }
  }
  return undefined;
}
