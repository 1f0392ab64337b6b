// Prism's `Prefer` header, which mock users send to choose an answer: `code=404` (a documented status), `example=NAME`
// (a named example of the chosen media type), `dynamic=true` (a body generated from the schema, new each request,
// instead of the examples: dynamic-answer.ts) or `dynamic=false` (the examples first, the default). RFC 7240
// section 2: preferences are comma-separated `token[=value]`; an unknown one is ignored.

export interface Preferences {
  code?: number;
  example?: string;
  dynamic?: boolean;
}

export function readPrefer(header: string | undefined): Preferences {
  const preferences: Preferences = {};
  if (header === undefined) return preferences;
  for (const part of header.slice(0, 4096).split(/[,;]/)) {
    const equals = part.indexOf('=');
    if (equals < 0) continue;
    const name = part.slice(0, equals).trim().toLowerCase();
    const value = part
      .slice(equals + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1');
    if (name === 'code' && /^[1-5]\d\d$/.test(value)) preferences.code = Number(value);
    if (name === 'example' && value !== '') preferences.example = value;
    if (name === 'dynamic' && (value === 'true' || value === 'false')) preferences.dynamic = value === 'true';
  }
  return preferences;
}
