// specFromDocument: a parsed document (no text, no file) made a spec by the same checks load-spec.ts applies to a
// file's, for contracts-kit/msw in a browser.
import { describe, expect, it } from 'vitest';
import { specFromDocument } from '../../src/core/document-spec.js';
import { ContractsError } from '../../src/core/errors.js';
import { maxNestingDepth } from '../../src/core/nesting-depth.js';

const info = { title: 't', version: '1' };

describe('specFromDocument', () => {
  it('upgrades a 3.0 document in memory and keeps its version', () => {
    const document = {
      openapi: '3.0.3',
      info,
      paths: {},
      components: { schemas: { A: { type: 'string', nullable: true } } },
    };
    const spec = specFromDocument('doc', document);
    expect({
      version: spec.sourceVersion,
      schema: spec.document.components?.schemas?.A,
      source: JSON.parse(spec.source),
    }).toEqual({ version: '3.0.3', schema: { type: ['string', 'null'] }, source: document });
  });

  it("copies the caller's document rather than holding it", () => {
    const document = { openapi: '3.1.0', info, paths: {} };
    const spec = specFromDocument('doc', document);
    expect(spec.document).toEqual(document);
    expect(spec.document).not.toBe(document);
  });

  it.each([
    ['not an object', [], 'SPEC_NOT_OPENAPI_31', 'not an OpenAPI document: doc is not an object'],
    [
      'a version it does not read',
      { openapi: '4.0.0', info, paths: {} },
      'SPEC_NOT_OPENAPI_31',
      'only OpenAPI 3.0, 3.1 and 3.2 are supported, found openapi: 4.0.0',
    ],
    [
      'a $ref to nothing',
      { openapi: '3.1.0', info, paths: {}, components: { schemas: { A: { $ref: '#/components/schemas/B' } } } },
      'SPEC_BROKEN_REF',
      '$ref "#/components/schemas/B" does not resolve: nothing at that pointer',
    ],
  ])('refuses %s in one line', (_name, document, code, message) => {
    expect(() => specFromDocument('doc', document)).toThrow(new ContractsError(code as never, message));
  });

  it('refuses nesting past the bound before copying it (no stack overflow)', () => {
    let deep: unknown = {};
    for (let depth = 0; depth < maxNestingDepth + 10; depth++) deep = { a: deep };
    expect(() => specFromDocument('doc', { openapi: '3.1.0', info, paths: {}, 'x-deep': deep })).toThrow(
      ContractsError,
    );
  });
});
