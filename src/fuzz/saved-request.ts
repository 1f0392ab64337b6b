// What --replay takes from a saved request as it was sent, and what it checks it sent again: the body's bytes under
// the Content-Type they went with (a multipart body's boundary is there: RFC 2046 section 5.1.1), every header but
// the credentials (re-read from the environment), and afterwards whether the request that went out is the saved one.
// A replay that sent something else must not call the answer a verdict on the saved failure.
import { decodeFormBody } from '../core/form-body/decode-form-body.js';
import type { OperationModel, RequestData } from '../core/request-model.js';
import { bodyWire } from '../core/sendable-body.js';
import type { SentRequest } from './curl-line.js';
import { redacted } from '../reports/redact-fields.js';

/** Headers the HTTP client writes itself, whatever the request says (RFC 9112 sections 6.1, 6.2, 9.6; RFC 9110 7.2). */
const transportHeaders = new Set(['host', 'content-length', 'transfer-encoding', 'connection']);

interface CredentialPlace {
  in: 'header' | 'query' | 'cookie';
  name: string;
}

/** Whether a saved or sent header is a credential's, which the replay re-reads from the environment. */
function isCredentialHeader(name: string, value: string, credentials: readonly CredentialPlace[]): boolean {
  const lower = name.toLowerCase();
  if (value.includes(redacted)) return true;
  if (lower === 'cookie' && credentials.some((credential) => credential.in === 'cookie')) return true;
  return credentials.some((credential) => credential.in === 'header' && credential.name.toLowerCase() === lower);
}

/**
 * The saved headers a replay sends again as they were: all but the credentials, the body's Content-Type (it goes
 * with the body: savedBody) and the transport's own.
 */
export function savedHeaders(saved: SentRequest, credentials: readonly CredentialPlace[]): [string, string][] {
  return saved.headers.filter(
    ([name, value]) =>
      name.toLowerCase() !== 'content-type' &&
      !transportHeaders.has(name.toLowerCase()) &&
      !isCredentialHeader(name, value, credentials),
  );
}

/**
 * The saved body as a replay sends it (its bytes and Content-Type, as they were) and judges it (the value they
 * decode to under the operation's media type, as the run judged its value): JSON parsed, a form's fields read back
 * (form-body/decode-form-body.ts), a text as it is. No value when the bytes decode to none (a negative case's text
 * that is not JSON): judged as those bytes.
 */
export function savedBody(
  model: OperationModel,
  saved: SentRequest,
): Pick<RequestData, 'body' | 'rawBody' | 'rawContentType'> {
  if (saved.body === undefined) return {};
  const contentType = saved.headers.find(([name]) => name.toLowerCase() === 'content-type')?.[1];
  const sent = { rawBody: saved.body, ...(contentType !== undefined ? { rawContentType: contentType } : {}) };
  const value = bodyValue(model, saved.body, contentType);
  return value === undefined ? sent : { ...sent, body: value.value };
}

function bodyValue(
  model: OperationModel,
  text: string,
  contentType: string | undefined,
): { value: unknown } | undefined {
  const type = contentType ?? model.body?.contentType ?? 'application/json';
  if (model.body?.form && bodyWire(type) === 'form') {
    const read = decodeFormBody(model.body.form, text, type);
    return 'value' in read ? { value: read.value } : undefined;
  }
  if (bodyWire(type) === 'text') return { value: text };
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return undefined;
  }
}

/**
 * A query's pairs as written, bar the credentials' (saved redacted, sent from the environment). A pair the report
 * redacted by its name alone (`key=[REDACTED]`: redact-fields.ts) stays: the replay did not have its value.
 */
function queryPairsOf(url: URL, credentials: readonly CredentialPlace[]): string[] {
  const secret = new Set(credentials.filter((credential) => credential.in === 'query').map((c) => c.name));
  return url.search
    .slice(1)
    .split('&')
    .filter((pair) => pair !== '')
    .filter((pair) => !secret.has(decodeURIComponent(pair.split('=')[0]!.replace(/\+/g, ' '))));
}

/** Headers a report always redacts (redact-fields.ts): a credential's whatever the config names. */
const alwaysSecret = new Set(['authorization', 'proxy-authorization', 'cookie']);

/**
 * The headers as written, bar the transport's and the credentials' (by name: a header the report redacted by its
 * name alone, `x-session-id: [REDACTED]`, was not re-sent as it was, and counts as a difference).
 */
function headerList(request: SentRequest, credentials: readonly CredentialPlace[]): string[] {
  const secret = (name: string) => alwaysSecret.has(name.toLowerCase()) || isCredentialHeader(name, '', credentials);
  return request.headers
    .filter(([name]) => !transportHeaders.has(name.toLowerCase()) && !secret(name))
    .map(([name, value]) => `${name.toLowerCase()}: ${value}`)
    .sort();
}

/**
 * What of the saved request the replay did not send as it was, in words ("the body", "header accept"), or none:
 * method, path, query (bar credentials), headers (bar credentials and the transport's), body bytes. The origin may
 * differ: --base-url says where the target is now.
 */
export function resentDifferences(
  saved: SentRequest,
  sent: SentRequest,
  credentials: readonly CredentialPlace[],
): string[] {
  const differences: string[] = [];
  const [was, now] = [new URL(saved.url), new URL(sent.url)];
  if (saved.method !== sent.method) differences.push('the method');
  if (was.pathname !== now.pathname) differences.push('the path');
  const savedPairs = queryPairsOf(was, credentials);
  if (savedPairs.join('&') !== queryPairsOf(now, credentials).join('&')) {
    // A value the report redacted by its name alone (`key`: redact-fields.ts) was not there to send.
    const hidden = savedPairs.filter((pair) => pair.includes(redacted)).map((pair) => pair.split('=')[0]!);
    differences.push(hidden.length > 0 ? `the query (the report redacted ${hidden.join(', ')})` : 'the query');
  }
  const [savedHeaderList, sentHeaderList] = [headerList(saved, credentials), headerList(sent, credentials)];
  const names = new Set(
    [
      ...savedHeaderList.filter((h) => !sentHeaderList.includes(h)),
      ...sentHeaderList.filter((h) => !savedHeaderList.includes(h)),
    ].map((header) => header.slice(0, header.indexOf(':'))),
  );
  for (const name of [...names].sort()) differences.push(`header ${name}`);
  if ((saved.body ?? '') !== (sent.body ?? '')) differences.push('the body');
  return differences;
}
