import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const fixture = (...parts: string[]) => path.join(root, 'tests/fixtures', ...parts);
export const specFile = (name: string) => path.join(root, 'specs', `${name}.yaml`);
/** This repository's own config (the seed APIs), for tests that run a command in a folder outside the repository. */
export const seedConfig = path.join(root, 'contracts.config.yaml');
