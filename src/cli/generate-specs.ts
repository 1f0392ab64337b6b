// Which APIs `contracts generate` makes types for: every API of the config, or those --spec names. Without a config
// each --spec file is an API of its own (main.ts, useSpecFiles); with one, `--spec API=FILE` (or FILE when the config
// has one API) generates that API's types from FILE instead of its own spec, and only that API's.
import path from 'node:path';
import { apiNames, apis, configuredApis, specPath, type ApiEntry } from '../config/apis.js';
import { parseSpecs, specOverrides } from './spec-option.js';

export function generateEntries(specValues: unknown, cwd: string): ApiEntry[] {
  const specs = parseSpecs(specValues, cwd);
  if (specs.length === 0) return configuredApis();
  const own = apiNames.map((name) => apis[name]).filter((entry) => specs.some((s) => s.file === specPath(entry)));
  // The banner names the spec relative to the folder, as a config's own entries do.
  if (own.length === specs.length && own.length === apiNames.length)
    return own.map((entry) => ({ ...entry, spec: path.relative(entry.baseDir, specPath(entry)) || entry.spec }));
  const overrides = specOverrides(specValues, cwd, apiNames);
  return Object.entries(overrides).map(([name, file]) => {
    const entry = apis[name as keyof typeof apis];
    return { ...entry, spec: path.relative(entry.baseDir, file) || file };
  });
}
