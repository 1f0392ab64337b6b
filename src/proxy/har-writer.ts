// Writes the proxied traffic as a HAR 1.2 capture (http://www.softwareishard.com/blog/har-12-spec/), one entry at a
// time as exchanges end, so memory does not grow with the session. Credentials are redacted by the one rule of
// redact-fields.ts (headers, the URL's query and `queryString`, JSON and form body fields, by name and by what the
// spec marks), then every known secret wherever it appears.
import { open, type FileHandle } from 'node:fs/promises';
import { CredentialFields, redacted } from '../runner/redact-fields.js';
import type { ProxiedExchange } from './start-proxy.js';

/** Headers whose value is a URL: its query is redacted like the request's. */
const urlHeaders = /^(?:location|content-location|referer)$/i;

export class HarWriter {
  private entries = 0;
  private writing: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly file: FileHandle,
    private readonly targetBase: string,
    private readonly redact: (text: string) => string,
    private readonly fields: CredentialFields,
  ) {}

  /** `spec`: the OpenAPI document of the API behind the proxy (its apiKey schemes, writeOnly and password fields). */
  static async create(
    path: string,
    targetBase: string,
    redact: (text: string) => string,
    spec?: unknown,
  ): Promise<HarWriter> {
    const file = await open(path, 'w');
    await file.write('{"log":{"version":"1.2","creator":{"name":"contracts proxy","version":"1"},"entries":[\n');
    return new HarWriter(file, targetBase.replace(/\/+$/, ''), redact, CredentialFields.fromSpec(spec));
  }

  add(exchange: ProxiedExchange): void {
    const text = (this.entries++ > 0 ? ',\n' : '') + this.redact(JSON.stringify(this.entry(exchange)));
    this.writing = this.writing.then(() => this.file.write(text));
  }

  async close(): Promise<void> {
    await this.writing;
    await this.file.write('\n]}}\n');
    await this.file.close();
  }

  private entry(exchange: ProxiedExchange) {
    const { request, response } = exchange;
    const { fields } = this;
    const headers = (record: Record<string, string | undefined>) =>
      Object.entries(record).flatMap(([name, value]) =>
        value === undefined
          ? []
          : [
              {
                name,
                value: fields.isCredentialHeader(name) ? redacted : urlHeaders.test(name) ? fields.url(value) : value,
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
        url: this.targetBase + fields.url(exchange.target),
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
          ? { postData: { mimeType: request.headers['content-type'] ?? '', ...body(request) } }
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
