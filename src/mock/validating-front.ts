// The mock's front door: an HTTP server that relays each request to Prism (whose request validation still refuses
// what breaks the spec) and each answer back, after the spec's own checks judged it (valid-answer.ts). An answer the
// spec refuses is mended or, failing that, replaced by the mock's own 500 that says so.
import http from 'node:http';
import type { Contract } from '../core/compile-contract.js';
import { parseJson } from '../core/parse-json.js';
import { listen } from '../http/listen.js';
import { answerFails, validAnswer, type MockAnswer } from './valid-answer.js';

export interface FrontOptions {
  contract: Contract;
  /** Prism's own address (loopback). */
  prism: { host: string; port: number };
  host: string;
  port: number;
  /** Said when the port is taken. */
  inUse: string;
}

export interface Front {
  port: number;
  stop(): Promise<void>;
}

/** Largest request or answer body relayed: a mock of a spec has no business past it. */
export const maxRelayedBytes = 32 * 2 ** 20;

/** Hop-by-hop headers (RFC 9110 section 7.6.1) and the framing the relay sets itself. */
const notRelayed = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te']);

export async function startFront(options: FrontOptions): Promise<Front> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const server = http.createServer((request, response) => {
    relay(options, agent, request, response).catch((error: unknown) => {
      if (response.headersSent) response.destroy();
      else plain(response, 502, `contracts mock: Prism did not answer: ${(error as Error).message}`);
    });
  });
  await listen(server, options.host, options.port, options.inUse);
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  return {
    port,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        agent.destroy();
      }),
  };
}

async function relay(
  options: FrontOptions,
  agent: http.Agent,
  request: http.IncomingMessage,
  response: http.ServerResponse,
): Promise<void> {
  const body = await readAll(request);
  if (body === undefined) return plain(response, 413, 'contracts mock: request body over 32 MB');
  const headers: string[] = [];
  for (let index = 0; index < request.rawHeaders.length; index += 2) {
    const name = request.rawHeaders[index]!;
    if (notRelayed.has(name.toLowerCase()) || name.toLowerCase() === 'content-length') continue;
    headers.push(name, request.rawHeaders[index + 1]!);
  }
  if (body.length > 0 || request.headers['content-length'] !== undefined)
    headers.push('content-length', String(body.length));
  const ask = (extra: string[]) => askPrism(options, agent, request, [...headers, ...extra], body);
  const { answer, answerBody } = await ask([]);
  if (answerBody === undefined) return plain(response, 502, 'contracts mock: Prism answered with over 32 MB');
  const status = answer.statusCode ?? 500;
  const exchange = {
    method: request.method ?? 'GET',
    path: new URL(request.url ?? '/', 'http://mock').pathname,
    status,
    headers: answer.headers as Record<string, string | undefined>,
    body: answerBody.toString('utf8'),
  };
  let judged: MockAnswer = { kind: 'as-is' };
  if (answerFails(options.contract, exchange)) {
    // Prism's dynamic mode (json-schema-faker) knows formats our generator may not: its bodies are proposals too,
    // judged like any other. Asked only for an answer that failed, so a valid spec costs nothing here.
    const candidates: unknown[] = [];
    for (let round = 0; round < dynamicProposals; round++) {
      const dynamic = await ask(['prefer', 'dynamic=true']);
      if (dynamic.answer.statusCode === status && dynamic.answerBody !== undefined)
        candidates.push(parseJson(dynamic.answerBody.toString('utf8')));
    }
    judged = validAnswer(options.contract, exchange, candidates);
  }
  const kept: string[] = [];
  const replaced = judged.kind === 'as-is' ? {} : judged.headers;
  for (let index = 0; index < answer.rawHeaders.length; index += 2) {
    const name = answer.rawHeaders[index]!.toLowerCase();
    if (notRelayed.has(name) || name === 'content-length' || Object.hasOwn(replaced, name)) continue;
    // Prism's own verdict on the answer it made (sl-violations) and its type are not about the one served.
    if (judged.kind !== 'as-is' && (name === 'content-type' || name === 'sl-violations')) continue;
    kept.push(answer.rawHeaders[index]!, answer.rawHeaders[index + 1]!);
  }
  const out = judged.kind === 'as-is' ? answerBody : Buffer.from(judged.body, 'utf8');
  for (const [name, value] of Object.entries(replaced)) kept.push(name, value);
  kept.push('content-length', String(out.length));
  response.writeHead(judged.kind === 'unable' ? judged.status : status, kept);
  response.end(request.method === 'HEAD' ? undefined : out);
}

/** Prism's dynamic answers asked for, per answer that failed, as proposals. */
const dynamicProposals = 3;

async function askPrism(
  options: FrontOptions,
  agent: http.Agent,
  request: http.IncomingMessage,
  headers: string[],
  body: Buffer,
): Promise<{ answer: http.IncomingMessage; answerBody: Buffer | undefined }> {
  const answer = await new Promise<http.IncomingMessage>((resolve, reject) => {
    const outgoing = http.request(
      { ...options.prism, method: request.method, path: request.url, headers, agent },
      resolve,
    );
    outgoing.once('error', reject);
    outgoing.end(body);
  });
  return { answer, answerBody: await readAll(answer) };
}

/** The whole body, or undefined past maxRelayedBytes. */
async function readAll(stream: http.IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > maxRelayedBytes) {
      stream.destroy();
      return undefined;
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function plain(response: http.ServerResponse, status: number, text: string): void {
  response.writeHead(status, {
    'content-type': 'text/plain; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  response.end(text);
}
