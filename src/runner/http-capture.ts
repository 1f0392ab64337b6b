// The fetch the typed clients use during a run: adds a per-request timeout, lets an interruption abort what is
// in flight, and records each exchange's raw response (status, headers, body text) for the checks.
import { ContractsError } from '../core/errors.js';
import type { Exchange } from '../core/exchange.js';

export interface CapturedExchange extends Exchange {
  url: string;
}

export class HttpCapture {
  last: CapturedExchange | undefined;
  private readonly controller = new AbortController();

  constructor(private readonly timeoutMs: number) {}

  private stopping = false;

  /**
   * The first call refuses new requests but lets the one in flight finish, so a create that reaches the server
   * is known and can be cleaned up; a second call aborts what is in flight. `cleanupFetch` always works.
   */
  interrupt(): void {
    if (this.stopping) this.controller.abort(new Error('interrupted'));
    this.stopping = true;
  }

  get interrupted(): boolean {
    return this.stopping;
  }

  readonly fetch = (request: Request): Promise<Response> => this.send(request, true);

  /** For cleanup after an interruption: not aborted by interrupt(). */
  readonly cleanupFetch = (request: Request): Promise<Response> => this.send(request, false);

  private async send(request: Request, abortable: boolean): Promise<Response> {
    if (abortable && this.stopping) throw new ContractsError('INTERRUPTED', `interrupted before ${request.method} ${new URL(request.url).pathname}`);
    const signals = [AbortSignal.timeout(this.timeoutMs), ...(abortable ? [this.controller.signal] : [])];
    const url = new URL(request.url);
    let response: Response;
    try {
      response = await fetch(request, { signal: AbortSignal.any(signals) });
    } catch (error) {
      throw describeFailure(error, request.method, url, this.timeoutMs, abortable && this.stopping);
    }
    const body = await response.clone().text();
    this.last = { method: request.method, path: url.pathname, url: url.toString(), status: response.status, headers: Object.fromEntries(response.headers), body };
    return response;
  }
}

function describeFailure(error: unknown, method: string, url: URL, timeoutMs: number, interrupted: boolean): ContractsError {
  if (interrupted) return new ContractsError('INTERRUPTED', `interrupted during ${method} ${url.origin}${url.pathname}`);
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const name = (error as Error).name;
  const reason = name === 'TimeoutError' ? `no answer within ${timeoutMs} ms (--timeout)` : cause?.code ?? cause?.message ?? (error as Error).message;
  return new ContractsError('TARGET_UNREACHABLE', `cannot reach ${url.origin} (${method} ${url.pathname}): ${reason}`);
}
