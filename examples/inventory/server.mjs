#!/usr/bin/env node
// The inventory service that examples/inventory/openapi.yaml describes: items in memory, every request checked for
// the X-Inventory-Key header. It is the stranger's API of the README's "Your own API" walkthrough, and the tests
// plant bugs in it with --bug (keyless-delete: DELETE forgets to check the key).
//
//   INVENTORY_KEY=… node examples/inventory/server.mjs [--port 4040] [--bug keyless-delete]
import http from 'node:http';
import { parseArgs } from 'node:util';

const usage = 'Usage: INVENTORY_KEY=KEY node examples/inventory/server.mjs [--port 4040] [--bug keyless-delete]';
let values;
try {
  ({ values } = parseArgs({ options: { port: { type: 'string', default: '4040' }, bug: { type: 'string' } } }));
} catch (error) {
  console.error(`inventory: ${error.message}\n${usage}`);
  process.exit(2);
}
const key = process.env.INVENTORY_KEY;
const port = Number(values.port);
if (!key) {
  console.error(`inventory: set INVENTORY_KEY, the key clients must send in X-Inventory-Key\n${usage}`);
  process.exit(2);
}
if (!Number.isInteger(port) || port < 0 || port > 65535 || !/^\d+$/.test(values.port)) {
  console.error(`inventory: --port takes a port number, not "${values.port}"`);
  process.exit(2);
}
if (values.bug !== undefined && values.bug !== 'keyless-delete') {
  console.error(`inventory: --bug takes keyless-delete, not "${values.bug}"`);
  process.exit(2);
}

const items = new Map();
let nextId = 1;

const send = (res, status, body) => {
  if (body === undefined) return void res.writeHead(status).end();
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
};
const problem = (res, status, error) => send(res, status, { error });
const chars = (text) => [...text].length;

function newItemProblem(body) {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return 'the body must be an object';
  for (const name of Object.keys(body)) if (name !== 'name' && name !== 'quantity') return `unknown field ${name}`;
  if (typeof body.name !== 'string' || chars(body.name) < 1 || chars(body.name) > 80)
    return 'name must be 1 to 80 characters';
  if (!Number.isInteger(body.quantity) || body.quantity < 0 || body.quantity > 1_000_000)
    return 'quantity must be a whole number from 0 to 1000000';
  return undefined;
}

async function readBody(req) {
  const chunks = [];
  let size = 0;
  for await (const chunk of req) {
    size += chunk.length;
    if (size > 1_000_000) return { tooLarge: true };
    chunks.push(chunk);
  }
  return { text: Buffer.concat(chunks).toString('utf8') };
}

const server = http.createServer(async (req, res) => {
  const url = new URL(req.url ?? '/', 'http://inventory');
  const body = await readBody(req);
  const keyed = req.headers['x-inventory-key'] === key;
  const itemPath = /^\/items\/([^/]+)$/.exec(url.pathname);
  const keyless = values.bug === 'keyless-delete' && req.method === 'DELETE' && itemPath;
  if (url.pathname !== '/items' && !itemPath) return problem(res, 404, 'no such path');
  if (!keyed && !keyless) return problem(res, 401, 'send the key in X-Inventory-Key');

  if (url.pathname === '/items' && req.method === 'GET') {
    const limit = url.searchParams.get('limit') ?? '20';
    if (!/^[1-9]\d{0,2}$/.test(limit) || Number(limit) > 100) return problem(res, 400, 'limit is 1 to 100');
    return send(res, 200, [...items.values()].slice(0, Number(limit)));
  }
  if (url.pathname === '/items' && req.method === 'POST') {
    if (body.tooLarge) return problem(res, 400, 'the body is over 1 MB');
    if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) return problem(res, 400, 'send JSON');
    let parsed;
    try {
      parsed = JSON.parse(body.text);
    } catch {
      return problem(res, 400, 'the body is not JSON');
    }
    const wrong = newItemProblem(parsed);
    if (wrong) return problem(res, 400, wrong);
    const item = { id: nextId++, name: parsed.name, quantity: parsed.quantity };
    items.set(item.id, item);
    return send(res, 201, item);
  }
  if (itemPath && (req.method === 'GET' || req.method === 'DELETE')) {
    if (!/^[1-9]\d{0,15}$/.test(itemPath[1]) || !Number.isSafeInteger(Number(itemPath[1])))
      return problem(res, 400, 'itemId is a whole number from 1 to 9007199254740991');
    const id = Number(itemPath[1]);
    if (!items.has(id)) return problem(res, 404, `no item ${id}`);
    if (req.method === 'GET') return send(res, 200, items.get(id));
    items.delete(id);
    return send(res, 204);
  }
  res.setHeader('allow', url.pathname === '/items' ? 'GET, POST' : 'GET, DELETE');
  return problem(res, 405, `${req.method} is not allowed here`);
});

server.on('error', (error) => {
  console.error(`inventory: cannot listen on 127.0.0.1:${port}: ${error.code ?? error.message}`);
  process.exit(2);
});
server.listen(port, '127.0.0.1', () => {
  const { port: bound } = server.address();
  const bug = values.bug ? ` with the planted bug ${values.bug}` : '';
  console.log(`Inventory on http://127.0.0.1:${bound}${bug}; Ctrl-C to stop`);
});
const stop = () => (server.close(() => process.exit(0)), server.closeAllConnections());
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
