// Process entry: wires main() to the real process (stdout, stderr, cwd, env, exit status).
import { main } from './main.js';

process.env.SCARF_ANALYTICS ??= 'false';
const exitCode = await main(process.argv.slice(2), {
  out: (text) => process.stdout.write(text + '\n'),
  err: (text) => process.stderr.write(text + '\n'),
  cwd: process.cwd(),
  env: process.env,
});
// A misbehaving server can hold a socket open after its request failed; that must not keep the process alive.
// Flush what was written, then exit with the status.
await new Promise<void>((resolve) => process.stdout.write('', () => resolve()));
await new Promise<void>((resolve) => process.stderr.write('', () => resolve()));
process.exit(exitCode);
