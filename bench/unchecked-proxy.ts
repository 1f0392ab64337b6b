// `contracts proxy`'s forwarding engine (src/proxy/wire-connection.ts) with the checking taken out: every exchange
// is framed, its heads rebuilt, its bodies re-framed and copied for checking as in `contracts proxy`, and then
// dropped instead of judged. bench/proxy-throughput.ts runs it beside ours to show what judging every exchange
// costs, and what the engine alone can reach on this machine.
import net from 'node:net';
import { specPath } from '../src/config/project.js';
import { seedProject } from '../src/config/seed-project.js';
import { compileContract } from '../src/core/compile-contract.js';
import { loadSpec } from '../src/core/load-spec.js';
import { WireConnection } from '../src/proxy/wire-connection.js';

const target = new URL(process.argv[2]!);
const contract = compileContract(
  await loadSpec(specPath(seedProject.api('client-session')), seedProject.api('client-session').spec),
);
const upstream = {
  tls: false,
  hostname: target.hostname,
  port: Number(target.port),
  host: target.host,
  prefix: '',
  timeoutMs: 30_000,
};
const options = { contract, errors: false, maxBodyBytes: 10 * 2 ** 20 };
const drop = () => undefined;
const server = net.createServer({ allowHalfOpen: true }, (socket) => {
  new WireConnection(socket, upstream, options, drop, drop, drop);
});
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as net.AddressInfo;
  process.stdout.write(`unchecked proxy at http://127.0.0.1:${port}\n`);
});
process.on('SIGINT', () => process.exit(0));
