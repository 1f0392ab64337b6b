import { describe, expect, it } from 'vitest';
import { compileContract } from '../../src/core/compile-contract.js';
import { compileSpec } from '../../src/core/compile-spec.js';
import { parseSpec } from '../../src/core/load-spec.js';

const source = [
  'openapi: 3.0.3',
  'info: { title: t, version: "1" }',
  'paths: {}',
  'components:',
  '  schemas:',
  '    Reset:',
  '      type: string',
  '      format: timestamp',
  '',
].join('\n');
const reset = ['components', 'schemas', 'Reset'];

describe('a format ajv does not know (format is an open value in OpenAPI)', () => {
  it('is an annotation when validating: any string passes, another type does not', () => {
    const compiled = compileSpec(parseSpec('s.yaml', source));
    expect(compiled.validateAt(reset, 'whenever')).toEqual([]);
    expect(compiled.validateAt(reset, 3)).not.toEqual([]);
    expect(() => compileContract(parseSpec('s.yaml', source))).not.toThrow();
  });

  it('is refused where lint compiles, to catch a misspelt one', () => {
    const compiled = compileSpec(parseSpec('s.yaml', source), undefined, { unknownFormats: 'refuse' });
    expect(() => compiled.validatorAt(reset)).toThrow(/unknown format "timestamp"/);
  });
});
