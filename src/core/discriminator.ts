// The Discriminator Object (OpenAPI 3.1 section 4.8.25): beside a oneOf or anyOf, a property whose value names the
// branch a value is. ajv's own `discriminator` refuses most real specs at compile time (it wants oneOf only, the
// property required and a const or enum in every branch, and no `mapping`), so the checks use a keyword of their own:
// ajvDocument moves a discriminated schema's oneOf/anyOf under `discriminatorBranches`, and this keyword validates an
// object whose property is a string against the branch that string names only (findings about that branch), and
// refuses a string that names none (the Discriminator Object: the value "MUST" correspond to a schema name or a
// mapping). Anything else (no such property, a value that is no object) is held to the oneOf/anyOf as written.
import { _, Name, str, type Code, type CodeKeywordDefinition, type KeywordCxt, type KeywordErrorDefinition } from 'ajv';
import { getProperty } from 'ajv/dist/compile/codegen/index.js';

/** The keyword ajvDocument moves a discriminated oneOf/anyOf under: `{ oneOf: [...] }` or `{ anyOf: [...] }`. */
export const discriminatorBranchesKeyword = 'discriminatorBranches';

export interface DiscriminatorTags {
  propertyName: string;
  /** Tag value → index of the branch it names. */
  tags: Map<string, number>;
  /** Every branch can be named by some tag: a tag naming none cannot be a branch's (else it is judged by the union). */
  complete: boolean;
}

/**
 * The tags of a discriminated schema's branches: each `mapping` entry whose value is a branch's `$ref` (or the name
 * that `$ref` ends with), then each `$ref` branch's schema name (the last segment of its reference) not already a tag.
 * Undefined when the schema has no usable discriminator.
 */
export function discriminatorTags(
  schema: Record<string, unknown>,
  branches: readonly unknown[],
): DiscriminatorTags | undefined {
  const discriminator = schema.discriminator as { propertyName?: unknown; mapping?: unknown } | undefined;
  if (discriminator === null || typeof discriminator !== 'object') return undefined;
  const { propertyName, mapping } = discriminator;
  if (typeof propertyName !== 'string') return undefined;
  const refs = branches.map((branch) =>
    branch !== null && typeof branch === 'object' && typeof (branch as { $ref?: unknown }).$ref === 'string'
      ? (branch as { $ref: string }).$ref
      : undefined,
  );
  const names = refs.map((ref) => (ref === undefined ? undefined : schemaName(ref)));
  const tags = new Map<string, number>();
  const named = new Set<number>();
  if (mapping !== null && typeof mapping === 'object') {
    for (const [tag, target] of Object.entries(mapping)) {
      if (typeof target !== 'string') continue;
      let index = refs.indexOf(target);
      if (index < 0 && !target.includes('/')) index = names.indexOf(target);
      if (index < 0) continue;
      tags.set(tag, index);
      named.add(index);
    }
  }
  names.forEach((name, index) => {
    if (name === undefined || tags.has(name)) return;
    tags.set(name, index);
    named.add(index);
  });
  return { propertyName, tags, complete: named.size === branches.length };
}

/** `#/components/schemas/Cat` → `Cat` (a JSON pointer's last segment, unescaped). */
function schemaName(ref: string): string | undefined {
  const hash = ref.indexOf('#');
  const pointer = hash < 0 ? '' : ref.slice(hash + 1);
  const segment = pointer.slice(pointer.lastIndexOf('/') + 1);
  if (segment === '') return undefined;
  let decoded = segment;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    // Not percent-encoded text: read as written.
  }
  return decoded.replace(/~1/g, '/').replace(/~0/g, '~');
}

const error: KeywordErrorDefinition = {
  // Compile-time text only: the tag's value (the body's) is shown by whoever reports the error, bounded and escaped.
  message: ({ schema, parentSchema }) => {
    const tags = [...(discriminatorTags(parentSchema ?? {}, branchesOf(schema))?.tags.keys() ?? [])];
    const shown = tags.slice(0, 8).map((tag) => JSON.stringify(tag));
    return str`must name a schema of the discriminator (${tags.length > 8 ? `${shown.join(', ')}, … ${tags.length} in all` : shown.join(', ')})`;
  },
};

function branchesOf(schema: unknown): unknown[] {
  const value = schema as { oneOf?: unknown; anyOf?: unknown };
  return (Array.isArray(value.oneOf) ? value.oneOf : Array.isArray(value.anyOf) ? value.anyOf : []) as unknown[];
}

export const discriminatorBranches: CodeKeywordDefinition = {
  keyword: discriminatorBranchesKeyword,
  schemaType: 'object',
  error,
  code(cxt: KeywordCxt) {
    const { gen, data, schema, parentSchema, it } = cxt;
    const combinator = Array.isArray(schema.oneOf) ? 'oneOf' : 'anyOf';
    const branches = branchesOf(schema);
    const known = discriminatorTags(parentSchema, branches);
    const valid = gen.let('valid', false);
    const union = () => {
      const unionValid = gen.name('valid');
      const schCxt = cxt.subschema({ keyword: discriminatorBranchesKeyword }, unionValid);
      cxt.mergeEvaluated(schCxt, Name);
      gen.assign(valid, unionValid);
    };
    if (!known || known.tags.size === 0) {
      union();
      cxt.ok(valid);
      return;
    }
    const tag = gen.const('tag', _`${data}${getProperty(known.propertyName)}`);
    gen.if(
      _`${data} && typeof ${data} == "object" && !Array.isArray(${data}) && typeof ${tag} == "string"`,
      () => {
        gen.if(false);
        for (const [value, index] of known.tags) {
          gen.elseIf(_`${tag} === ${value}`);
          const branchValid = gen.name('valid');
          const schCxt = cxt.subschema(
            {
              schema: branches[index] as object,
              schemaPath: _`${it.schemaPath}${getProperty(discriminatorBranchesKeyword)}${getProperty(combinator)}[${index}]`,
              errSchemaPath: `${it.errSchemaPath}/${combinator}/${index}`,
              topSchemaRef: it.topSchemaRef,
            },
            branchValid,
          );
          cxt.mergeEvaluated(schCxt, Name);
          gen.assign(valid, branchValid);
        }
        gen.else();
        // A tag naming no schema: refused, unless some branch has no name (it could be that branch's).
        // At the property (ajv's getErrorPath takes a property name as a string too, escaping it as a pointer segment).
        if (known.complete) cxt.error(false, undefined, { instancePath: known.propertyName as unknown as Code });
        else union();
        gen.endIf();
      },
      union,
    );
    cxt.ok(valid);
  },
};
