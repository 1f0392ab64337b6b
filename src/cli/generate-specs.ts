// Which APIs `contracts generate` makes types for: every API of the project, or those --spec names. Without a config
// each --spec file is an API of its own (config/project.ts, readProject); with one, `--spec API=FILE` (or FILE when
// the config has one API) generates that API's types from FILE instead of its own spec, and only that API's.
import path from 'node:path';
import { specPath, type ApiEntry, type Project } from '../config/project.js';
import { parseSpecs, specOverrides } from './spec-option.js';

export function generateEntries(specValues: unknown, cwd: string, project: Project): readonly ApiEntry[] {
  const specs = parseSpecs(specValues, cwd, project.names);
  if (specs.length === 0) return project.all();
  const own = project.apis.filter((entry) => specs.some((s) => s.file === specPath(entry)));
  // The banner names the spec relative to the folder, as a config's own entries do.
  if (own.length === specs.length && own.length === project.apis.length)
    return own.map((entry) => ({ ...entry, spec: path.relative(entry.baseDir, specPath(entry)) || entry.spec }));
  const overrides = specOverrides(specValues, cwd, project.names, project.names);
  return Object.entries(overrides).map(([name, file]) => {
    const entry = project.api(name);
    return { ...entry, spec: path.relative(entry.baseDir, file) || file };
  });
}
