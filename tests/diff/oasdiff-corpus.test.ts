// `contracts diff` on oasdiff's own checker corpus (253 spec pairs, in ../shared/corpora/oasdiff beside the clone,
// never copied here): the verdict a client of the API would give, per pair. A ratchet: the score only goes up
// (`npm run diff:corpus` prints it and the pairs still wrong).
import { describe, expect, it } from 'vitest';
import { defaultCorpus, scoreCorpus, type PairScore } from '../../scripts/diff-corpus.js';

/** Pairs with the client's verdict when this was last raised (184 before request bodies, response headers, renamed path parameters, operation-less paths, readOnly and writeOnly, patterns, parameters on the wire, 2020-12 keywords that only narrow, webhooks). */
const floor = 213;

let scored: Promise<PairScore[]> | undefined;
/** The corpus scored once for every test of this file. */
const scoresOnce = () => (scored ??= scoreCorpus(defaultCorpus));

describe("oasdiff's checker corpus", () => {
  it(`gives the client's verdict on at least ${floor} of the pairs, and refuses none`, async () => {
    const scores = await scoresOnce();
    expect(scores.length).toBe(253);
    expect(scores.filter((score) => score.ours === 'refused').map((score) => score.pair)).toEqual([]);
    const right = scores.filter((score) => score.right).length;
    expect(
      right,
      scores
        .filter((score) => !score.right)
        .map((score) => score.pair)
        .join('\n'),
    ).toBeGreaterThanOrEqual(floor);
  }, 120_000);

  // Silent misses before (a removed request body, a response header made optional or removed), and false alarms (a
  // path with no operation removed, a path parameter renamed, readOnly and writeOnly fields read as required everywhere,
  // a pattern widened to `.+`, `.*` or `''` called narrowing, a query parameter number → string or scalar → array,
  // a 2020-12 keyword added to a request left undecided, a webhook removed).
  it.each([
    'a068-request_body_removed_base--request_body_removed_revision',
    'c09-response-header-became-optional',
    'c10-required-response-header-removed',
    'a063-base--optional-request-params',
    'b5-param-rename-method',
    'a032-read-only-new-base--read-only-new-revision',
    'a033-read-only-base--read-only-revision',
    'a034-write-only-delete-base--write-only-delete-revision',
    'a036-write-only-base--write-only-revision',
    'a052-pattern-base--pattern-modified-not-anystring',
    'a053-pattern-base--pattern-modified',
    'a158-request_property_pattern_added_or_changed_base--request_property_pattern_added_or_changed_revision',
    'a100-request_parameter_property_type_changed_base_num--request_parameter_property_type_changed_revision',
    'a103-request_param_multitype_to_array_31_base--request_param_multitype_to_array_31_revision',
    'a120-contains_added_base--contains_added_revision',
    'a133-dependent_required_base--dependent_required_revision',
    'a144-if_added_base--if_added_revision',
    'a167-property_names_base--property_names_revision',
    'a175-unevaluated_base--unevaluated_revision',
    'a221-webhook_base--webhook_revision',
  ])(
    'judges %s as a client would',
    async (pair) => {
      const score = (await scoresOnce()).find((candidate) => candidate.pair === pair);
      expect(score, pair).toMatchObject({ right: true });
    },
    120_000,
  );
});
