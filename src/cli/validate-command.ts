// `contracts validate`: checks one recorded response, or every exchange of a HAR capture, against a spec.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { apiNames, apis, selectApis, specPath } from '../apis.js';
import { ContractsError } from '../core/errors.js';
import type { Exchange } from '../core/exchange.js';
import type { Finding } from '../core/finding.js';
import { exitCodes, type Command, type Io, type ParsedOptions } from './command.js';
import { requireChoice } from './parse-args.js';

export const validateCommand: Command = {
  name: 'validate',
  summary: 'Check one recorded response, or a HAR capture, against a spec',
  usage: '(--api NAME | --spec FILE) ((--operation ID | --method M --path P) --status N [--header H]... [--body FILE|-] | --har FILE)',
  description: [
    'Runs the per-exchange checks (status code, content type, body schema, response headers, paymentMethod',
    'placement) on responses you already have: one given by its parts, or every exchange of a HAR capture',
    '(each matched to its operation by method and path; an exchange that matches none is reported).',
  ].join('\n'),
  options: [
    { name: 'api', type: 'string', valueName: 'name', description: `The spec of a shipped API: ${apiNames.join(', ')}` },
    { name: 'spec', type: 'string', valueName: 'file', description: 'Any OpenAPI 3.1 file instead of --api' },
    { name: 'operation', type: 'string', valueName: 'id', description: 'operationId of the response (instead of --method and --path)' },
    { name: 'method', type: 'string', valueName: 'method', description: 'HTTP method of the request' },
    { name: 'path', type: 'string', valueName: 'path', description: 'Concrete request path, e.g. /repos/o/r/hooks/42' },
    { name: 'status', type: 'string', valueName: 'code', description: 'Response status code' },
    { name: 'header', type: 'string', valueName: 'Name: value', multiple: true, description: 'A response header' },
    { name: 'body', type: 'string', valueName: 'file|-', description: 'Response body from a file, or - for standard input' },
    { name: 'har', type: 'string', valueName: 'file', description: 'Check every exchange of a HAR capture' },
    { name: 'strict', type: 'boolean', description: 'Also report response fields the spec does not list' },
    { name: 'format', type: 'string', valueName: 'text|json', description: 'Output format', default: 'text' },
  ],
  examples: [
    { command: "contracts validate --api client-session --operation retrieveClientSession --status 200 --header 'Content-Type: application/json' --body session.json", description: 'One recorded response' },
    { command: "curl -s … | contracts validate --api repository-webhooks --method GET --path /repos/o/r/hooks/42 --status 200 --header 'content-type: application/json' --body -", description: 'A body from standard input' },
    { command: 'contracts validate --api repository-webhooks --har staging.har --format json', description: 'Every exchange of a browser or proxy capture' },
  ],
  async run(options, positionals, io) {
    if (positionals.length > 0) throw new ContractsError('USAGE', `unexpected argument "${positionals[0]}"`);
    const format = requireChoice('format', options.format, ['text', 'json']);
    const specFile = resolveSpec(options, io);
    const [{ loadSpec }, { compileContract }, { checkExchange }] = await Promise.all([
      import('../core/load-spec.js'),
      import('../core/compile-contract.js'),
      import('../core/check-exchange.js'),
    ]);
    if (options.har !== undefined) {
      for (const name of ['operation', 'method', 'path', 'status', 'header', 'body']) {
        if (options[name] !== undefined) throw new ContractsError('USAGE', `--har checks whole captures: it does not go with --${name}`);
      }
    }
    const single = options.har === undefined ? await singleExchange(options, io) : undefined;
    const contract = compileContract(await loadSpec(specFile.file, specFile.display), { strict: Boolean(options.strict) });
    const strict = Boolean(options.strict);

    if (single) {
      const result = checkExchange(contract, single.exchange, { strict, ...(single.operationId ? { operationId: single.operationId } : {}) });
      const failed = result.findings.some((finding) => finding.severity === 'error');
      if (format === 'json') io.out(JSON.stringify({ operation: result.operationId ?? null, applied: result.applied, findings: result.findings }, null, 2));
      else io.out(describe(result.operationId, result.applied.length, result.findings));
      return failed ? exitCodes.failed : exitCodes.ok;
    }

    const { parseHar } = await import('../runner/har.js');
    const harFile = path.resolve(io.cwd, String(options.har));
    const exchanges = parseHar(await readInput(harFile, String(options.har)), String(options.har));
    const results = exchanges.map((exchange) => ({ exchange, result: checkExchange(contract, exchange, { strict }) }));
    const failing = results.filter(({ result }) => result.findings.some((finding) => finding.severity === 'error'));
    const unmatched = results.filter(({ result }) => result.operationId === undefined).length;
    if (format === 'json') {
      io.out(JSON.stringify({
        summary: { exchanges: results.length, passed: results.length - failing.length, failed: failing.length - unmatched, unmatched },
        results: results.map(({ exchange, result }) => ({ index: exchange.index, method: exchange.method, url: exchange.url, status: exchange.status, operation: result.operationId ?? null, findings: result.findings })),
      }, null, 2));
    } else {
      for (const { exchange, result } of failing) {
        io.out(`#${exchange.index} ${exchange.method} ${exchange.path} → ${exchange.status}${result.operationId ? `  (${result.operationId})` : ''}`);
        for (const finding of result.findings) io.out(`    ${mark(finding)} ${finding.check}: ${finding.message}`);
      }
      io.out(`${results.length} exchanges: ${results.length - failing.length} conform, ${failing.length - unmatched} fail, ${unmatched} match no operation`);
    }
    return failing.length > 0 ? exitCodes.failed : exitCodes.ok;
  },
};

function resolveSpec(options: ParsedOptions, io: Io): { file: string; display: string } {
  if (options.api !== undefined && options.spec !== undefined) throw new ContractsError('USAGE', 'give --api or --spec, not both');
  if (options.spec !== undefined) return { file: path.resolve(io.cwd, String(options.spec)), display: String(options.spec) };
  if (options.api === undefined) throw new ContractsError('USAGE', `name the spec: --api ${apiNames.join('|')} or --spec FILE`);
  const [entry] = selectApis(String(options.api));
  if (!entry || String(options.api) === 'all') throw new ContractsError('USAGE', '--api takes one API here, not all');
  return { file: specPath(apis[entry.name]), display: apis[entry.name].spec };
}

async function singleExchange(options: ParsedOptions, io: Io): Promise<{ exchange: Exchange; operationId?: string }> {
  const operationId = options.operation as string | undefined;
  const method = options.method as string | undefined;
  const requestPath = options.path as string | undefined;
  if (operationId === undefined && (method === undefined || requestPath === undefined)) {
    throw new ContractsError('USAGE', 'say which response this is: --operation ID, or --method and --path (or check a capture with --har)');
  }
  if (operationId !== undefined && (method !== undefined || requestPath !== undefined)) throw new ContractsError('USAGE', '--operation replaces --method and --path: give one or the other');
  const statusText = options.status as string | undefined;
  if (statusText === undefined || !/^[1-5]\d\d$/.test(statusText)) throw new ContractsError('USAGE', `--status must be an HTTP status code (100-599)${statusText === undefined ? '' : `, not "${statusText}"`}`);
  const headers: Record<string, string> = {};
  for (const header of (options.header as string[] | undefined) ?? []) {
    const colon = header.indexOf(':');
    if (colon <= 0) throw new ContractsError('USAGE', `--header takes "Name: value", not "${header}"`);
    headers[header.slice(0, colon).trim().toLowerCase()] = header.slice(colon + 1).trim();
  }
  const bodySource = options.body as string | undefined;
  const body = bodySource === undefined ? '' : bodySource === '-' ? await readStdin() : await readInput(path.resolve(io.cwd, bodySource), bodySource);
  return {
    exchange: { method: method ?? 'GET', path: requestPath ?? '/', status: Number(statusText), headers, body },
    ...(operationId !== undefined ? { operationId } : {}),
  };
}

async function readInput(file: string, shown: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ContractsError('INPUT_NOT_READABLE', code === 'ENOENT' ? `file not found: ${shown}` : `cannot read ${shown}: ${code ?? (error as Error).message}`);
  }
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function mark(finding: Finding): string {
  return finding.severity === 'error' ? '✗' : '!';
}

function describe(operationId: string | undefined, applied: number, findings: Finding[]): string {
  if (findings.length === 0) return `✓ conforms (${operationId}: ${applied} checks)`;
  return findings.map((finding) => `${mark(finding)} ${finding.check} ${finding.instancePath || '(body)'}: ${finding.message}`).join('\n');
}
