// A generated test case, as data: which operation, which phase, the request, and what it is meant to be. The
// executor binds what the run owns (what an API's plug-in made, credentials) and re-judges the whole
// request before sending: what a case claims to be is never trusted.
import type { FuzzPlugin } from './fuzz-plugin.js';
import type { TrailStep } from './repro-script.js';
import type { RequestData } from './request-model.js';

export const phases = ['examples', 'boundaries', 'random', 'negative', 'stateful'] as const;
export type Phase = (typeof phases)[number];

/**
 * Whether the run supplies `param` itself rather than generating it: the API's plug-in says so (the ids its fixtures
 * made, a parameter a credential feeds: fuzz-plugin.ts). Any other parameter is generated: GitHub's `?owner=` filter
 * (an array) was bound to the string `octo`, then judged invalid.
 */
export function isBoundParam(
  plugin: Pick<FuzzPlugin, 'isBound'> | undefined,
  param: { name: string; in: string },
): boolean {
  return plugin?.isBound?.(param) === true;
}

export interface FuzzCase {
  api: string;
  operationId: string;
  phase: Phase;
  request: RequestData;
  /**
   * The kind of value that makes this case what it is ("string with NUL", "missing required field": value-kind.ts),
   * recorded where the generator knows it; failures are grouped by it. Never a field's name.
   */
  kind?: string;
  /** What this case does, for a person: "per_page = 101", "body/config: unknown field \"x\"". */
  note: string;
  /**
   * `derive`: positive or negative by what the validators say (examples, boundaries); `positive`/`negative`: the
   * phase's claim, checked before sending (a case that is not what it claims is dropped, never sent).
   */
  intent: 'derive' | 'positive' | 'negative';
  /** Headers to leave out that the run would otherwise add (the API key, for ignored_auth). */
  omit?: string[];
  /** Sent with no credential of any security scheme (apiKey in header, query or cookie, bearer, basic, oauth2): for
   * ignored_auth. Credentials that feed a documented parameter of the operation (client-session's clientToken) stay. */
  anonymous?: boolean;
  /** A body path whose value the run must not overwrite (a mutated config.url). */
  keepPath?: string;
  /** The hook the case acts on: the run's shared hook, or one made for this case alone (a delete). */
  hook?: 'shared' | 'fresh';
  /** A hook this case creates is kept (a stateful sequence goes on with it); otherwise deleted at once. */
  keepCreated?: boolean;
  /** Send the cursor of the shared hook's deliveries. */
  cursor?: boolean;
  /** A valid request a seed rule says must be refused (a hook sharing another's config): positive_data_acceptance does not apply. */
  refusalExpected?: boolean;
  /**
   * A parameter the run otherwise binds or fills from a credential (client-session's clientToken) that this case
   * sets itself, or leaves out: its edge values, with the credential never sent in it.
   */
  varies?: string;
  /** What was sent before this case, for its reproduction: the hook it acts on, made first; a sequence's steps. */
  trail?: readonly TrailStep[];
  /** A page of a list the stateful walk followed (repro-script.ts judges the pages again). */
  page?: TrailStep['page'];
}

/** JSON with sorted keys and no spaces: the same case always prints the same way. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
