// The floor for proxy throughput: a node:http reverse proxy that only forwards (keep-alive, streamed), no checks.
// bench/proxy-throughput.ts runs it beside `contracts proxy` so the cost of checking can be told from forwarding.
import http from 'node:http';

const target = new URL(process.argv[2]);
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
const server = http.createServer((req, res) => {
  const headers = { ...req.headers, host: target.host };
  delete headers.connection;
  const upstream = http.request(
    { hostname: target.hostname, port: target.port, method: req.method, path: req.url, headers, agent },
    (response) => {
      res.writeHead(response.statusCode ?? 502, response.headers);
      response.pipe(res);
    },
  );
  upstream.on('error', () => res.writeHead(502).end());
  req.pipe(upstream);
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`bare proxy at http://127.0.0.1:${server.address().port}\n`));
process.on('SIGINT', () => process.exit(0));
