// The one ajv setup (JSON Schema 2020-12, the dialect of OpenAPI 3.1 Schema Objects) that lint, mock tests and
// conformance share, so they never disagree about what a schema accepts.
import { Ajv2020, type Options } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { ajvKeywordName } from './ajv-document.js';
import { discriminatorBranches } from './discriminator.js';
import { formatChecks } from './format-checks.js';
import { patternRegExp } from './pattern-engine.js';

// ajv-formats is CommonJS: under NodeNext its default import is the module object, the plugin is its `default`.
const addFormats = addFormatsModule.default;

/** Schema Object keywords that OpenAPI 3.1 adds to JSON Schema 2020-12 (spec section 4.8.24). */
export const openApiSchemaKeywords = ['discriminator', 'xml', 'externalDocs', 'example'] as const;

export type ContractsAjv = Ajv2020;

/**
 * `overrides`: conformance checking bounds error collection (see bounded-errors.ts), and a document that names a
 * member of `Object.prototype` turns `ownProperties` on (see inheritedNames); everything else is shared.
 */
export function createAjv(overrides: Pick<Options, 'allErrors' | 'code' | 'ownProperties'> = {}): Ajv2020 {
  const ajv = new Ajv2020({
    strict: true,
    // Report every problem in a body, not just the first: a conformance report lists them all.
    allErrors: true,
    // Specs routinely combine keywords without repeating `type` in every branch; that is not a mistake.
    strictTypes: false,
    strictTuples: false,
    strictRequired: false,
    validateFormats: true,
    logger: false,
    // A `$ref`d schema is compiled once, as its own function, rather than copied into every schema that uses it:
    // GitHub's description references `simple-user` thousands of times, and inlining it made lint's compile 40 %
    // slower and its code twice the size (bench: github-load).
    inlineRefs: false,
    // Every schema compiled is a `{ $ref }` into the spec's document, registered without a meta-schema check: ajv's
    // own check of each `{ $ref }` would only compile the 2020-12 meta-schema (50 ms of every command's start) to
    // accept it. Lint checks each Schema Object against the meta-schema itself (ajv.validateSchema).
    validateSchema: false,
    ...overrides,
    // Spec patterns run in time linear in the value (pattern-engine.ts), in every ajv of every command.
    code: { ...overrides.code, regExp: patternRegExp },
  });
  addFormats(ajv);
  // ajv-formats disagrees with the defining grammar on these (format-checks.ts): ours replace its checks.
  for (const [name, validate] of Object.entries(formatChecks)) ajv.addFormat(name, { type: 'string', validate });
  for (const keyword of openApiSchemaKeywords) ajv.addKeyword({ keyword });
  ajv.addKeyword(discriminatorBranches);
  return ajv;
}

// A property a spec names `constructor` or `toString` is a body's own key or absent: ajv's generated code reads
// `data.constructor`, so without `ownProperties` it found the inherited method of `{}` and reported "/constructor must
// be integer" for a body that has none. `ownProperties` makes every property read a hasOwnProperty call (the check
// cost nearly doubled in bench/check-cost.ts): it is on only for a document with such a name somewhere.
const inheritedNames = new Set(Object.getOwnPropertyNames(Object.prototype));

/** Whether some key of the document (documentKeys) is a member of `Object.prototype`: ajv must then read own keys. */
export function namesInheritedMembers(keys: ReadonlySet<string>): boolean {
  for (const name of inheritedNames) if (keys.has(name)) return true;
  return false;
}

/** Every key of every object in a document, at any depth (keywords, property names, data): walked once per compile. */
export function documentKeys(document: unknown): Set<string> {
  const seen = new Set<string>();
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const item of value) walk(item);
    } else if (value !== null && typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) {
        seen.add(key);
        walk(child);
      }
    }
  };
  walk(document);
  return seen;
}

/**
 * Registers the document's keys strict mode would refuse in a schema. Specification extensions (`x-…`) always.
 * With `unknown: 'annotate'`, also every other key that is no keyword ajv knows (a misspelt `descrciption`, a
 * property written beside `properties`, Google's `source`): JSON Schema 2020-12 ignores unknown keywords, and strict
 * mode's refusal ended validate and fuzz on such specs; lint says `refuse`, so contracts-schema-valid reports them.
 * Registering a name that only ever appears as data is harmless: an annotation checks nothing. ajv refuses names
 * like Akeneo's `x-1.7`; ajv's copy of the document leaves those out (ajv-document.ts).
 */
export function addDocumentKeywords(ajv: Ajv2020, keys: Iterable<string>, unknown: 'annotate' | 'refuse'): void {
  for (const keyword of keys) {
    if (!ajvKeywordName.test(keyword)) continue;
    const extension = keyword.startsWith('x-');
    if (
      extension
        ? ajv.getKeyword(keyword)
        : unknown === 'refuse' || keyword.startsWith('$') || ajv.RULES.keywords[keyword]
    )
      continue;
    ajv.addKeyword({ keyword });
  }
}
