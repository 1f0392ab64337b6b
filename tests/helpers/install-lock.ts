// A package-lock.json for a scratch project that installs this package's tarball (and `extra` packages, such as
// vitest), made from this repository's own lock: the same versions and integrity hashes, so `npm ci --offline`
// installs every dependency from npm's cache (which this repository's `npm ci` filled) with no network.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { root } from './paths.js';

interface LockEntry {
  version?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  dev?: boolean;
  devOptional?: boolean;
  [key: string]: unknown;
}

export function scratchLock(tarball: string, extra: string[]): { packageJson: object; lock: object } {
  const repo = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, LockEntry>;
  };
  const entries = repo.packages;
  const self = entries['']!;
  // Where Node (and npm) find `name` from the package at `from`: its own node_modules, then each one above.
  const resolveFrom = (from: string, name: string): string | undefined => {
    for (let dir = from; ; ) {
      const candidate = `${dir ? `${dir}/` : ''}node_modules/${name}`;
      if (entries[candidate]) return candidate;
      if (!dir) return undefined;
      const cut = dir.lastIndexOf('/node_modules/');
      dir = cut < 0 ? '' : dir.slice(0, cut);
    }
  };
  const needed = new Set<string>();
  const visit = (entry: string) => {
    if (needed.has(entry)) return;
    needed.add(entry);
    const { dependencies, optionalDependencies, peerDependencies } = entries[entry]!;
    for (const name of Object.keys({ ...dependencies, ...optionalDependencies, ...peerDependencies })) {
      const found = resolveFrom(entry, name);
      if (found) visit(found);
    }
  };
  for (const name of [...Object.keys(self.dependencies ?? {}), ...extra]) {
    const found = resolveFrom('', name);
    if (!found) throw new Error(`${name} is not in package-lock.json`);
    visit(found);
  }
  const devDependencies: Record<string, string> = { [String(self.name)]: `file:${tarball}` };
  for (const name of extra) devDependencies[name] = String(entries[`node_modules/${name}`]!.version);
  const packageJson = { name: 'scratch-service', version: '1.0.0', private: true, type: 'module', devDependencies };
  const packages: Record<string, LockEntry> = {
    '': { name: 'scratch-service', version: '1.0.0', devDependencies },
    [`node_modules/${String(self.name)}`]: {
      version: self.version,
      resolved: `file:${tarball}`,
      dev: true,
      license: self.license,
      dependencies: self.dependencies,
      bin: self.bin,
      engines: self.engines,
    },
  };
  for (const entry of [...needed].sort()) {
    const { devOptional: _devOptional, ...rest } = entries[entry]!;
    packages[entry] = { ...rest, dev: true };
  }
  return {
    packageJson,
    lock: { name: 'scratch-service', version: '1.0.0', lockfileVersion: 3, requires: true, packages },
  };
}
