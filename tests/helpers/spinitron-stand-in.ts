// A stand-in for Spinitron's v2 API as its public Swagger 2.0 description says it (tests/fixtures/swagger2-public/):
// under basePath /v2/api, the Bearer apiKey in the Authorization header, csv arrays in the query (collectionFormat's
// default), a formData POST. What the description refuses it refuses: a 400 with an Error for a bad query, 404 for
// an unknown id, 422 with ValidationErrors for a bad form. Formats are judged by ajv-formats, as our checks judge.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fullFormats } from 'ajv-formats/dist/formats.js';

const dateTime = (text: string) =>
  (fullFormats['date-time'] as { validate: (value: string) => boolean }).validate(text);
const int = (text: string | null, min = Number.NEGATIVE_INFINITY) =>
  text === null || (/^-?\d+$/.test(text) && Math.abs(Number(text)) < 2 ** 53 && Number(text) >= min);
const known: Record<string, string[]> = {
  personas: ['name', 'count', 'page', 'fields', 'expand'],
  playlists: ['start', 'end', 'show_id', 'count', 'page', 'fields', 'expand'],
  shows: ['start', 'end', 'count', 'page', 'fields', 'expand'],
  spins: ['start', 'end', 'playlist_id', 'show_id', 'count', 'page', 'fields', 'expand'],
};
const records: Record<string, object> = {
  personas: { id: 1, name: 'DJ One', since: '2001' },
  playlists: { id: 1, title: 'Morning', start: '2026-01-01T08:00:00Z', duration: 3600 },
  shows: { id: 1, title: 'Morning', one_off: false },
  spins: { id: 1, artist: 'A', song: 'S', playlist_id: 1 },
};

function queryOk(collection: string, query: URLSearchParams): boolean {
  for (const [name, value] of query) {
    if (!known[collection]!.includes(name)) continue;
    if ((name === 'start' || name === 'end') && !dateTime(value)) return false;
    if ((name === 'count' || name === 'page') && !int(value, 1)) return false;
    if (name.endsWith('_id') && !int(value)) return false;
  }
  return true;
}

function spinProblems(form: URLSearchParams): { field: string; message: string }[] {
  const problems: { field: string; message: string }[] = [];
  for (const field of ['artist', 'song']) if (form.get(field) === null) problems.push({ field, message: 'required' });
  const live = form.get('live');
  if (live !== null && live !== 'true' && live !== 'false') problems.push({ field: 'live', message: 'boolean' });
  const start = form.get('start');
  if (start !== null && !dateTime(start)) problems.push({ field: 'start', message: 'date-time' });
  if (!int(form.get('duration'))) problems.push({ field: 'duration', message: 'integer' });
  return problems;
}

/** One page of a collection, as `count` and `page` ask (defaults 20 and 1). */
function page(items: object[], query: URLSearchParams): object {
  const perPage = Number(query.get('count') ?? 20);
  const current = Number(query.get('page') ?? 1);
  const pageCount = Math.max(1, Math.ceil(items.length / perPage));
  const slice = items.slice((current - 1) * perPage, current * perPage);
  return { items: slice, _meta: { currentPage: current, pageCount, perPage, totalCount: items.length } };
}

export function spinitronStandIn(): http.Server {
  const stored: Record<string, Map<string, object>> = Object.fromEntries(
    Object.entries(records).map(([name, record]) => [name, new Map([['1', record]])]),
  );
  let next = 2;
  return http.createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', () => {
      const send = (status: number, body: unknown) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      const url = new URL(req.url ?? '/', 'http://stand-in');
      const route = /^\/v2\/api\/(personas|playlists|shows|spins)(?:\/([^/]*))?(\/.*)?$/.exec(url.pathname);
      const [, collection, id, more] = route ?? [];
      if (collection === undefined || more !== undefined) return send(404, { status: 404, message: 'no route' });
      // securityDefinitions.Bearer: every operation requires the Authorization header.
      if (!req.headers.authorization) return send(401, { status: 401, message: 'no credentials' });
      const items = stored[collection]!;
      if (req.method === 'POST' && collection === 'spins' && id === undefined) {
        const form = new URLSearchParams(raw);
        const problems = spinProblems(form);
        if (problems.length > 0) return send(422, problems);
        const spin = { id: next++, artist: form.get('artist'), song: form.get('song') };
        items.set(String(spin.id), spin);
        return send(201, spin);
      }
      if (req.method !== 'GET') return send(404, { status: 404, message: 'no route' });
      if (id === undefined)
        return queryOk(collection, url.searchParams)
          ? send(200, page([...items.values()], url.searchParams))
          : send(collection === 'shows' ? 422 : 400, { status: 400, message: 'bad query' });
      if (!/^-?\d+$/.test(id)) return send(400, { status: 400, message: 'id' });
      const found = items.get(String(Number(id)));
      return found ? send(200, found) : send(404, { status: 404, message: 'not found' });
    });
  });
}

export async function startSpinitronStandIn(): Promise<{ server: http.Server; baseUrl: string }> {
  const server = spinitronStandIn();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v2/api` };
}
