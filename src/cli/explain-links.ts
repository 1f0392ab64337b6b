// `contracts fuzz --explain-links`: the resource model of each chosen API's spec, printed (resources and their
// operations by role, pagination, and where each parameter's value comes from), with nothing sent.
import path from 'node:path';
import { specPath, type ApiEntry, type ApiName } from '../config/project.js';
import { escapeLine } from '../core/escape-line.js';
import { loadSpec } from '../core/load-spec.js';
import { buildResourceModel } from '../core/resource-model/build-resource-model.js';
import { explainResourceModel } from '../core/resource-model/explain-resource-model.js';
import { exitCodes, type Io } from './command.js';

export async function explainLinks(
  selected: readonly ApiEntry[],
  specFiles: Partial<Record<ApiName, string>>,
  io: Io,
): Promise<number> {
  for (const [index, entry] of selected.entries()) {
    const api = entry.name;
    const file = specFiles[api] ?? specPath(entry);
    const spec = await loadSpec(file, path.relative(io.cwd, file) || file);
    if (index > 0) io.out('');
    io.out(escapeLine(`${api} (${spec.file}): where each request's values come from`));
    for (const line of explainResourceModel(buildResourceModel(spec.document))) io.out(line);
  }
  return exitCodes.ok;
}
