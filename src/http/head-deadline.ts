// How long a node:http server (the sandbox, the receiver) waits for a request head: a deadline from the head's first
// byte, not an idle timer that each line re-arms (one header line every 3 s would then hold a connection for ever).
// node:http's headersTimeout is such a deadline, but it is checked only every connectionsCheckingInterval (30 s by
// default), so a head past a 10 s deadline could hold its connection 40 s; checked at a quarter of the deadline (1 s
// at most), the head is answered 408 and closed within a quarter more. The proxy keeps its own deadline
// (proxy/wire-connection.ts).
import type http from 'node:http';

export function headDeadline(
  headTimeoutMs: number,
  requestTimeoutMs: number,
): Pick<http.ServerOptions, 'headersTimeout' | 'requestTimeout' | 'connectionsCheckingInterval'> {
  return {
    headersTimeout: headTimeoutMs,
    // node:http refuses a head deadline past the request's.
    requestTimeout: Math.max(requestTimeoutMs, headTimeoutMs),
    connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(headTimeoutMs / 4))),
  };
}
