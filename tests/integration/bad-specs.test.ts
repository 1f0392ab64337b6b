// A spec that is missing, not YAML, has a broken $ref, is Swagger 1.2 (or 2.0 OpenAPI 3 cannot say) or is a YAML alias bomb: every command that takes a spec
// exits 2 with one clear line, and starts nothing.
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

const specs: [string, string, RegExp][] = [
  ['missing', 'nope.yaml', /spec not found: nope\.yaml$/],
  ['not YAML', 'tests/fixtures/specs/not-yaml.yaml', /not-yaml\.yaml:4:1: not valid YAML or JSON: /],
  [
    'with a broken $ref',
    'tests/fixtures/specs/broken-ref.yaml',
    /broken-ref\.yaml:32:17: \$ref "#\/components\/schemas\/Itme" does not resolve/,
  ],
  [
    'Swagger 1.2',
    'tests/fixtures/specs/swagger-12.yaml',
    /swagger-12\.yaml:2:1: only Swagger 2\.0 and OpenAPI 3\.0, 3\.1 and 3\.2 are supported, found swagger: 1\.2$/,
  ],
  [
    'Swagger 2.0 that OpenAPI 3 cannot say (collectionFormat: tsv)',
    'tests/fixtures/swagger2/tsv-2.0.yaml',
    /tsv-2\.0\.yaml:13:11: collectionFormat: tsv cannot be read: OpenAPI 3 has no style for tab-separated values$/,
  ],
  [
    'that is a YAML alias bomb',
    'tests/fixtures/specs/alias-bomb.yaml',
    /alias-bomb\.yaml:5:\d+: YAML aliases \(\*name\) expand too far: refusing the document \(an alias bomb\?\)$/,
  ],
];

const commands: [string, (file: string) => string[]][] = [
  ['lint', (file) => ['lint', file]],
  ['check', (file) => ['check', '--api', 'client-session', '--spec', `client-session=${file}`]],
  ['validate', (file) => ['validate', '--spec', file, '--method', 'GET', '--path', '/x', '--status', '200']],
  [
    'mock',
    (file) => ['mock', '--api', 'client-session', '--port-client-session', '0', '--spec', `client-session=${file}`],
  ],
];

describe.each(commands)('contracts %s with a bad spec', (command, args) => {
  it.each(specs)('exits 2 with one clear line for a spec %s', async (_kind, file, message) => {
    const result = await runCli(args(file));
    const lines = result.stderr
      .trim()
      .split('\n')
      .filter((line) => !/linted:/.test(line));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^contracts ${command}: `));
    expect(lines[0]).toMatch(message);
    expect(result.stdout).not.toContain('Prism pid');
    expect(result.code).toBe(2);
  });
});
