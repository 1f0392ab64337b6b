// Names: a collection segment's singular, and which body field a path parameter names (`petId` ↔ `id`, `pet_id`,
// `petId`). The rules are few and stated, so the printout can say which one matched.

/** `posts` → `post`, `categories` → `category`, `boxes` → `box`; a word it does not know stays as it is. */
export function singular(word: string): string {
  if (!/^[A-Za-z_-]{2,}$/.test(word)) return word;
  const lower = word.toLowerCase();
  if (lower.endsWith('ss') || lower.endsWith('us') || lower.endsWith('is')) return word;
  if (lower.endsWith('ies') && word.length > 3) return `${word.slice(0, -3)}y`;
  if (/(xes|zes|ches|shes|sses)$/.test(lower)) return word.slice(0, -2);
  if (lower.endsWith('s')) return word.slice(0, -1);
  return word;
}

/** Case and separators do not matter when names are compared: `pet_id`, `petId`, `PET-ID` are one name. */
export function normalized(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

const idSuffixes = ['id', 'uuid', 'guid', 'key', 'slug', 'name', 'number', 'code'];

/**
 * The body field that carries a path parameter's value, and the rule that found it:
 * 1. a field of the same name, or the same once case and separators are ignored (`pet_id` ↔ `petId`);
 * 2. the parameter is the resource's name plus an id suffix, and the field is that suffix (`petId`, `pet_id` ↔ `id`);
 * 3. the parameter is the bare suffix and the field is the resource's name plus it (`id` ↔ `petId`);
 * 4. the parameter is named like an id (`image_id`, `fileUuid`) and the resource has an `id` field (Schemathesis's
 *    fallback).
 * Nothing else: `{username}`, `{org}` or `{sha}` are not a resource's numeric `id` (GitHub's users have both), and a
 * wrong field would send one resource's value where another's is asked.
 */
export function matchIdField(
  parameter: string,
  resourceWords: readonly string[],
  fields: readonly string[],
): { field: string; rule: string } | undefined {
  if (fields.includes(parameter)) return { field: parameter, rule: 'same name' };
  const wanted = normalized(parameter);
  const same = fields.find((field) => normalized(field) === wanted);
  if (same !== undefined) return { field: same, rule: 'same name, case and separators aside' };
  for (const word of resourceWords.map(normalized)) {
    if (word === '' || !wanted.startsWith(word)) continue;
    const suffix = wanted.slice(word.length);
    const field = fields.find((candidate) => normalized(candidate) === suffix);
    if (suffix !== '' && field !== undefined) return { field, rule: `the resource's name (${word}) + ${field}` };
  }
  if (idSuffixes.includes(wanted)) {
    for (const word of resourceWords.map(normalized)) {
      const field = fields.find((candidate) => normalized(candidate) === word + wanted);
      if (field !== undefined) return { field, rule: `${field}: the resource's name + ${parameter}` };
    }
  }
  const hasId = fields.find((field) => normalized(field) === 'id');
  if (hasId !== undefined && looksLikeId(parameter))
    return { field: hasId, rule: 'an id-named parameter and the resource has id' };
  return undefined;
}

/** Whether a query or header parameter looks like an id of something (`petId`, `pet_id`, `id`), by its name. */
export function looksLikeId(name: string): boolean {
  return (
    /^(id|uuid|guid)$/i.test(name) || /[a-z0-9](Id|ID|Uuid|UUID)$/.test(name) || /[a-z0-9][_-](id|uuid)$/i.test(name)
  );
}

/** The resource word an id-looking name carries (`petId`, `pet_id` → `pet`), or undefined for a bare `id`. */
export function idPrefix(name: string): string | undefined {
  const match = /^(.+?)[_-]?(id|uuid|guid)$/i.exec(name);
  return match?.[1] && match[1].length >= 2 ? match[1] : undefined;
}
