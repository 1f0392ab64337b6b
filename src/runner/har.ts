// Reads a HAR capture (http://www.softwareishard.com/blog/har-12-spec/) into exchanges a contract can check.
import { ContractsError } from '../core/errors.js';
import type { Exchange } from '../core/exchange.js';

export interface HarExchange extends Exchange {
  /** 1-based position in the capture, for messages. */
  index: number;
  url: string;
}

interface HarEntry {
  request?: { method?: unknown; url?: unknown };
  response?: { status?: unknown; headers?: { name?: unknown; value?: unknown }[]; content?: { text?: unknown; encoding?: unknown } };
}

export function parseHar(text: string, file: string): HarExchange[] {
  let har: { log?: { entries?: unknown } };
  try {
    har = JSON.parse(text) as typeof har;
  } catch (error) {
    throw new ContractsError('INPUT_NOT_READABLE', `${file} is not a HAR file: not JSON (${(error as Error).message})`);
  }
  const entries = har?.log?.entries;
  if (!Array.isArray(entries)) throw new ContractsError('INPUT_NOT_READABLE', `${file} is not a HAR file: no log.entries array`);
  return entries.map((raw, position) => toExchange(raw as HarEntry, position + 1, file));
}

function toExchange(entry: HarEntry, index: number, file: string): HarExchange {
  const method = entry.request?.method;
  const url = entry.request?.url;
  const status = entry.response?.status;
  if (typeof method !== 'string' || typeof url !== 'string' || typeof status !== 'number') {
    throw new ContractsError('INPUT_NOT_READABLE', `${file}: entry ${index} lacks request.method, request.url or response.status`);
  }
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    throw new ContractsError('INPUT_NOT_READABLE', `${file}: entry ${index} has an invalid request.url`);
  }
  const headers: Record<string, string> = {};
  for (const header of entry.response?.headers ?? []) {
    if (typeof header.name === 'string' && typeof header.value === 'string') headers[header.name.toLowerCase()] = header.value;
  }
  const content = entry.response?.content;
  const rawText = typeof content?.text === 'string' ? content.text : '';
  const body = content?.encoding === 'base64' ? Buffer.from(rawText, 'base64').toString('utf8') : rawText;
  return { index, method, url, path, status, headers, body };
}
