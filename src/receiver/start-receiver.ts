// A webhook receiver: an HTTP server that checks every delivery against the spec's webhooks as it arrives
// (signature, headers, payload) and keeps what it got for a caller to wait on. Everything a sender sends is bounded:
// headers (the server's limit), the body (a larger one is answered 413 and not read), the deliveries kept (the
// oldest go first, by count and by bytes), the time a request may take.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { apis, specPath } from '../apis.js';
import {
  checkDelivery,
  compileDeliveryContract,
  type DeliveryContract,
  type DeliveryExpectation,
  type DeliveryResult,
} from '../core/delivery/index.js';
import { ContractsError } from '../core/errors.js';
import type { Finding } from '../core/finding.js';
import { loadSpec } from '../core/load-spec.js';

export interface StoredDelivery {
  /** 1, 2, 3… in order of arrival (also after older ones were dropped). */
  seq: number;
  receivedAt: string;
  method: string;
  /** The request target: path and query (the runner tells its hooks apart by the query). */
  url: string;
  headers: http.IncomingHttpHeaders;
  /** The body's byte length (the body itself is not kept once checked; `result.payload` holds it parsed). */
  size: number;
  /** The status this receiver answered. */
  status: number;
  result: DeliveryResult;
}

export interface ReceiverOptions {
  port?: number;
  host?: string;
  /** The hooks' secret (null: the hooks have none, so no signature may come); or one per request, by its URL. */
  secret?: string | null | ((request: { url: string }) => string | null | undefined);
  /** More of what a delivery must be, by its URL (its event, the hook's content_type). */
  expect?: (request: { url: string }) => Omit<DeliveryExpectation, 'secret'>;
  /** Answer 400 to a delivery that breaks the contract, so the sender records the failure. */
  rejectInvalid?: boolean;
  /** The spec whose webhooks the deliveries are held to (default: the shipped repository-webhooks spec). */
  contract?: DeliveryContract;
  maxBodyBytes?: number;
  maxHeaderBytes?: number;
  maxStored?: number;
  maxStoredBytes?: number;
  /** Called for each delivery once checked (the `receive` command prints a line). */
  onDelivery?: (delivery: StoredDelivery) => void;
}

export interface Receiver {
  url: string;
  /** The deliveries kept, oldest first. */
  readonly deliveries: readonly StoredDelivery[];
  /** How many older deliveries were let go to stay within the bounds. */
  readonly dropped: number;
  /** The first delivery (kept or still to come) matching `predicate`, or undefined after `ms`. */
  waitFor(predicate: (delivery: StoredDelivery) => boolean, ms: number): Promise<StoredDelivery | undefined>;
  stop(): Promise<void>;
}

export const receiverDefaults = {
  maxBodyBytes: 1024 * 1024,
  maxHeaderBytes: 16 * 1024,
  maxStored: 500,
  maxStoredBytes: 64 * 1024 * 1024,
} as const;

export async function startReceiver(options: ReceiverOptions = {}): Promise<Receiver> {
  const contract = options.contract ?? compileDeliveryContract(await loadSpec(specPath(apis['repository-webhooks'])));
  const maxBody = options.maxBodyBytes ?? receiverDefaults.maxBodyBytes;
  const maxStored = options.maxStored ?? receiverDefaults.maxStored;
  const maxStoredBytes = options.maxStoredBytes ?? receiverDefaults.maxStoredBytes;
  const deliveries: StoredDelivery[] = [];
  const waiters = new Set<() => void>();
  let storedBytes = 0;
  let dropped = 0;
  let seq = 0;

  const store = (delivery: StoredDelivery) => {
    deliveries.push(delivery);
    storedBytes += delivery.size;
    while (deliveries.length > maxStored || (storedBytes > maxStoredBytes && deliveries.length > 1)) {
      storedBytes -= deliveries.shift()!.size;
      dropped++;
    }
    options.onDelivery?.(delivery);
    for (const wake of [...waiters]) wake();
  };

  const server = http.createServer(
    {
      maxHeaderSize: options.maxHeaderBytes ?? receiverDefaults.maxHeaderBytes,
      requestTimeout: 30_000,
      headersTimeout: 15_000,
    },
    (request, response) => {
      const url = request.url ?? '/';
      const secret = typeof options.secret === 'function' ? options.secret({ url }) : options.secret;
      const expectation: DeliveryExpectation = {
        ...options.expect?.({ url }),
        ...(secret === undefined ? {} : { secret }),
      };
      const declared = Number(request.headers['content-length']);
      const answer = (status: number, text: string) => {
        if (response.headersSent) return;
        response.writeHead(status, {
          'content-type': 'text/plain; charset=utf-8',
          ...(status === 413 ? { connection: 'close' } : {}),
        });
        response.end(text);
      };
      const tooLarge = async (size: number) => {
        answer(413, `body over ${maxBody} bytes\n`);
        request.resume();
        const result = await checkDelivery(
          contract,
          { method: request.method ?? '', headers: request.headers, body: new Uint8Array() },
          { ...expectation, secret: undefined },
        );
        const payloadFinding: Finding = {
          check: 'delivery_payload_schema',
          severity: 'error',
          operation: result.operation,
          instancePath: '',
          message: `the body is over the receiver's ${maxBody}-byte limit and was not read`,
        };
        result.findings = [
          ...result.findings.filter((finding) => finding.check !== 'delivery_payload_schema'),
          payloadFinding,
        ];
        store({
          seq: ++seq,
          receivedAt: new Date().toISOString(),
          method: request.method ?? '',
          url,
          headers: request.headers,
          size,
          status: 413,
          result,
        });
      };
      if (Number.isFinite(declared) && declared > maxBody) {
        void tooLarge(declared);
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      let over = false;
      request.on('data', (chunk: Buffer) => {
        if (over) return;
        size += chunk.length;
        if (size > maxBody) {
          over = true;
          chunks.length = 0;
          void tooLarge(size);
          return;
        }
        chunks.push(chunk);
      });
      request.on('error', () => undefined);
      request.on('end', () => {
        if (over) return;
        const body = Buffer.concat(chunks);
        void checkDelivery(
          contract,
          { method: request.method ?? '', headers: request.headers, body },
          expectation,
        ).then(
          (result) => {
            const status =
              options.rejectInvalid && result.findings.some((finding) => finding.severity === 'error') ? 400 : 200;
            answer(status, status === 200 ? 'ok\n' : 'the delivery breaks the contract\n');
            store({
              seq: ++seq,
              receivedAt: new Date().toISOString(),
              method: request.method ?? '',
              url,
              headers: request.headers,
              size: body.length,
              status,
              result,
            });
          },
          () => answer(500, 'internal error\n'),
        );
      });
    },
  );
  server.maxConnections = 64;
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'EADDRINUSE'
          ? new ContractsError(
              'PORT_IN_USE',
              `port ${options.port ?? 0} on ${host} is in use: give another with --port (0 picks a free one)`,
            )
          : new ContractsError(
              'USAGE',
              `cannot listen on ${host}:${options.port ?? 0}: ${error.code ?? error.message}`,
            ),
      );
    });
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const shownHost = host.includes(':') ? `[${host}]` : host;

  return {
    url: `http://${shownHost}:${port}`,
    get deliveries() {
      return deliveries;
    },
    get dropped() {
      return dropped;
    },
    waitFor(predicate, ms) {
      const found = deliveries.find(predicate);
      if (found) return Promise.resolve(found);
      return new Promise((resolve) => {
        const wake = () => {
          const match = deliveries.find(predicate);
          if (match) finish(match);
        };
        const finish = (value: StoredDelivery | undefined) => {
          clearTimeout(timer);
          waiters.delete(wake);
          resolve(value);
        };
        const timer = setTimeout(() => finish(undefined), ms);
        waiters.add(wake);
      });
    },
    stop: () =>
      new Promise<void>((resolve) => {
        for (const wake of [...waiters]) wake();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
