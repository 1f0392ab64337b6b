// Lint judges an example by the spec's own validators when the direction view leaves its schema as it is
// (src/lint/view-sharing.ts), and by one validator per compile key (src/lint/validator-per-key.ts): both must give the
// answers the view's own validators, and each path's own, would give.
import { describe, expect, it } from 'vitest';
import { compileSpec } from '../../src/core/compile-spec.js';
import { parseSpec } from '../../src/core/load-spec.js';
import { directionViews } from '../../src/core/read-write-views.js';
import { validatorPerKey } from '../../src/lint/validator-per-key.js';
import { sharedWithView } from '../../src/lint/view-sharing.js';

const spec = (extra = '') => `openapi: 3.0.3
info: { title: t, version: "1" }
paths: {}
components:
  schemas:
    User:
      type: object
      required: [id, name]
      properties:
        id: { type: integer, readOnly: true }
        name: { type: string }
    Team:
      type: object
      properties:
        lead: { $ref: "#/components/schemas/Member" }
    Member:
      allOf: [{ $ref: "#/components/schemas/User" }]
    Holder:
      type: object
      properties:
        user:
          type: object
          required: [id]
          properties:
            id: { type: integer, readOnly: true }
    Plain:
      type: object
      required: [name]
      properties:
        name: { type: string }
        tags: { type: array, items: { $ref: "#/components/schemas/Tag" } }
    Tag: { type: string }
${extra}`;

const schemaPath = (name: string, ...rest: string[]) => ['components', 'schemas', name, ...rest];

describe('which schemas a direction view leaves as they are', () => {
  const loaded = parseSpec('spec.yaml', spec());
  const views = directionViews(loaded)!;
  const shared = sharedWithView(loaded.document, views.request.document);

  it.each([
    ['a schema the view changed', schemaPath('User'), false],
    ['a schema reaching it through two $refs', schemaPath('Team'), false],
    ['the property of that schema holding the $ref', schemaPath('Team', 'properties', 'lead'), false],
    ['a schema holding a changed schema in its own content', schemaPath('Holder'), false],
    ['a property of a changed schema that reaches no change', schemaPath('User', 'properties', 'name'), true],
    ['a schema reaching only unchanged schemas', schemaPath('Plain'), true],
    ['a schema with no $ref or change at all', schemaPath('Tag'), true],
    ['a path to nothing', schemaPath('Missing'), false],
  ])('%s: %s', (_name, path, expected) => {
    expect(shared(path)).toBe(expected);
  });

  it('shares everything with a view that is the document itself (the response view: nothing is writeOnly)', () => {
    expect(views.response.document).toBe(loaded.document);
    expect(sharedWithView(loaded.document, views.response.document)(schemaPath('User'))).toBe(true);
  });

  it.each([
    ['an $id, which moves the base its $refs resolve against', '    Other: { $id: "https://example.com/other" }\n'],
    ['a $dynamicRef, resolved at run time', '    Other: { $dynamicRef: "#meta" }\n'],
  ])('shares nothing in a document with %s', (_name, extra) => {
    const other = parseSpec('spec.yaml', spec(extra));
    const otherViews = directionViews(other)!;
    expect(sharedWithView(other.document, otherViews.request.document)(schemaPath('Tag'))).toBe(false);
  });

  it('counts a $ref it cannot follow (one in literal data naming nothing) as a change', () => {
    const other = parseSpec('spec.yaml', spec('    Odd: { type: object, example: { $ref: "#/nowhere" } }\n'));
    const otherViews = directionViews(other)!;
    const otherShared = sharedWithView(other.document, otherViews.request.document);
    expect([otherShared(schemaPath('Odd')), otherShared(schemaPath('Tag'))]).toEqual([false, true]);
  });

  it('judges a shared schema as the view does, and a changed one as the spec does not', () => {
    const compiled = compileSpec(loaded);
    const request = compileSpec(views.request, views.request.document);
    for (const [path, value] of [
      [schemaPath('Plain'), { name: 1 }],
      [schemaPath('Plain'), { name: 'a', tags: ['x'] }],
    ] as const)
      expect(compiled.validateAt(path, value)).toEqual(request.validateAt(path, value));
    expect(compiled.validateAt(schemaPath('User'), { name: 'a' })).not.toEqual([]);
    expect(request.validateAt(schemaPath('User'), { name: 'a' })).toEqual([]);
  });
});

describe('one validator per compile key', () => {
  const twice = `openapi: 3.1.0
info: { title: t, version: "1" }
paths: {}
components:
  schemas:
    A: { type: object, required: [n], properties: { n: { type: integer, minimum: 1 } } }
    B: { type: object, required: [n], properties: { n: { type: integer, minimum: 1 } } }
`;

  it('answers for a path with the validator of the first path of its key, with the same errors', () => {
    const compiled = compileSpec(parseSpec('spec.yaml', twice));
    const judge = validatorPerKey(compiled);
    const cases = [{ n: 0 }, {}, { n: 'x' }, { n: 2 }];
    const mine = cases.flatMap((value) => [judge(schemaPath('A'), value), judge(schemaPath('B'), value)]);
    const own = cases.flatMap((value) => [
      compiled.validateAt(schemaPath('A'), value),
      compiled.validateAt(schemaPath('B'), value),
    ]);
    expect(mine.map((errors) => errors.map(({ schemaPath: _, ...rest }) => rest))).toEqual(
      own.map((errors) => errors.map(({ schemaPath: _, ...rest }) => rest)),
    );
    expect(mine[2]).toEqual([
      {
        instancePath: '',
        schemaPath: '/required',
        keyword: 'required',
        message: 'body must have required property "n"',
        params: { missingProperty: 'n' },
      },
    ]);
  });
});
