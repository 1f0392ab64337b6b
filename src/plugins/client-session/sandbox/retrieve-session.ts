// GET /client-session in the sandbox: the stored session for a client token (the demo session without one). What
// the spec cannot say: X-API-KEY takes any value, X-API-VERSION must be 2.4 (the version the spec describes).
import type { SandboxRequest, SandboxResponse } from '../../../sandbox/sandbox-http.js';

export function retrieveClientSession(
  sessions: ReadonlyMap<string, Record<string, unknown>>,
  request: SandboxRequest,
  demoSession: Record<string, unknown>,
): SandboxResponse {
  if (!header(request, 'x-api-key')) return { status: 401, body: { message: 'X-API-KEY is required' } };
  const version = header(request, 'x-api-version');
  if (version !== '2.4')
    return {
      status: 400,
      body: { message: `X-API-VERSION must be 2.4${version ? `, not ${version}` : ' (the header is missing)'}` },
    };
  const token = request.query.get('clientToken');
  if (token === null) return { status: 200, body: demoSession };
  const session = sessions.get(token);
  if (!session) return { status: 404, body: { message: 'no client session for this client token' } };
  return { status: 200, body: session };
}

function header(request: SandboxRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
