// per_page_respected and per_page_capped: a page never holds more than per_page items, and per_page is at most
// 100 (seed, limits table): a larger value is rejected (4xx) or capped at 100.
import type { Finding } from '../finding.js';
import { behaviourFinding } from './behaviour-finding.js';

export function perPageRespected(operation: string, perPage: number, items: unknown): Finding[] {
  if (!Array.isArray(items) || items.length <= perPage) return [];
  return [behaviourFinding('per_page_respected', operation, `per_page=${perPage} but the page holds ${items.length} items`, { expected: `at most ${perPage}`, actual: items.length })];
}

export function perPageCapped(operation: string, status: number, items: unknown): Finding[] {
  if (status >= 400 && status < 500) return [];
  if (status >= 200 && status < 300 && (!Array.isArray(items) || items.length <= 100)) return [];
  const message = status >= 200 && status < 300
    ? `per_page=101 must be rejected or capped at 100, but the page holds ${Array.isArray(items) ? items.length : '?'} items`
    : `per_page=101 must be rejected (4xx) or capped at 100, got status ${status}`;
  return [behaviourFinding('per_page_capped', operation, message, { expected: '4xx, or at most 100 items', actual: status })];
}
