// A HAR capture made from GitHub's own description: for each of its 12 repository webhook operations, the documented
// success response with the description's own example (none for a 204), on a concrete path.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { root } from '../helpers/paths.js';

export const githubDescription = path.join(root, 'node_modules/@octokit/openapi/generated/api.github.com.json');

type Json = Record<string, any>;

const concrete = (template: string) =>
  template.replace('{owner}', 'octo').replace('{repo}', 'app').replace('{hook_id}', '42').replace('{delivery_id}', '7');

export function webhookOperationsHar(): { har: unknown; operationIds: string[] } {
  const document = JSON.parse(readFileSync(githubDescription, 'utf8')) as Json;
  const deref = (value: Json): Json =>
    typeof value.$ref === 'string'
      ? deref(
          value.$ref
            .slice(2)
            .split('/')
            .reduce((node: Json, key: string) => node[key.replace(/~1/g, '/').replace(/~0/g, '~')], document),
        )
      : value;
  const entries: unknown[] = [];
  const operationIds: string[] = [];
  for (const [template, item] of Object.entries(document.paths as Json)) {
    if (!template.startsWith('/repos/{owner}/{repo}/hooks')) continue;
    for (const [method, operation] of Object.entries(item as Json)) {
      if (typeof operation?.operationId !== 'string') continue;
      const [status, declared] = Object.entries(operation.responses as Json).find(([code]) => code.startsWith('2'))!;
      const response = deref(declared);
      const [mediaType, media] = (Object.entries(response.content ?? {})[0] ?? []) as [
        string | undefined,
        Json | undefined,
      ];
      const example = media?.examples ? deref(Object.values(media.examples as Json)[0]).value : media?.example;
      const headers = mediaType ? [{ name: 'content-type', value: `${mediaType}; charset=utf-8` }] : [];
      for (const [name, header] of Object.entries((response.headers ?? {}) as Json)) {
        if (deref(header).required) headers.push({ name, value: 'https://api.github.com/repos/octo/app/hooks/42' });
      }
      operationIds.push(operation.operationId);
      entries.push({
        request: { method: method.toUpperCase(), url: `https://api.github.com${concrete(template)}`, headers: [] },
        response: {
          status: Number(status),
          headers,
          content: { text: mediaType ? JSON.stringify(example) : '', mimeType: mediaType ?? '' },
        },
      });
    }
  }
  return { har: { log: { version: '1.2', entries } }, operationIds };
}
