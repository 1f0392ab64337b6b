// A user's project in a scratch folder (its files: a spec, contracts.config.yaml) and a loopback server standing in
// for the API it describes, for tests that run the CLI there.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

export interface ScratchProject {
  dir: string;
  baseUrl: string;
  stop(): Promise<void>;
}

export async function scratchProject(
  prefix: string,
  files: Record<string, string>,
  handler: http.RequestListener,
): Promise<ScratchProject> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  for (const [name, text] of Object.entries(files)) await writeFile(path.join(dir, name), text);
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    dir,
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async stop() {
      await new Promise((resolve) => server.close(resolve));
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** A secured one-operation spec (GET /notes, an API key in X-Notes-Key) and a config whose CONTRACTS_NOTES_KEY feeds the key. */
export const notesProject = {
  'notes.yaml': `openapi: 3.0.3
info: { title: notes, version: "1" }
security: [{ key: [] }]
paths:
  /notes:
    get:
      operationId: listNotes
      summary: List the notes
      responses:
        "200":
          description: The notes
          content: { application/json: { schema: { type: array, items: { type: string } } } }
        "401": { description: No key }
components:
  securitySchemes:
    key: { type: apiKey, in: header, name: X-Notes-Key }
`,
  'contracts.config.yaml':
    'apis:\n  - name: notes\n    spec: notes.yaml\n    credentials:\n      - { env: CONTRACTS_NOTES_KEY, securityScheme: key }\n',
};

/** A one-API project: the spec as `NAME.yaml` and a config naming it, beside a stand-in API. */
export function scratchApi(
  prefix: string,
  name: string,
  spec: string,
  handler: http.RequestListener,
): Promise<ScratchProject> {
  return scratchProject(
    prefix,
    { [`${name}.yaml`]: spec, 'contracts.config.yaml': `apis:\n  - name: ${name}\n    spec: ${name}.yaml\n` },
    handler,
  );
}

/** A stand-in's handler given each request's whole body as text, to judge what the run sent. */
export function onBodyText(
  answer: (text: string, response: http.ServerResponse, request: http.IncomingMessage) => void,
): http.RequestListener {
  return (request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString()));
    request.on('end', () => answer(text, response, request));
  };
}
