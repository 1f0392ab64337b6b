// The embedded mock's word that it could not make an answer its spec accepts (src/mock/valid-answer.ts): a 500
// carrying this header. Whoever runs the mock (fuzz without --base-url) reads it as the tool's limit, never as the
// API's failure; from any other server it means nothing.
import { headerValue, type Exchange } from './exchange.js';

export const mockRefusalHeader = 'contracts-mock';
export const mockRefusalValue = 'no-valid-answer';

/** The mock's reason, when `exchange` is its refusal; undefined otherwise. */
export function mockRefusal(exchange: Pick<Exchange, 'status' | 'headers' | 'body'>): string | undefined {
  if (exchange.status !== 500 || headerValue(exchange.headers, mockRefusalHeader) !== mockRefusalValue)
    return undefined;
  try {
    const detail = (JSON.parse(exchange.body) as { detail?: unknown }).detail;
    return typeof detail === 'string' ? detail : 'the mock could not make a valid answer';
  } catch {
    return 'the mock could not make a valid answer';
  }
}
