// `contracts sandbox --record FILE`: every exchange the sandbox served as a HAR 1.2 capture, written as it happens
// by the proxy's writer (har/har-writer.ts), so credentials are redacted by the same rule (headers, query, JSON and
// form body fields the spec marks, every known secret). Bounded: at most maxEntries entries and maxBytes of bodies;
// past either the recording stops, said once. The admin surface's exchanges are not the API's and are left out.
// `contracts validate --har FILE` reads it back (tests/integration/sandbox-api-record.test.ts).
import type { HarWriter } from '../../har/har-writer.js';
import type { ServedExchange } from './start-stateful.js';

export interface RecordBounds {
  maxEntries: number;
  maxBytes: number;
}

export const defaultRecordBounds: RecordBounds = { maxEntries: 10_000, maxBytes: 64 * 1024 * 1024 };

/** A body over this is recorded as `over N bytes: not recorded`. */
const maxBodyBytes = 1024 * 1024;

export class SandboxRecording {
  private entries = 0;
  private bytes = 0;
  private full = false;
  /** The sandbox's URL, the entries' origin: known once it listens. */
  base = 'http://127.0.0.1';

  constructor(
    private readonly writer: HarWriter,
    private readonly warn: (line: string) => void,
    private readonly bounds: RecordBounds = defaultRecordBounds,
  ) {}

  record(exchange: ServedExchange): void {
    const { request, answer } = exchange;
    if (request.admin || answer === 'drop' || this.full) return;
    const size = request.body.length + answer.body.length;
    if (this.entries >= this.bounds.maxEntries || this.bytes + size > this.bounds.maxBytes) {
      this.full = true;
      this.warn(
        `sandbox: --record holds ${this.entries} exchanges (its bound: ${this.bounds.maxEntries} exchanges, ` +
          `${this.bounds.maxBytes} bytes); later ones are not recorded (said once)`,
      );
      return;
    }
    this.entries++;
    this.bytes += size;
    const question = request.target.indexOf('?');
    const path = question < 0 ? request.target : request.target.slice(0, question);
    const query = question < 0 ? '' : request.target.slice(question + 1);
    const large = (body: string) => (body.length > maxBodyBytes ? { body: '', bodyTooLarge: maxBodyBytes } : { body });
    this.writer.add(
      {
        method: request.method,
        target: request.target,
        startedAt: exchange.startedAt,
        durationMs: exchange.durationMs,
        request: { method: request.method, path, query, headers: request.headers, ...large(request.body) },
        status: answer.status,
        response: {
          method: request.method,
          path,
          status: answer.status,
          headers: answer.headers,
          ...large(answer.body),
        },
        blocked: false,
      },
      { base: this.base },
    );
  }

  close(): Promise<void> {
    return this.writer.close();
  }
}
