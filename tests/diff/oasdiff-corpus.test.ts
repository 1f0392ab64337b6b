// `contracts diff` on oasdiff's own checker corpus (253 spec pairs, in ../shared/corpora/oasdiff beside the clone,
// never copied here): the verdict a client of the API would give, per pair. A ratchet: the score only goes up
// (`npm run diff:corpus` prints it and the pairs still wrong).
import { describe, expect, it } from 'vitest';
import { defaultCorpus, scoreCorpus, type PairScore } from '../../scripts/diff-corpus.js';

/**
 * Pairs with the client's verdict when this was last raised: 184 before request bodies, response headers, renamed path
 * parameters, operation-less paths, readOnly and writeOnly, patterns, parameters on the wire, 2020-12 keywords that
 * only narrow, webhooks (213); then guarantees a response drops, 2020-12 keywords changed in place, prefixItems, XML
 * bodies as text, a oneOf whose parts overlap, x-extensible-enum (249). The issue asks for 246.
 */
const floor = 249;

/** The pairs where we differ from the manifest, and why we stand by our verdict. */
const dissent: Record<string, string> = {
  'a037-write-only-changed-base--write-only-changed-revision':
    'a required response field made writeOnly is no longer sent in responses: a client reading it breaks',
  'c24-resp-property-format-changed':
    'the format changed under `properties` of a `type: string` schema, where properties apply to nothing',
  'a213-response_property_one_of_wrapped_base--response_property_one_of_wrapped_revision':
    'which responses the overlapping oneOf still allows is undecided, and said so as a warning rather than guessed',
  'a220-webhook_operation_base--webhook_operation_revision':
    'a webhook payload that is now always sent breaks no receiver (oasdiff reads it as a request body made required)',
};

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
    'a121-contains_added_revision--contains_added_base',
    'a122-contains_min_max_base--contains_min_max_revision',
    'a134-dependent_required_revision--dependent_required_changed_revision',
    'a139-dependent_schemas_base--dependent_schemas_revision',
    'a145-if_added_revision--if_added_base',
    'a159-pattern_properties_base--pattern_properties_revision',
    'a163-prefix_items_added_base--prefix_items_added_revision',
    'a174-request_xml_type_compatible_base--request_xml_type_compatible_revision',
    'a183-request_property_one_of_wrapped_base--request_property_one_of_wrapped_revision',
    'a184-request_property_extensible_enum_base--request_property_extensible_enum_revision',
    'a204-response_property_const_changed_base--response_property_const_changed_revision',
    'a212-response_xml_type_compatible_base--response_xml_type_compatible_revision',
    'a214-sub_schema_traversal_base--sub_schema_traversal_revision',
    'a219-not_base--not_revision',
  ])(
    'judges %s as a client would',
    async (pair) => {
      const score = (await scoresOnce()).find((candidate) => candidate.pair === pair);
      expect(score, pair).toMatchObject({ right: true });
    },
    120_000,
  );

  it('differs from the manifest only where our verdict is argued (see dissent)', async () => {
    const wrong = (await scoresOnce()).filter((score) => !score.right).map((score) => score.pair);
    expect(wrong.filter((pair) => !(pair in dissent))).toEqual([]);
  }, 120_000);
});
