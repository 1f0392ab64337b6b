// Reading and parsing a request body for the sandbox. Anything a client sends is hostile: the size is capped
// while reading, and a body is accepted only as UTF-8 JSON (RFC 8259 section 8.1) with unique keys (section 4)
// nested no deeper than any webhook body needs, so nothing stored can later fail to serialize.
import type http from 'node:http';
import { findDuplicateKey } from '../core/json-duplicate-keys.js';
import { validationFailed, type SandboxResponse } from './sandbox-http.js';

/** Webhook bodies nest about four levels; this leaves room and keeps every stored value serializable. */
export const maxBodyDepth = 64;

/**
 * The body's bytes, or undefined when it is over `limit`. On undefined the rest of the body is left unread: the
 * caller answers 413 and closes the connection, since what follows on it is not a request.
 */
export function readBody(incoming: http.IncomingMessage, limit: number): Promise<Buffer | undefined> {
  // Without Content-Length or Transfer-Encoding a request has no body (RFC 9112 section 6.3): most GETs. Node
  // discards the empty stream itself once the response ends, so no listeners are needed.
  const { 'content-length': length, 'transfer-encoding': encoding } = incoming.headers;
  if ((length === undefined || length === '0') && encoding === undefined) return Promise.resolve(noBody);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      incoming.off('data', onData).off('end', onEnd).off('error', reject).off('close', onClose);
      incoming.pause();
      resolve(undefined);
    };
    const onEnd = () => resolve(Buffer.concat(chunks));
    // After 'end' this is a no-op; before it the client went away mid-body and nobody is left to answer.
    const onClose = () => reject(new Error('the client closed the connection before the body ended'));
    incoming.on('data', onData).on('end', onEnd).on('error', reject).once('close', onClose);
  });
}

const noBody = Buffer.alloc(0);

/** The parsed body (undefined when empty), or the 400/422 answer for a body the sandbox will not take. */
export function parseBody(raw: Buffer): { body: unknown } | { refused: SandboxResponse } {
  if (raw.length === 0) return { body: undefined };
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(raw);
  } catch {
    return { refused: { status: 400, body: { message: 'Problems parsing JSON: the body is not valid UTF-8' } } };
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { refused: { status: 400, body: { message: 'Problems parsing JSON' } } };
  }
  const duplicate = findDuplicateKey(text, body);
  if (duplicate) {
    const key = duplicate.key.length > 100 ? `${duplicate.key.slice(0, 100)}…` : duplicate.key;
    return {
      refused: {
        status: 400,
        body: {
          message: `Problems parsing JSON: key ${JSON.stringify(key)} appears twice in ${duplicate.path || 'the top-level object'}`,
        },
      },
    };
  }
  if (depthOver(body, maxBodyDepth)) {
    return {
      refused: validationFailed(`the body nests deeper than ${maxBodyDepth} levels`, [
        { field: '(body)', message: `nested over ${maxBodyDepth} levels` },
      ]),
    };
  }
  return { body };
}

/** Whether `value` nests objects or arrays more than `limit` deep (iterative: the value may nest very deep). */
export function depthOver(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (depth > limit) return true;
    for (const child of Object.values(node))
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return false;
}
