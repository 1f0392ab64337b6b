// The engine as an HTTP server: one spec, stateless, started in the time it takes to load the spec (validators
// are compiled per operation when a request first needs them, compile-contract.ts's lazy options), so a 7 MB spec
// Prism needs minutes to dereference answers within seconds.
import http from 'node:http';
import { splitTarget } from '../../core/check-request.js';
import { compileContract } from '../../core/compile-contract.js';
import { decodeBody } from '../../core/exchange.js';
import type { LoadedSpec } from '../../core/load-spec.js';
import { flatHeaders } from '../../http/flat-headers.js';
import { listen } from '../../http/listen.js';
import { maxRelayedBytes } from '../validating-front.js';
import { answerRequest, type Engine } from './answer-request.js';
import { basePaths } from './route.js';
import { problem, unable, type EngineAnswer } from './engine-answer.js';

export interface EngineOptions {
  spec: LoadedSpec;
  host: string;
  port: number;
  /** Said when the port is taken. */
  inUse: string;
}

export interface RunningEngine {
  port: number;
  stop(): Promise<void>;
}

export async function startEngine(options: EngineOptions): Promise<RunningEngine> {
  const engine: Engine = {
    contract: compileContract(options.spec, { lazy: true, lazyRequests: true }),
    bases: basePaths(options.spec.document),
    answers: new Map(),
  };
  const server = http.createServer((request, response) => {
    serve(engine, request)
      .then((answer) => send(response, request.method === 'HEAD', answer))
      .catch((error: unknown) => send(response, false, unable(`internal error: ${(error as Error).message}`)));
  });
  server.keepAliveTimeout = 4000;
  await listen(server, options.host, options.port, options.inUse);
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : options.port,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function serve(engine: Engine, request: http.IncomingMessage): Promise<EngineAnswer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > maxRelayedBytes) return problem(413, 'Content Too Large', 'request body over 32 MB');
    chunks.push(chunk as Buffer);
  }
  const { text, notUtf8 } = decodeBody(Buffer.concat(chunks));
  const { path, query } = splitTarget(request.url ?? '/');
  const headers = flatHeaders(request.headers);
  return answerRequest(engine, {
    method: request.method ?? 'GET',
    path,
    query,
    headers,
    body: text,
    ...(notUtf8 ? { bodyNotUtf8: true } : {}),
  });
}

function send(response: http.ServerResponse, head: boolean, answer: EngineAnswer): void {
  if (response.headersSent) {
    response.destroy();
    return;
  }
  const body = Buffer.from(answer.body, 'utf8');
  response.writeHead(answer.status, { ...answer.headers, 'content-length': String(body.length) });
  response.end(head ? undefined : body);
}
