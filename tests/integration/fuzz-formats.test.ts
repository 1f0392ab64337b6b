// A user's service whose create takes a required `format: date` field. Before formats were generated, fuzz filled it
// with "a", the validators refused every such body, no valid create was ever sent, and the create's positive checks
// were settled as "the sequence never reached it". Now the server receives valid creates; and an operation that no
// valid request can reach says so, for that operation, and is not counted as passed.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { type ScratchProject, scratchProject } from '../helpers/user-project.js';

const spec = (dueDate: string) => `openapi: 3.0.3
info: { title: tasks, version: "1" }
paths:
  /tasks:
    post:
      operationId: createTask
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [title, dueDate]
              properties:
                title: { type: string, minLength: 1, maxLength: 40 }
                dueDate: ${dueDate}
      responses:
        "201":
          description: Created
          content: { application/json: { schema: { type: object, properties: { id: { type: integer } } } } }
        "400": { description: Not a task }
`;

/** RFC 3339 full-date, judged without ajv: the calendar date must exist. */
const isDate = (value: unknown) =>
  typeof value === 'string' &&
  /^\d{4}-\d{2}-\d{2}$/.test(value) &&
  new Date(`${value}T00:00:00Z`).toJSON()?.slice(0, 10) === value;

/** A server that keeps the spec: 201 to a valid task (its dueDate at most `maxDate` characters), else 400. */
function tasksServer(valid: unknown[], maxDate = 10) {
  return (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => {
    let text = '';
    req.on('data', (chunk) => {
      text += chunk;
    });
    req.on('end', () => {
      let body: { title?: unknown; dueDate?: unknown } | undefined;
      try {
        body = JSON.parse(text) as typeof body;
      } catch {
        body = undefined;
      }
      const ok =
        body !== null &&
        typeof body === 'object' &&
        typeof body.title === 'string' &&
        body.title.length > 0 &&
        body.title.length <= 40 &&
        isDate(body.dueDate) &&
        String(body.dueDate).length <= maxDate;
      if (!ok) return void res.writeHead(400).end();
      valid.push(body);
      res.writeHead(201, { 'content-type': 'application/json' }).end('{"id":1}');
    });
  };
}

interface Report {
  results: { operation: string; check: string; status: string; reason?: string; findings: unknown[] }[];
}

async function fuzz(project: ScratchProject) {
  const result = await runCli(
    ['fuzz', '--base-url', project.baseUrl, '--max-examples', '10', '--seed', '7', '--report', 'json:fuzz.json'],
    { cwd: project.dir },
  );
  const report = JSON.parse(await readFile(path.join(project.dir, 'fuzz.json'), 'utf8')) as Report;
  return { ...result, report };
}

describe('fuzz against a service with a format: date field', () => {
  const received: unknown[] = [];
  let project: ScratchProject;
  beforeAll(async () => {
    project = await scratchProject(
      'contracts-fuzz-formats-',
      {
        'tasks.yaml': spec('{ type: string, format: date }'),
        'contracts.config.yaml': 'apis:\n  - name: tasks\n    spec: tasks.yaml\n',
      },
      tasksServer(received),
    );
  });
  afterAll(() => project.stop());

  it('sends valid creates, and the create passes the checks that need one', async () => {
    const { code, stdout, report } = await fuzz(project);
    expect(received.length).toBeGreaterThan(0);
    // The stateful walk's checks say what the spec lacks (no GET of a task, no list): only those may be skipped.
    const notExercised = stdout.split('\n').filter((line) => line.includes('not exercised'));
    expect(notExercised.map((line) => line.trim().split(':')[1]?.trim())).toEqual([
      'ensure_resource_availability',
      'listed_after_create',
    ]);
    const positive = report.results.find((r) => r.operation === 'createTask' && r.check === 'positive_data_acceptance');
    expect(positive).toEqual({
      api: 'tasks',
      operation: 'createTask',
      check: 'positive_data_acceptance',
      status: 'passed',
      findings: [],
      durationMs: expect.any(Number),
    });
    expect(code).toBe(0);
  });
});

describe('fuzz against an operation no valid request can reach', () => {
  const received: unknown[] = [];
  let project: ScratchProject;
  beforeAll(async () => {
    // No string of at most 3 characters is a date: whatever is generated breaks the spec.
    project = await scratchProject(
      'contracts-fuzz-no-valid-',
      {
        'tasks.yaml': spec('{ type: string, format: date, maxLength: 3 }'),
        'contracts.config.yaml': 'apis:\n  - name: tasks\n    spec: tasks.yaml\n',
      },
      tasksServer(received, 3),
    );
  });
  afterAll(() => project.stop());

  it('says for that operation that no valid request could be generated, and does not pass it', async () => {
    const { code, stdout, report } = await fuzz(project);
    const reason =
      'no valid request to createTask could be generated (body/dueDate must match format "date", in the smallest valid request): not tested';
    expect(stdout).toContain(`✗ not exercised: 2 checks: ${reason}`);
    expect(stdout).toMatch(/^ {2}✗ createTask /m);
    const positive = report.results.find((r) => r.operation === 'createTask' && r.check === 'positive_data_acceptance');
    expect(positive).toEqual({
      api: 'tasks',
      operation: 'createTask',
      check: 'positive_data_acceptance',
      status: 'failed',
      reason,
      findings: [
        {
          check: 'positive_data_acceptance',
          severity: 'error',
          operation: 'createTask',
          instancePath: '',
          message: `could not be exercised: ${reason}`,
        },
      ],
      durationMs: 0,
    });
    expect(received).toEqual([]);
    expect(code).toBe(1);
  });
});
