// The name `contracts init` gives an API, from its spec's info.title: short enough to type after --api and to head
// its credential variables (CONTRACTS_<NAME>_…). Titles are prose: "GitHub's official OpenAPI spec + Octokit
// extension" was github-s-official-openapi-spec, "Spotify Web API with fixes and improvements from sonallux" gave
// CONTRACTS_SPOTIFY_WEB_API_WITH_FIXES_AND_OAUTH_2_0.

/** Words that say what every spec is, or join others: never the name of an API. */
const filler = new Set([
  'a',
  'an',
  'and',
  'the',
  'of',
  'official',
  'unofficial',
  'openapi',
  'swagger',
  'spec',
  'specs',
  'specification',
  'definition',
  'description',
  'documentation',
  'rest',
  'restful',
  'http',
  'json',
  'yaml',
  'fixes',
  'version',
]);
/** A word that starts what qualifies the name: the title is cut there ("… API with fixes", "… from sonallux"). */
const qualifiers = new Set(['with', 'from', 'by', 'including', 'featuring']);
const maxWords = 3;
const maxLength = 24;

/**
 * The short name for a title, or undefined when no word of it is meaningful. Lower case; bracketed parts and
 * possessive 's dropped; cut at the first `+` or qualifying word (with, from, by, including, featuring); filler and
 * version words dropped (official, openapi, swagger, spec, specification, rest, the, and, v2, 3.0…), and `api` unless
 * it is the only word; then the first words, at most 3 and 24 characters, joined by `-` (one longer word is cut).
 */
export function shortApiName(title: string): string | undefined {
  const text = title
    .normalize('NFKD')
    .replace(/\p{M}/gu, '') // Ü → U: a letter with its accents, not a word break
    .toLowerCase()
    .replace(/\([^)]*\)|\[[^\]]*\]|\{[^}]*\}/g, ' ')
    .replace(/['’]s\b/g, '');
  const cut = meaningful(headOf(text));
  const words = cut.length > 0 ? cut : meaningful(text);
  if (words.length === 0) return undefined;
  const kept = [words[0]!.slice(0, maxLength)];
  for (const word of words.slice(1)) {
    if (kept.length === maxWords || [...kept, word].join('-').length > maxLength) break;
    kept.push(word);
  }
  const name = kept.join('-');
  return /^[a-z]/.test(name) ? name : `api-${name}`.slice(0, 40).replace(/-+$/, '');
}

/** The title up to its first `+` or qualifying word. */
function headOf(text: string): string {
  const words = text.split('+')[0]!.split(/\s+/);
  const at = words.findIndex((word) => qualifiers.has(word));
  return (at < 0 ? words : words.slice(0, at)).join(' ');
}

/** The words that can name the API: no filler, no version, `api` only when nothing else is left. */
function meaningful(text: string): string[] {
  // A dotted version (3.0, v1.2) is one word, to be dropped whole; other dots separate words (api.github.com).
  const words = text.match(/\bv?\d+(?:\.\d+)+\b|[a-z0-9]+/g) ?? [];
  const named = words.filter((word) => !filler.has(word) && !/^v?\d+(\.\d+)*$/.test(word));
  const notApi = named.filter((word) => word !== 'api' && word !== 'apis');
  return notApi.length > 0 ? notApi : named.slice(0, 1);
}
