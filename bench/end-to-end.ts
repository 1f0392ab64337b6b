// Benchmark 4: wall time of `contracts check --api all` against the embedded mocks (start-up included) and
// against the sandbox.
import path from 'node:path';
import { startSandbox } from '../src/plugins/example-sandbox.js';
import { report, round, runChild, root } from './bench-util.js';

const cli = path.join(root, 'bin/contracts.js');
const mock = await runChild(process.execPath, [cli, 'check', '--api', 'all']);
if (mock.code !== 0)
  throw new Error(`check against the mocks failed: ${mock.stdout.slice(-500)}${mock.stderr.slice(-500)}`);
const sandbox = await startSandbox({ port: 0, deliveryTimeoutMs: 1000 });
let full;
try {
  full = await runChild(process.execPath, [cli, 'check', '--api', 'all', '--base-url', sandbox.url]);
} finally {
  await sandbox.stop();
}
if (full.code !== 0)
  throw new Error(`check against the sandbox failed: ${full.stdout.slice(-500)}${full.stderr.slice(-500)}`);
const count = (stdout: string) => /(\d+) passed, (\d+) failed, (\d+) skipped/.exec(stdout)?.slice(1).map(Number);
report('end-to-end', {
  checkAgainstMocks: {
    seconds: round(mock.seconds, 3),
    peakRssMb: mock.peakRssMb,
    passedFailedSkipped: count(mock.stdout),
  },
  checkAgainstSandbox: {
    seconds: round(full.seconds, 3),
    peakRssMb: full.peakRssMb,
    passedFailedSkipped: count(full.stdout),
  },
});
