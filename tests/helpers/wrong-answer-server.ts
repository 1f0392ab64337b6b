// The sandbox behind a proxy that answers one kind of step wrongly and every other request as the sandbox does: the
// target a fuzzer's state model must survive (one finding per wrong answer, none on the correct answers after it).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startSandbox } from '../../src/plugins/example-sandbox.js';

export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Changes the sandbox's answer to one request; `undefined` leaves it as it is. */
export type Rewrite = (request: { method: string; path: string }, answer: Answer) => Answer | undefined;

export const wrongAnswers = {
  /** DELETE of a hook deletes it but answers 200 with the hook, where the spec says 204 and no body. */
  'delete answers 200': (request, answer) =>
    request.method === 'DELETE' && /^\/repos\/[^/]+\/[^/]+\/hooks\/\d+$/.test(request.path) && answer.status === 204
      ? { status: 200, headers: { 'content-type': 'application/json' }, body: '{"message":"deleted"}' }
      : undefined,
  /** A create makes the hook but answers 201 without its id. */
  'create answers without the id': (request, answer) => {
    if (request.method !== 'POST' || !/^\/repos\/[^/]+\/[^/]+\/hooks$/.test(request.path) || answer.status !== 201)
      return undefined;
    const { id: _id, ...rest } = JSON.parse(answer.body) as Record<string, unknown>;
    return { ...answer, body: JSON.stringify(rest) };
  },
} satisfies Record<string, Rewrite>;

export interface WrongAnswerServer {
  url: string;
  close(): Promise<void>;
}

export async function startWrongAnswerServer(rewrite: Rewrite): Promise<WrongAnswerServer> {
  const sandbox = await startSandbox({ port: 0, host: '127.0.0.1' });
  const server = http.createServer(async (incoming, outgoing) => {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const method = incoming.method ?? 'GET';
    const url = new URL(incoming.url ?? '/', 'http://target.invalid');
    const headers = Object.fromEntries(
      Object.entries(incoming.headers)
        .filter(([name]) => !['host', 'content-length', 'connection'].includes(name))
        .map(([name, value]) => [name, String(value)]),
    );
    const response = await fetch(sandbox.url + url.pathname + url.search, {
      method,
      headers,
      redirect: 'manual',
      ...(chunks.length > 0 && method !== 'GET' ? { body: Buffer.concat(chunks) } : {}),
    });
    const answer: Answer = { status: response.status, headers: {}, body: await response.text() };
    response.headers.forEach((value, name) => {
      if (!['content-length', 'connection', 'keep-alive', 'transfer-encoding'].includes(name))
        answer.headers[name] = value;
    });
    const sent = rewrite({ method, path: url.pathname }, answer) ?? answer;
    outgoing.writeHead(sent.status, sent.headers);
    outgoing.end(sent.body === '' ? undefined : sent.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await sandbox.stop();
    },
  };
}
