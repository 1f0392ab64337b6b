// What the target answered, as a fuzz failure shows it: the status, the headers that explain an answer, and the
// start of the body with its whole size. Credentials are redacted from the whole body before it is cut, so a cut
// never leaves part of a secret where the redactor can no longer match it.
import { type Exchange, headerValue } from '../core/exchange.js';

export interface FailureAnswer {
  status: number;
  /** The headers that explain an answer (see shownHeaders), each at most 200 characters; none without a redactor. */
  headers: Record<string, string>;
  /** The body's first 1,000 characters, redacted; absent when the run has no redactor. */
  body?: string;
  /** The body's size in bytes (what it announced, when it was too large to read). */
  bodyBytes: number;
  /** Set when `body` is only the start of it. */
  truncated?: true;
}

const shownHeaders = ['content-type', 'content-length', 'location', 'www-authenticate', 'retry-after', 'allow'];
export const maxAnswerChars = 1000;
const maxHeaderChars = 200;

export function answerOf(exchange: Exchange, redact?: (text: string) => string): FailureAnswer {
  const headers: Record<string, string> = {};
  for (const name of shownHeaders) {
    const value = headerValue(exchange.headers, name);
    if (value !== undefined && redact) headers[name] = redact(value).slice(0, maxHeaderChars);
  }
  const bodyBytes = exchange.bodyTooLarge ?? Buffer.byteLength(exchange.body);
  if (!redact) return { status: exchange.status, headers, bodyBytes };
  const body = redact(exchange.body);
  return {
    status: exchange.status,
    headers,
    body: body.slice(0, maxAnswerChars),
    bodyBytes,
    ...(body.length > maxAnswerChars ? { truncated: true as const } : {}),
  };
}

/**
 * The answer on one console line: `422, application/json, 57 bytes: {"message":…}` (the body's start, spaces folded).
 * `show` is applied to the whole body before it is cut (the fuzz report makes the run's marker and ports stable).
 */
export function answerLine(answer: FailureAnswer, show = (body: string) => body, most = 160): string {
  const type = answer.headers['content-type'];
  const body = show(answer.body ?? '')
    .replace(/\s+/g, ' ')
    .trim();
  const excerpt = body.length > most ? `${body.slice(0, most)}…` : body;
  return [
    `${answer.status}`,
    ...(type ? [type] : []),
    `${answer.bodyBytes} bytes${excerpt ? `: ${excerpt}` : ''}`,
  ].join(', ');
}
