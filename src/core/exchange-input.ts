// What checkExchange accepts, checked at the library's door: a caller in JavaScript (or with `as any`) may hand it
// anything. A content type that was not a string or an object as the body threw a raw TypeError from deep inside a
// check; now the field is named in one ContractsError (INVALID_EXCHANGE). A parsed body goes in `json`, beside its
// text in `body`: an object in `body` is refused rather than guessed at (a Buffer, a stream or a parsed value?).
import { ContractsError } from './errors.js';
import type { Exchange } from './exchange.js';

const kind = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value);

function refuse(message: string): never {
  throw new ContractsError('INVALID_EXCHANGE', `checkExchange: ${message}`);
}

/** Throws INVALID_EXCHANGE naming the first field of `exchange` that is not what Exchange says. */
export function checkExchangeInput(exchange: unknown): asserts exchange is Exchange {
  if (exchange === null || typeof exchange !== 'object')
    refuse(`the exchange must be an object, not ${kind(exchange)}`);
  const { method, path, status, headers, body, bodyTooLarge } = exchange as Record<string, unknown>;
  if (typeof method !== 'string') refuse(`method must be a string, not ${kind(method)}`);
  if (typeof path !== 'string') refuse(`path must be a string, not ${kind(path)}`);
  if (!Number.isInteger(status)) refuse(`status must be an integer, not ${kind(status)}`);
  if (headers === null || typeof headers !== 'object' || Array.isArray(headers))
    refuse(`headers must be an object of strings, not ${kind(headers)}`);
  for (const [name, value] of Object.entries(headers as object))
    if (value !== undefined && typeof value !== 'string')
      refuse(`header ${JSON.stringify(name)} must be a string, not ${kind(value)}`);
  if (typeof body !== 'string')
    refuse(
      `body must be the response's text, not ${kind(body)}` +
        (body !== null && typeof body === 'object' ? ': pass a parsed body as `json` (and its text as `body`)' : ''),
    );
  if (bodyTooLarge !== undefined && typeof bodyTooLarge !== 'number')
    refuse(`bodyTooLarge must be a number, not ${kind(bodyTooLarge)}`);
}
