// Runs the CLI's main() in this process, as `contracts ARGS` in `cwd`, with an environment of PATH and `env` only:
// stdout and stderr lines together, in the order they were written.
import { main } from '../../src/cli/main.js';

export async function runMain(
  args: string[],
  cwd: string,
  env: Record<string, string> = {},
): Promise<{ code: number; output: string }> {
  const lines: string[] = [];
  const code = await main(args, {
    out: (line) => lines.push(line),
    err: (line) => lines.push(line),
    cwd,
    env: { PATH: process.env.PATH, ...env },
  });
  return { code, output: lines.join('\n') };
}
