// Spectral depends on @scarf/scarf, whose install script reports the install unless the installing project opts
// out. Our package.json opts out for everyone (scarfSettings.enabled: false), so nobody has to export
// SCARF_ANALYTICS=false. This asks scarf's own decision code, fed the `npm ls --json --long` tree it reads at
// install time (the root entry carries the root package.json's fields), and sends nothing anywhere.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { root } from '../helpers/paths.js';

interface ScarfReport {
  processDependencyTreeOutput(
    resolve: (info: unknown) => void,
    reject: (error: Error) => void,
  ): (error: Error | null, stdout: string, stderr: string) => void;
}

const scarf = createRequire(import.meta.url)(path.join(root, 'node_modules/@scarf/scarf/report.js')) as ScarfReport;
const scarfVersion = (
  JSON.parse(readFileSync(path.join(root, 'node_modules/@scarf/scarf/package.json'), 'utf8')) as { version: string }
).version;

function decide(rootPackage: Record<string, unknown>): Promise<string> {
  const tree = {
    ...rootPackage,
    path: root,
    dependencies: {
      '@stoplight/spectral-core': {
        version: '1.24.1',
        path: path.join(root, 'node_modules/@stoplight/spectral-core'),
        dependencies: { '@scarf/scarf': { version: scarfVersion, path: path.join(root, 'node_modules/@scarf/scarf') } },
      },
    },
  };
  return new Promise<unknown>((resolve, reject) =>
    scarf.processDependencyTreeOutput(resolve, reject)(null, JSON.stringify(tree), ''),
  ).then(
    () => 'would report',
    (error: Error) => error.message,
  );
}

describe("Spectral's install analytics", () => {
  it('are off for whoever installs this project, by its package.json alone', async () => {
    const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(pkg.scarfSettings).toEqual({ enabled: false });
    expect(await decide(pkg)).toMatch(/disabled via a package\.json/);
  });

  it('would be on for a project without the setting (so the case above is the setting at work)', async () => {
    const { scarfSettings: _, ...pkg } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    expect(await decide(pkg)).toBe('would report');
  });
});
