// The client-session example in the sandbox: the engine on its spec, with one hook (retrieve-session.ts) answering
// from the demo session (the spec's paymentMethodUnderOrder example, under the demo client token) and the sessions
// of --sessions FILE, each checked against the ClientSession schema as an answer (read-write-views.ts), the
// paymentMethod placement rule said in its own words. Its spec has no resource a create makes: the store stays empty.
import { readFile } from 'node:fs/promises';
import { compileSpec, type SchemaError } from '../../../core/compile-spec.js';
import { ContractsError } from '../../../core/errors.js';
import { resolvePointer } from '../../../core/load-spec.js';
import { responseSpec } from '../../../core/read-write-views.js';
import { answeredBy } from '../../../sandbox/plugin-answer.js';
import type { PluginSandbox, SandboxPlugin, SandboxSetup } from '../../../sandbox/sandbox-plugin.js';
import { retrieveClientSession } from './retrieve-session.js';

export const demoClientToken = 'demo-client-token';

const sessionSchema = ['paths', '/client-session', 'get', 'responses', '200', 'content', 'application/json', 'schema'];
const exampleValue =
  '#/paths/~1client-session/get/responses/200/content/application~1json/examples/paymentMethodUnderOrder/value';

export const clientSessionSandbox: SandboxPlugin = {
  async start({ spec, options }: SandboxSetup): Promise<PluginSandbox> {
    const demoSession = structuredClone(resolvePointer(spec.document, exampleValue)) as Record<string, unknown>;
    const seeded = new Map<string, Record<string, unknown>>([[demoClientToken, demoSession]]);
    const file = options.sessionsFile;
    if (typeof file === 'string') {
      // Sessions are what the sandbox answers with: judged as responses (read-write-views.ts).
      const compiled = compileSpec(responseSpec(spec));
      for (const [token, session] of await readSessions(file, (value) => compiled.validateAt(sessionSchema, value)))
        seeded.set(token, session);
    }
    let sessions = new Map(seeded);
    return {
      hooks: { retrieveClientSession: answeredBy((request) => retrieveClientSession(sessions, request, demoSession)) },
      reset() {
        sessions = new Map(seeded);
      },
    };
  },
};

async function readSessions(
  file: string,
  validate: (value: unknown) => SchemaError[],
): Promise<[string, Record<string, unknown>][]> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ContractsError(
      'INPUT_NOT_READABLE',
      code === 'ENOENT'
        ? `sessions file not found: ${file}`
        : `cannot read sessions file ${file}: ${code ?? (error as Error).message}`,
    );
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new ContractsError(
      'INPUT_NOT_READABLE',
      `${file} must hold an object: { "<client token>": <client session>, … }`,
    );
  }
  return Object.entries(parsed as Record<string, unknown>).map(([token, session], index) => {
    const errors = validate(session);
    // Client tokens are credentials: the message names the entry by position, not by token.
    if (errors.length > 0) {
      // The placement rule fails as an anyOf: say it in its own words rather than as one of its branches.
      const placement = errors.some((error) => error.keyword === 'anyOf' && error.instancePath === '');
      const reason = placement
        ? 'paymentMethod is missing: put it at the top level, under order, or both'
        : errors[0]!.message;
      throw new ContractsError(
        'INPUT_NOT_READABLE',
        `${file}: session #${index + 1} does not match the ClientSession schema: ${reason}`,
      );
    }
    return [token, session as Record<string, unknown>];
  });
}
