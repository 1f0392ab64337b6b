// `contracts diff` on Swagger 2.0: two 2.0 revisions compare as their 3.x readings do, each change at its 2.0 line;
// a 2.0 description and its faithful OpenAPI 3 successor differ in nothing a client sees.
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

const base = 'tests/fixtures/swagger2/pets-2.0.yaml';

describe('contracts diff on Swagger 2.0 (real process)', () => {
  it('reports the breaking changes between two 2.0 revisions at their 2.0 lines', async () => {
    const result = await runCli(['diff', base, 'tests/fixtures/swagger2/pets-2.0-revised.yaml']);
    expect(result.stdout.trim().split('\n')).toEqual([
      'tests/fixtures/swagger2/pets-2.0-revised.yaml:102:11 error request-max-lowered request body /caption: maxLength 20 → 10 [POST /pets/{petId}/photo (multipart/form-data)]',
      'tests/fixtures/swagger2/pets-2.0.yaml:44:13 error request-enum-value-removed query parameter tags /[]: no longer accepts "bird" [GET /pets]',
    ]);
    expect(result.code).toBe(1);
  });

  it('reports nothing between a 2.0 description and its OpenAPI 3.0 conversion', async () => {
    const result = await runCli(['diff', base, 'tests/fixtures/swagger2/pets-3.0.yaml']);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/0 changes/);
    expect(result.code).toBe(0);
  });
});
