// A header name HTTP cannot carry (Notion's parameter `""`, a RapidAPI description's apiKey header
// `ADVICEment API Key`) ended the whole fuzz run at its first request ("cannot send"). Now an optional such parameter
// is never sent, an operation that needs one is skipped with the reason, and a run that could exercise nothing fails.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { type ScratchProject, scratchProject } from '../helpers/user-project.js';

const spec = (paths: string) => `openapi: 3.0.3
info: { title: odd headers, version: "1" }
paths:
${paths}
components:
  securitySchemes:
    odd: { type: apiKey, in: header, name: ADVICEment API Key }
`;
const notes = `  /notes:
    get:
      operationId: listNotes
      parameters:
        - { name: "", in: header, schema: { type: string } }
        - { name: limit, in: query, schema: { type: integer, minimum: 1, maximum: 5 } }
      responses:
        "200": { description: ok, content: { application/json: { schema: { type: array } } } }
        "400": { description: a bad limit }`;
const compile = `  /compile:
    post:
      operationId: compile
      security: [{ odd: [] }]
      responses:
        "200": { description: ok, content: { application/json: { schema: { type: array } } } }`;

let project: ScratchProject;

beforeAll(async () => {
  project = await scratchProject(
    'contracts-unsendable-',
    {
      'both.yaml': spec(`${notes}\n${compile}`),
      'odd-only.yaml': spec(compile),
      'contracts.config.yaml':
        'apis:\n  - { name: both, spec: both.yaml, credentials: [{ env: ODD_KEY, securityScheme: odd }] }\n' +
        '  - { name: odd-only, spec: odd-only.yaml, credentials: [{ env: ODD_KEY, securityScheme: odd }] }\n',
    },
    (req, res) => {
      const limit = new URL(req.url ?? '/', 'http://x').searchParams.get('limit');
      if (limit !== null && !/^[1-5]$/.test(limit)) return void res.writeHead(400).end();
      res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
    },
  );
});
afterAll(() => project.stop());

const fuzz = (api: string) =>
  // One variable for two APIs: the user allows it, as it carries neither API's prefix.
  runCli(
    [
      'fuzz',
      '--api',
      api,
      '--base-url',
      project.baseUrl,
      '--max-examples',
      '3',
      '--seed',
      '1',
      '--allow-env',
      'ODD_KEY',
    ],
    {
      cwd: project.dir,
      env: { ODD_KEY: 'odd-key-value-1234' },
    },
  );

it('fuzzes what can be sent and skips, with the reason, what cannot', async () => {
  const result = await fuzz('both');
  expect(result.stderr).not.toContain('cannot send');
  expect(result.stdout).toMatch(/✓ listNotes\s+\d+ passed/);
  expect(result.stdout).toContain(
    `- skipped: not_a_server_error, status_code_conformance, positive_data_acceptance, ignored_auth: the spec's header "ADVICEment API Key" is no HTTP header name, so no request can carry it`,
  );
  expect(result.code).toBe(0);
});

it('fails a run that could exercise nothing, saying so', async () => {
  const result = await fuzz('odd-only');
  expect(result.stderr).toContain(
    'contracts fuzz: nothing was exercised: every check was skipped (the reasons are above)',
  );
  expect(result.code).toBe(1);
});
