// A service that keeps tests/fixtures/oas32/streams-3.2.yaml: QUERY /items with a JSON filter, COPY /items/{id},
// GET /search with its whole query string as one form, a JSON Lines export and a finite event stream. With
// `badItem`, the JSON Lines export's second line and the second event break the description.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

const items = [
  { id: 1, name: 'one' },
  { id: 2, name: 'two' },
];

const isFilter = (value: unknown): value is { name: string } =>
  value !== null &&
  typeof value === 'object' &&
  !Array.isArray(value) &&
  Object.keys(value).every((key) => key === 'name') &&
  typeof (value as { name?: unknown }).name === 'string' &&
  (value as { name: string }).name.length >= 1 &&
  [...(value as { name: string }).name].length <= 20;

function search(query: URLSearchParams): number | undefined {
  const keys = [...query.keys()];
  if (keys.some((key) => key !== 'q' && key !== 'limit') || new Set(keys).size !== keys.length) return undefined;
  const q = query.get('q');
  if (q === null || q.length === 0 || [...q].length > 20) return undefined;
  const limit = query.get('limit');
  if (limit === null) return 10;
  return /^(?:[1-9]|10)$/.test(limit) ? Number(limit) : undefined;
}

export function oas32StandIn(options: { badItem?: boolean } = {}): http.Server {
  return http.createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', () => {
      const json = (status: number, body?: unknown) =>
        body === undefined
          ? res.writeHead(status).end()
          : res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      const url = new URL(req.url ?? '/', 'http://stand-in');
      const id = /^\/items\/([^/]+)$/.exec(url.pathname)?.[1];
      const item = id === undefined ? undefined : items.find((candidate) => String(candidate.id) === id);
      if (url.pathname === '/items' && req.method === 'GET') return json(200, items);
      if (url.pathname === '/items' && req.method === 'QUERY') {
        let filter: unknown;
        try {
          filter = JSON.parse(raw);
        } catch {
          return json(400);
        }
        if (!isFilter(filter) || !/^application\/json\b/.test(req.headers['content-type'] ?? '')) return json(400);
        return json(
          200,
          items.filter((candidate) => candidate.name.includes(filter.name)),
        );
      }
      if (id !== undefined && req.method === 'GET') return item ? json(200, item) : json(404);
      if (id !== undefined && req.method === 'COPY') return item ? json(201, { ...item, id: 3 }) : json(404);
      if (url.pathname === '/search' && req.method === 'GET') {
        const limit = search(url.searchParams);
        return limit === undefined ? json(400) : json(200, items.slice(0, limit));
      }
      if (url.pathname === '/items.jsonl' && req.method === 'GET') {
        const lines = items.map((line, index) => (options.badItem && index === 1 ? { ...line, id: 0 } : line));
        res.writeHead(200, { 'content-type': 'application/jsonl' });
        return res.end(lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
      }
      if (url.pathname === '/events' && req.method === 'GET') {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        const events = items.map((line, index) =>
          options.badItem && index === 1
            ? `event: created\ndata: {"id":"two","name":"b"}\n\n`
            : `event: created\nid: ${index}\ndata: ${JSON.stringify(line)}\n\n`,
        );
        return res.end(`: a comment\n${events.join('')}`);
      }
      json(404);
    });
  });
}

/** The stand-in listening on a free loopback port, and its base URL. */
export async function startOas32StandIn(options: { badItem?: boolean } = {}) {
  const server = oas32StandIn(options);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}
