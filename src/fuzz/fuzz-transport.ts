// What the fuzz engine sends through: one request as plain data in, the exchange it captured out. The CLI's runs use
// the real HTTP client (http-capture.ts, over a keep-alive pool); a unit test hands in a function playing a service,
// so the engine (cases, the walk, the failure book) is tested without sockets or a spawned CLI.
import type { CapturedExchange, RawRequest } from '../http/http-capture.js';

/** Sends one request and resolves with what came back; `cleanup` requests go out even after an interrupt. */
export type FuzzSend = (request: RawRequest, cleanup: boolean) => Promise<CapturedExchange>;

/** What the executor needs of a transport: the send, and whether the run was interrupted (no new requests then). */
export interface FuzzTransport {
  exchange: FuzzSend;
  readonly interrupted: boolean;
}
