// A webhook receiver: an HTTP server that checks every delivery against the spec's webhooks as it arrives
// (signature, headers, payload) and keeps what it got for a caller to wait on. Everything a sender sends is bounded:
// headers (the server's limit), the body (a larger one is answered 413 and not read), the deliveries kept (the
// oldest go first, by count and by the memory they hold: the parsed payload, headers and findings, estimated), the
// time a request may take, and the connections (the longest idle is closed to make room for a new one).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkDelivery, type DeliveryContract, type DeliveryExpectation } from '../core/delivery/index.js';
import type { Finding } from '../core/finding.js';
import { headDeadline } from '../http/head-deadline.js';
import { listen } from '../http/listen.js';
import { DeliveryStore, type StoredDelivery } from './delivery-store.js';
import { capConnections } from './idle-connections.js';
import { seedDeliveryContract } from './seed-contract.js';

export type { StoredDelivery } from './delivery-store.js';

export interface ReceiverOptions {
  port?: number;
  host?: string;
  /** The hooks' secret (null: the hooks have none, so no signature may come); or one per request, by its URL. */
  secret?: string | null | ((request: { url: string }) => string | null | undefined);
  /** Without `secret`: each signature scheme's secret by the variable the config names (DeliveryExpectation). */
  secrets?: Readonly<Record<string, string>>;
  /** More of what a delivery must be, by its URL (its event, the hook's content_type). */
  expect?: (request: { url: string }) => Omit<DeliveryExpectation, 'secret'>;
  /** Answer 400 to a delivery that breaks the contract, so the sender records the failure. */
  rejectInvalid?: boolean;
  /**
   * The spec's webhooks and the API's convention the deliveries are held to. By default, those of the API the
   * package's own config gives a `webhooks:` block (seed-contract.ts); `contracts receive` passes the chosen API's.
   */
  contract?: DeliveryContract;
  maxBodyBytes?: number;
  maxHeaderBytes?: number;
  maxStored?: number;
  /** Bounds the memory the deliveries kept hold (their `keptBytes`), not only the bytes that arrived. */
  maxStoredBytes?: number;
  /** Keep each payload parsed in `result.payload` (default true); `receive` needs only the verdicts. */
  keepPayloads?: boolean;
  /** Open connections at most; past it, the longest idle one is closed for a new one. */
  maxConnections?: number;
  /** How long a request's head may take from its first byte (default 15 s); then 408, and closed. */
  headTimeoutMs?: number;
  /** Called for each delivery once checked (the `receive` command prints a line). */
  onDelivery?: (delivery: StoredDelivery) => void;
}

export interface Receiver {
  url: string;
  /** The deliveries kept, oldest first. */
  readonly deliveries: readonly StoredDelivery[];
  /** How many older deliveries were let go to stay within the bounds. */
  readonly dropped: number;
  /** The memory the deliveries kept hold, estimated from above (the sum of their `keptBytes`). */
  readonly storedBytes: number;
  /** The first delivery (kept or still to come) matching `predicate`, or undefined after `ms`. */
  waitFor(predicate: (delivery: StoredDelivery) => boolean, ms: number): Promise<StoredDelivery | undefined>;
  stop(): Promise<void>;
}

export const receiverDefaults = {
  maxBodyBytes: 1024 * 1024,
  maxHeaderBytes: 16 * 1024,
  maxStored: 500,
  maxStoredBytes: 64 * 1024 * 1024,
  maxConnections: 64,
  headTimeoutMs: 15_000,
} as const;

export async function startReceiver(options: ReceiverOptions = {}): Promise<Receiver> {
  const contract = options.contract ?? (await seedDeliveryContract());
  const maxBody = options.maxBodyBytes ?? receiverDefaults.maxBodyBytes;
  const store = new DeliveryStore(
    {
      maxStored: options.maxStored ?? receiverDefaults.maxStored,
      maxStoredBytes: options.maxStoredBytes ?? receiverDefaults.maxStoredBytes,
      keepPayloads: options.keepPayloads !== false,
    },
    options.onDelivery,
  );

  const server = http.createServer(
    {
      maxHeaderSize: options.maxHeaderBytes ?? receiverDefaults.maxHeaderBytes,
      ...headDeadline(options.headTimeoutMs ?? receiverDefaults.headTimeoutMs, 30_000),
    },
    (request, response) => receive(request, response, { options, contract, maxBody, store }),
  );
  capConnections(server, options.maxConnections ?? receiverDefaults.maxConnections);
  const host = options.host ?? '127.0.0.1';
  const requested = options.port ?? 0;
  await listen(
    server,
    host,
    requested,
    `port ${requested} on ${host} is in use: give another with --port (0 picks a free one)`,
  );
  const { port } = server.address() as AddressInfo;
  const shownHost = host.includes(':') ? `[${host}]` : host;

  return {
    url: `http://${shownHost}:${port}`,
    get deliveries() {
      return store.deliveries;
    },
    get dropped() {
      return store.dropped;
    },
    get storedBytes() {
      return store.storedBytes;
    },
    waitFor: (predicate, ms) => store.waitFor(predicate, ms),
    stop: () =>
      new Promise<void>((resolve) => {
        store.wakeAll();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** One delivery: read within the bound (413 past it), checked, answered, and kept in the store. */
function receive(
  request: http.IncomingMessage,
  response: http.ServerResponse,
  {
    options,
    contract,
    maxBody,
    store,
  }: { options: ReceiverOptions; contract: DeliveryContract; maxBody: number; store: DeliveryStore },
): void {
  const url = request.url ?? '/';
  const secret = typeof options.secret === 'function' ? options.secret({ url }) : options.secret;
  const expectation: DeliveryExpectation = {
    ...options.expect?.({ url }),
    ...(secret === undefined ? {} : { secret }),
    ...(options.secrets === undefined ? {} : { secrets: options.secrets }),
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
      { ...expectation, secret: undefined, secrets: undefined },
    );
    result.findings = [
      ...result.findings.filter((finding) => finding.check !== 'delivery_payload_schema'),
      tooLargeFinding(result.operation, maxBody),
    ];
    store.add({
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
    void checkDelivery(contract, { method: request.method ?? '', headers: request.headers, body }, expectation).then(
      (result) => {
        const status =
          options.rejectInvalid && result.findings.some((finding) => finding.severity === 'error') ? 400 : 200;
        answer(status, status === 200 ? 'ok\n' : 'the delivery breaks the contract\n');
        store.add({
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
}

function tooLargeFinding(operation: string, maxBody: number): Finding {
  return {
    check: 'delivery_payload_schema',
    severity: 'error',
    operation,
    instancePath: '',
    message: `the body is over the receiver's ${maxBody}-byte limit and was not read`,
  };
}
