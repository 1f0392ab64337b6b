// Process entry: wires main() to the real process (stdout, stderr, cwd, env, exit status).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseCacheDir, useParseCache } from '../core/parse-cache.js';
import { packageRoot } from '../config/package-root.js';
import { outputGone } from './output-gone.js';
import { main } from './main.js';

process.env.SCARF_ANALYTICS ??= 'false';
// Specs parsed before are read from the user's cache (core/parse-cache.ts), keyed also by this package's version
// and its YAML parsers' (yaml, and js-yaml for the fast path). A folder others can write is not used: said on
// stderr, once, and the command goes on parsing.
const pkg = JSON.parse(readFileSync(path.join(packageRoot, 'package.json'), 'utf8')) as {
  version: string;
  dependencies?: Record<string, string>;
};
const parsers = ['yaml', 'js-yaml'].map((name) => `${name} ${pkg.dependencies?.[name] ?? ''}`).join(' ');
useParseCache(parseCacheDir(process.env), `${pkg.version} ${parsers}`, (line) => process.stderr.write(`${line}\n`));
// A reader that stops early (`| head -2`) closes the pipe. Without a handler the EPIPE is an uncaught error with a
// stack trace. Instead: drop what is still written there, and tell streaming commands to stop (output-gone.ts);
// commands with work to finish (check's cleanup and report files) finish it. A stream fault other than EPIPE is
// said in one line.
const gone = { stdout: false, stderr: false };
for (const [name, stream] of [
  ['stdout', process.stdout],
  ['stderr', process.stderr],
] as const) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    gone[name] = true;
    if (name === 'stdout') outputGone.abort();
    if (error.code !== 'EPIPE' && !gone.stderr)
      process.stderr.write(`contracts: cannot write to ${name}: ${error.code ?? error.message}\n`);
  });
}
const exitCode = await main(process.argv.slice(2), {
  out: (text) => gone.stdout || process.stdout.write(text + '\n'),
  err: (text) => gone.stderr || process.stderr.write(text + '\n'),
  cwd: process.cwd(),
  env: process.env,
  progressStream: process.stderr,
});
// A misbehaving server can hold a socket open after its request failed; that must not keep the process alive.
// Flush what was written, then exit with the status.
if (!gone.stdout) await new Promise<void>((resolve) => process.stdout.write('', () => resolve()));
if (!gone.stderr) await new Promise<void>((resolve) => process.stderr.write('', () => resolve()));
process.exit(exitCode);
