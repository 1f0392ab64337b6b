// Writes the proxied traffic as a HAR 1.2 capture (http://www.softwareishard.com/blog/har-12-spec/), one entry at a
// time as exchanges end, so memory does not grow with the session. Credentials are redacted by the one rule of
// redact-fields.ts (headers, the URL's query and `queryString`, JSON and form body fields, by name and by what the
// spec marks; a credential header keeps its shape: `Bearer [REDACTED]`, `name=[REDACTED]`), then every known secret
// wherever it appears.
import { open, type FileHandle } from 'node:fs/promises';
import { CredentialFields, redacted } from '../reports/redact-fields.js';
import type { ProxiedExchange } from '../proxy/start-proxy.js';

/** What an entry is made of: a proxied exchange, or one a fuzz run sent (fuzz's harExchange). */
export type HarExchange = Pick<
  ProxiedExchange,
  'method' | 'target' | 'startedAt' | 'durationMs' | 'request' | 'status' | 'response' | 'blocked' | 'upstreamError'
>;

export interface HarEntryExtra {
  /** The origin (and base path) the exchange went to, when the capture has more than one target. */
  base?: string;
  /** Fields of the tool's own, written as the entry's `_contracts` (HAR 1.2 allows custom fields starting with _). */
  contracts?: Record<string, unknown>;
}

/** Headers whose value is a URL: its query is redacted like the request's. */
const urlHeaders = /^(?:location|content-location|referer)$/i;

export class HarWriter {
  private entries = 0;
  private writing: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly file: FileHandle,
    private readonly targetBase: string,
    private readonly redact: (text: string) => string,
    private fields: CredentialFields,
    /**
     * The requests are the writer's own (a fuzz run's): the only secrets in their bodies are those `redact` knows by
     * value, so each body is kept as sent, and a negative case's wrong-typed `secret` is read back wrong-typed.
     */
    private readonly ownRequests = false,
  ) {}

  /** Also redacts what another spec marks as credentials, in the entries written from now on. */
  addSpec(document: unknown): void {
    this.fields = this.fields.with(CredentialFields.fromSpec(document));
  }

  /**
   * `spec`: the OpenAPI documents of the APIs in the capture (their apiKey schemes, writeOnly and password fields).
   * `creator`: the command writing it.
   */
  static async create(
    path: string,
    targetBase: string,
    redact: (text: string) => string,
    spec?: unknown,
    creator = 'contracts proxy',
    ownRequests = false,
  ): Promise<HarWriter> {
    const file = await open(path, 'w');
    await file.write(
      `{"log":{"version":"1.2","creator":{"name":${JSON.stringify(creator)},"version":"1"},"entries":[\n`,
    );
    const specs = Array.isArray(spec) ? spec : [spec];
    const fields = specs.reduce<CredentialFields>(
      (all, document) => all.with(CredentialFields.fromSpec(document)),
      new CredentialFields(),
    );
    return new HarWriter(file, targetBase.replace(/\/+$/, ''), redact, fields, ownRequests);
  }

  add(exchange: HarExchange, extra: HarEntryExtra = {}): void {
    const entry = this.entry(exchange, extra.base?.replace(/\/+$/, '') ?? this.targetBase);
    const text =
      (this.entries++ > 0 ? ',\n' : '') +
      this.redact(JSON.stringify(extra.contracts ? { ...entry, _contracts: extra.contracts } : entry));
    this.writing = this.writing.then(() => this.file.write(text));
  }

  async close(): Promise<void> {
    await this.writing;
    await this.file.write('\n]}}\n');
    await this.file.close();
  }

  private entry(exchange: HarExchange, targetBase: string) {
    const { request, response } = exchange;
    const { fields } = this;
    const headers = (record: Record<string, string | undefined>) =>
      Object.entries(record).flatMap(([name, value]) =>
        value === undefined
          ? []
          : [
              {
                name,
                value: fields.isCredentialHeader(name)
                  ? fields.header(name, value)
                  : urlHeaders.test(name)
                    ? fields.url(value)
                    : value,
              },
            ],
      );
    const body = (record: { body: string; bodyTooLarge?: number; headers: Record<string, string | undefined> }) =>
      record.bodyTooLarge !== undefined
        ? { comment: `over ${record.bodyTooLarge} bytes: not recorded` }
        : { text: fields.body(record.body, record.headers['content-type']) };
    return {
      startedDateTime: exchange.startedAt.toISOString(),
      time: Math.round(exchange.durationMs),
      request: {
        method: exchange.method,
        url: targetBase + fields.url(exchange.target),
        httpVersion: 'HTTP/1.1',
        headers: headers(request.headers),
        queryString: [...new URLSearchParams(request.query)].map(([name, value]) => ({
          name,
          value: fields.isCredential(name) ? redacted : value,
        })),
        cookies: [],
        headersSize: -1,
        bodySize: -1,
        ...(request.body !== '' || request.bodyTooLarge !== undefined
          ? {
              postData: {
                mimeType: request.headers['content-type'] ?? '',
                ...(this.ownRequests && request.bodyTooLarge === undefined ? { text: request.body } : body(request)),
              },
            }
          : {}),
      },
      response: {
        status: exchange.status,
        statusText: '',
        httpVersion: 'HTTP/1.1',
        headers: response ? headers(response.headers) : [{ name: 'content-type', value: 'application/json' }],
        cookies: [],
        // The body as checked: Content-Encoding already undone.
        content: {
          size: -1,
          mimeType: response?.headers['content-type'] ?? 'application/json',
          ...(response
            ? body(response)
            : {
                text: exchange.blocked
                  ? '(answered by the proxy: the request breaks the contract)'
                  : `(answered by the proxy: ${exchange.upstreamError ?? 'bad gateway'})`,
              }),
        },
        redirectURL: fields.url(response?.headers.location ?? ''),
        headersSize: -1,
        bodySize: -1,
        ...(exchange.blocked || exchange.upstreamError
          ? {
              comment: exchange.blocked ? 'blocked by contracts proxy --errors' : `upstream: ${exchange.upstreamError}`,
            }
          : {}),
      },
      cache: {},
      timings: { send: 0, wait: Math.round(exchange.durationMs), receive: 0 },
    };
  }
}
