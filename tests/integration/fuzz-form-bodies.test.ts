// Operations that take only a form or multipart body get one (Stripe's and Twilio's POSTs went out with none): on a
// small service of our own that decodes each as the platform does, the valid requests carry the required field.
import { mkdtemp, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMain } from '../helpers/run-main.js';

const body = (type: string) => `      requestBody:
        required: true
        content:
          ${type}:
            schema: { type: object, required: [To], properties: { To: { type: string, minLength: 1, maxLength: 10 }, Count: { type: integer, minimum: 1, maximum: 5 } } }
      responses: { "201": { description: sent }, "400": { description: bad } }`;
const spec = `openapi: 3.1.0
info: { title: messages, version: "1" }
paths:
  /form:
    post:
      operationId: sendForm
${body('application/x-www-form-urlencoded')}
  /multipart:
    post:
      operationId: sendMultipart
${body('multipart/form-data')}
`;

describe('contracts fuzz on form and multipart bodies', () => {
  it.each([
    ['a correct server passes', true, 0, /^(?![\s\S]*accepted a request the spec forbids)/],
    [
      'a server that ignores Count is caught',
      false,
      1,
      /sendForm accepted a request the spec forbids \(body: \/Count must be <= 5\)/,
    ],
  ] as const)(
    '%s; bodies go in their media type, decodable, with the required field',
    async (_name, checksCount, exit, verdict) => {
      const project = await mkdtemp(path.join(os.tmpdir(), 'contracts-forms-'));
      await writeFile(path.join(project, 'api.yaml'), spec);
      await writeFile(path.join(project, 'contracts.config.yaml'), 'apis:\n  - name: messages\n    spec: api.yaml\n');
      const seen: { path: string; type: string; to: string | null }[] = [];
      const server = http.createServer(async (req, res) => {
        const chunks: Buffer[] = [];
        for await (const chunk of req) chunks.push(chunk as Buffer);
        const type = req.headers['content-type'] ?? '';
        let to: string | null = null;
        let count: string | null = null;
        try {
          const form = await new Response(Buffer.concat(chunks), { headers: { 'content-type': type } }).formData();
          to = form.get('To') as string | null;
          count = form.get('Count') as string | null;
        } catch {
          // not a form: refused below
        }
        seen.push({ path: req.url ?? '', type, to });
        // To of 1 to 10 characters (code points, as JSON Schema counts), Count an integer 1 to 5.
        const valid =
          to !== null &&
          [...to].length >= 1 &&
          [...to].length <= 10 &&
          (!checksCount || count === null || /^[1-5]$/.test(count));
        res.writeHead(valid ? 201 : 400).end();
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      try {
        const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
        const { code, output } = await runMain(
          ['fuzz', '--api', 'messages', '--base-url', baseUrl, '--max-examples', '10', '--seed', '4'],
          project,
        );
        const decoded = (route: string, type: RegExp) =>
          seen.filter((request) => request.path === route && type.test(request.type) && request.to !== null);
        expect(decoded('/form', /^application\/x-www-form-urlencoded$/).length, output).toBeGreaterThan(0);
        expect(decoded('/multipart', /^multipart\/form-data; boundary=/).length, output).toBeGreaterThan(0);
        // No false finding (a type break a form cannot carry is not sent as one); the broken rule is found.
        expect(output).toMatch(verdict);
        expect(code, output).toBe(exit);
      } finally {
        await new Promise((resolve) => server.close(resolve));
      }
    },
    60_000,
  );
});
