// What other tools get: no `$ref` they could follow to a file or URL, and no discriminator mapping that names a file
// or points at nothing (DigitalOcean's published description maps to `models/…yml` files it does not ship, and to
// `#/reserved_ip_action_assign`, which is not there: openapi-typescript stopped on both).
import { describe, expect, it } from 'vitest';
import { documentForTools } from '../../src/core/document-for-tools.js';

describe('documentForTools', () => {
  it('renames a $ref to a file or URL left in literal data, and keeps local ones', () => {
    const copy = documentForTools({
      example: { $ref: '/etc/passwd' },
      default: { $ref: 'http://127.0.0.1:9/x' },
      schema: { $ref: '#/components/schemas/A' },
    });
    expect(copy).toEqual({
      example: { '\\$ref': '/etc/passwd' },
      default: { '\\$ref': 'http://127.0.0.1:9/x' },
      schema: { $ref: '#/components/schemas/A' },
    });
  });

  it("renames an Example Object's externalValue, a URL openapi-typescript fetched (PeerTube's description)", () => {
    const copy = documentForTools({ examples: { nightly: { externalValue: 'http://127.0.0.1:9/api/v1/config' } } });
    expect(copy).toEqual({ examples: { nightly: { '\\externalValue': 'http://127.0.0.1:9/api/v1/config' } } });
  });

  it('keeps only the mapping values that are schema names or local pointers that resolve', () => {
    const document = {
      components: { schemas: { Cat: { type: 'object' } } },
      discriminator: {
        propertyName: 'kind',
        mapping: {
          cat: '#/components/schemas/Cat',
          named: 'Cat',
          dangling: '#/reserved_ip_action_assign',
          file: 'models/reserved_ip_actions.yml#/assign',
          url: 'https://example.com/dog.json',
        },
      },
    };
    expect(documentForTools(document).discriminator.mapping).toEqual({
      cat: '#/components/schemas/Cat',
      named: 'Cat',
    });
    expect(document.discriminator.mapping.file).toBe('models/reserved_ip_actions.yml#/assign');
  });
});
