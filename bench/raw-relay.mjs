// The ceiling for proxy throughput: a TCP relay that copies bytes between each client connection and one target
// connection of its own, with no HTTP at all (no parsing, no headers rewritten, no checks). No proxy that reads
// HTTP can beat it; bench/proxy-throughput.ts runs it beside `contracts proxy` to show where that ceiling lies.
import net from 'node:net';
const target = new URL(process.argv[2]);
const server = net.createServer((client) => {
  const up = net.connect(Number(target.port), target.hostname);
  client.pipe(up);
  up.pipe(client);
  client.on('error', () => up.destroy());
  up.on('error', () => client.destroy());
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`raw relay at http://127.0.0.1:${server.address().port}\n`));
process.on('SIGINT', () => process.exit(0));
