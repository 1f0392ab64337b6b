// Writes the proxied traffic as a HAR 1.2 capture (http://www.softwareishard.com/blog/har-12-spec/), one entry at a
// time as exchanges end, so memory does not grow with the session. Credentials are redacted: credential headers by
// name, and every known secret and credential-named query value wherever it appears.
import { open, type FileHandle } from 'node:fs/promises';
import { redacted } from '../runner/redact.js';
import type { ProxiedExchange } from './start-proxy.js';

const credentialHeaders = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key']);

export class HarWriter {
  private entries = 0;
  private writing: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly file: FileHandle,
    private readonly targetBase: string,
    private readonly redact: (text: string) => string,
    private readonly secretHeaders: Set<string>,
  ) {}

  /** `secretHeaders`: more header names whose values are credentials (the spec's apiKey schemes). */
  static async create(
    path: string,
    targetBase: string,
    redact: (text: string) => string,
    secretHeaders: readonly string[] = [],
  ): Promise<HarWriter> {
    const file = await open(path, 'w');
    await file.write('{"log":{"version":"1.2","creator":{"name":"contracts proxy","version":"1"},"entries":[\n');
    return new HarWriter(
      file,
      targetBase.replace(/\/+$/, ''),
      redact,
      new Set([...credentialHeaders, ...secretHeaders.map((name) => name.toLowerCase())]),
    );
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
    const headers = (record: Record<string, string | undefined>) =>
      Object.entries(record).flatMap(([name, value]) =>
        value === undefined ? [] : [{ name, value: this.secretHeaders.has(name.toLowerCase()) ? redacted : value }],
      );
    const body = (record: { body: string; bodyTooLarge?: number }) =>
      record.bodyTooLarge !== undefined
        ? { comment: `over ${record.bodyTooLarge} bytes: not recorded` }
        : { text: record.body };
    return {
      startedDateTime: exchange.startedAt.toISOString(),
      time: Math.round(exchange.durationMs),
      request: {
        method: exchange.method,
        url: this.targetBase + exchange.target,
        httpVersion: 'HTTP/1.1',
        headers: headers(request.headers),
        queryString: [...new URLSearchParams(request.query)].map(([name, value]) => ({ name, value })),
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
        redirectURL: response?.headers.location ?? '',
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
