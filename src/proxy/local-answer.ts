// The answers the proxy gives of its own (RFC 9110 section 15): a request it refuses, one the contract refuses
// (--errors), a target that failed, or a limit reached. Always a small JSON body naming why, framed by its length.
// The answer is bytes, not a string: the body (a message may quote `…` or a header value's latin1 bytes) is UTF-8,
// and Content-Length counts those bytes; a string would go on the socket latin1, one byte a character.
import type { Finding } from '../core/finding.js';

const crlf = '\r\n';

const reasonPhrases: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  505: 'HTTP Version Not Supported',
};

/** The whole answer, head and UTF-8 body, as the bytes sent; `close` says the connection closes after it. */
export function localAnswer(status: number, body: string, close: boolean): Buffer {
  const bytes = Buffer.from(body, 'utf8');
  const head =
    `HTTP/1.1 ${status} ${reasonPhrases[status] ?? 'Error'}${crlf}content-type: application/json${crlf}` +
    `content-length: ${bytes.length}${crlf}${status === 503 ? `retry-after: 1${crlf}` : ''}` +
    `${close ? `connection: close${crlf}` : ''}${crlf}`;
  return Buffer.concat([Buffer.from(head, 'latin1'), bytes]);
}

/** A violation as the 400 of --errors lists it. */
export function violation(finding: Finding): { check: string; message: string; instancePath?: string } {
  return {
    check: finding.check,
    message: finding.message,
    ...(finding.instancePath ? { instancePath: finding.instancePath } : {}),
  };
}
