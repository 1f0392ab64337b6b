// Start-up (issue #47, speed): the Swagger 2.0 converter (swagger2openapi, with an HTTP/2 client and a second YAML
// parser behind it) was loaded by every command at import, a seventh of `contracts sandbox`'s start-up on a 3.x
// spec. It is loaded when a 2.0 document is read, and only then. Each case loads a spec in a fresh process and asks
// Node's module cache whether the converter is in it.
import { execFile } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { root } from '../../helpers/paths.js';

function converterLoaded(spec: string): Promise<boolean> {
  const script = `
    import { createRequire } from 'node:module';
    const { loadSpec } = await import(${JSON.stringify(`${root}/src/core/load-spec.ts`)});
    await loadSpec(${JSON.stringify(`${root}/${spec}`)});
    const loaded = Object.keys(createRequire(import.meta.url).cache);
    console.log(JSON.stringify(loaded.some((file) => file.includes('/swagger2openapi/'))));
  `;
  return new Promise((resolve, reject) =>
    execFile(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      { cwd: root, encoding: 'utf8', timeout: 60_000 },
      (error, out) => (error ? reject(error) : resolve(JSON.parse(out.trim().split('\n').at(-1)!) as boolean)),
    ),
  );
}

describe('the Swagger 2.0 converter', () => {
  it.each([
    { spec: 'tests/fixtures/planted/notes/openapi.yaml', version: '3.1', loaded: false },
    { spec: 'tests/fixtures/swagger2/pets-3.0.yaml', version: '3.0', loaded: false },
    { spec: 'tests/fixtures/swagger2/pets-2.0.yaml', version: '2.0', loaded: true },
  ])('is loaded by reading a $version spec: $loaded', { timeout: 90_000 }, async ({ spec, loaded }) => {
    expect(await converterLoaded(spec)).toBe(loaded);
  });
});
