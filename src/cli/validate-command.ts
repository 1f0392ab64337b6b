// `contracts validate`: checks one recorded response, or every exchange of a HAR capture, against a spec.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { apiNames, apis, selectApis, specPath } from '../apis.js';
import { ContractsError } from '../core/errors.js';
import { decodeBody, type Exchange } from '../core/exchange.js';
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
    { name: 'api', type: 'string', valueName: 'name', description: `The spec of a shipped API: ${apiNames.join(', ')} (with --har also all)` },
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
    const specFiles = resolveSpecs(options, io, options.har !== undefined);
    const [{ loadSpec }, { compileContract }, { checkExchange }, { matchOperation }] = await Promise.all([
      import('../core/load-spec.js'),
      import('../core/compile-contract.js'),
      import('../core/check-exchange.js'),
      import('../core/operation-index.js'),
    ]);
    if (options.har !== undefined) {
      for (const name of ['operation', 'method', 'path', 'status', 'header', 'body']) {
        if (options[name] !== undefined) throw new ContractsError('USAGE', `--har checks whole captures: it does not go with --${name}`);
      }
    }
    const single = options.har === undefined ? await singleExchange(options, io) : undefined;
    const strict = Boolean(options.strict);
    const contracts = await Promise.all(specFiles.map(async (specFile) => compileContract(await loadSpec(specFile.file, specFile.display), { strict })));
    const contract = contracts[0]!;
    // With several specs (--api all), an exchange is checked against the one that has its operation.
    const contractFor = (method: string, requestPath: string) =>
      contracts.length === 1 ? contract : contracts.find((candidate) => matchOperation(candidate.operations, method, requestPath)) ?? contract;

    if (single) {
      if (single.operationId !== undefined && !contract.byOperationId.has(single.operationId)) {
        throw new ContractsError('USAGE', `no operation "${single.operationId}" in ${specFiles[0]!.display}; its operations: ${[...contract.byOperationId.keys()].join(', ')}`);
      }
      const result = checkExchange(contract, single.exchange, { strict, ...(single.operationId ? { operationId: single.operationId } : {}) });
      const failed = result.findings.some((finding) => finding.severity === 'error');
      if (format === 'json') io.out(JSON.stringify({ operation: result.operationId ?? null, applied: result.applied, findings: result.findings }, null, 2));
      else io.out(describe(result.operationId, result.applied.length, result.findings));
      return failed ? exitCodes.failed : exitCodes.ok;
    }

    // Streamed: one exchange at a time is read, checked and reported, so memory does not grow with the capture.
    const { readHar } = await import('../runner/har.js');
    const counts = { exchanges: 0, passed: 0, failed: 0, unmatched: 0 };
    if (format === 'json') io.out('{\n  "results": [');
    for await (const exchange of readHar(path.resolve(io.cwd, String(options.har)), String(options.har))) {
      const result = checkExchange(contractFor(exchange.method, exchange.path), exchange, { strict });
      const failed = result.findings.some((finding) => finding.severity === 'error');
      counts.exchanges++;
      if (result.operationId === undefined) counts.unmatched++;
      else if (failed) counts.failed++;
      else counts.passed++;
      if (format === 'json') {
        const item = { index: exchange.index, method: exchange.method, url: exchange.url, status: exchange.status, operation: result.operationId ?? null, findings: result.findings };
        io.out(`${counts.exchanges > 1 ? ',' : ''}    ${JSON.stringify(item)}`);
      } else if (failed) {
        io.out(`#${exchange.index} ${exchange.method} ${exchange.path} → ${exchange.status}${result.operationId ? `  (${result.operationId})` : ''}`);
        for (const finding of result.findings) io.out(`    ${mark(finding)} ${finding.check}: ${finding.message}`);
      }
    }
    if (format === 'json') io.out(`  ],\n  "summary": ${JSON.stringify(counts)}\n}`);
    else io.out(`${counts.exchanges} exchanges: ${counts.passed} conform, ${counts.failed} fail, ${counts.unmatched} match no operation`);
    return counts.failed + counts.unmatched > 0 ? exitCodes.failed : exitCodes.ok;
  },
};

function resolveSpecs(options: ParsedOptions, io: Io, har: boolean): { file: string; display: string }[] {
  if (options.api !== undefined && options.spec !== undefined) throw new ContractsError('USAGE', 'give --api or --spec, not both');
  if (options.spec !== undefined) return [{ file: path.resolve(io.cwd, String(options.spec)), display: String(options.spec) }];
  if (options.api === undefined) throw new ContractsError('USAGE', `name the spec: --api ${apiNames.join('|')}${har ? '|all' : ''} or --spec FILE`);
  if (String(options.api) === 'all' && !har) throw new ContractsError('USAGE', '--api all only goes with --har: one response belongs to one API');
  return selectApis(String(options.api)).map((entry) => ({ file: specPath(apis[entry.name]), display: apis[entry.name].spec }));
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
  const bytes = bodySource === undefined ? Buffer.alloc(0) : bodySource === '-' ? await readStdin() : await readBytes(path.resolve(io.cwd, bodySource), bodySource);
  const { text: body, notUtf8 } = decodeBody(bytes);
  return {
    exchange: { method: method ?? 'GET', path: requestPath ?? '/', status: Number(statusText), headers, body, ...(notUtf8 ? { bodyNotUtf8: true } : {}) },
    ...(operationId !== undefined ? { operationId } : {}),
  };
}

async function readBytes(file: string, shown: string): Promise<Buffer> {
  try {
    return await readFile(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ContractsError('INPUT_NOT_READABLE', code === 'ENOENT' ? `file not found: ${shown}` : `cannot read ${shown}: ${code ?? (error as Error).message}`);
  }
}

async function readStdin(): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function mark(finding: Finding): string {
  return finding.severity === 'error' ? '✗' : '!';
}

function describe(operationId: string | undefined, applied: number, findings: Finding[]): string {
  if (findings.length === 0) return `✓ conforms (${operationId}: ${applied} checks)`;
  return findings.map((finding) => `${mark(finding)} ${finding.check} ${finding.instancePath || '(body)'}: ${finding.message}`).join('\n');
}
