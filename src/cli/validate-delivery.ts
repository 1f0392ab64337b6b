// `contracts validate --delivery`: one recorded webhook delivery (its request headers and raw body) checked against
// an API's `webhooks` under its config's convention (delivery-target.ts), as `contracts receive` checks a live one.
// The secrets come only from the environment.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { deliveryTarget } from './delivery-target.js';
import { ContractsError } from '../core/errors.js';
import type { Finding } from '../core/finding.js';
import { exitCodes, type Io, type ParsedOptions } from './command.js';
import { readCapped } from './validate-command.js';
import { createReadStream } from 'node:fs';
import { ownValue, setOwn } from '../core/own-key.js';
import { text } from './options/typed-option.js';

const maxHeaderBytes = 64 * 1024;

export async function validateDelivery(
  options: ParsedOptions,
  io: Io,
  format: string,
  maxBodyBytes: number,
): Promise<number> {
  for (const name of ['operation', 'method', 'path', 'status', 'header', 'har', 'strict']) {
    if (options[name] !== undefined)
      throw new ContractsError('USAGE', `--delivery checks one webhook delivery: it does not go with --${name}`);
  }
  const headersFile = text(options.headers);
  const bodySource = text(options.body);
  if (headersFile === undefined || bodySource === undefined)
    throw new ContractsError(
      'USAGE',
      "--delivery needs --headers FILE (the delivery's request headers) and --body FILE|- (its raw body)",
    );
  const target = deliveryTarget(options, io);

  const headers = parseHeaders(await readText(path.resolve(io.cwd, headersFile), headersFile), headersFile);
  const read =
    bodySource === '-'
      ? await readCapped(process.stdin, maxBodyBytes, 'standard input')
      : await readCapped(createReadStream(path.resolve(io.cwd, bodySource)), maxBodyBytes, bodySource);
  if (read.tooLarge)
    throw new ContractsError(
      'INPUT_NOT_READABLE',
      `the delivery body is over the ${maxBodyBytes / 2 ** 20} MB limit (--max-body): it was not read`,
    );

  const [{ loadSpec }, { compileDeliveryContract, checkDelivery }] = await Promise.all([
    import('../core/load-spec.js'),
    import('../core/delivery/index.js'),
  ]);
  const contract = compileDeliveryContract(await loadSpec(target.file, target.shown), target.convention);
  if (contract.webhooks.size === 0) throw new ContractsError('USAGE', `${target.shown} documents no webhooks`);
  const result = await checkDelivery(
    contract,
    { method: 'POST', headers, body: read.bytes },
    { secrets: target.secrets },
  );
  const failed = result.findings.some((finding) => finding.severity === 'error');
  if (format === 'json') {
    io.out(
      JSON.stringify(
        {
          operation: result.operation,
          event: result.event ?? null,
          identified: result.identified,
          applied: result.applied,
          findings: result.findings,
          ...(target.notJudged === undefined ? {} : { signatures: `not judged: ${target.notJudged}` }),
        },
        null,
        2,
      ),
    );
  } else {
    if (result.findings.length === 0)
      io.out(`✓ conforms (${result.operation}: ${result.applied.length} checks; ${result.identified})`);
    else
      io.out(
        `${failed ? '✗ does not conform' : '! conforms, with warnings'} (${result.operation}; ${result.identified})`,
      );
    for (const finding of result.findings) io.out(`${mark(finding)} ${finding.check}: ${finding.message}`);
    if (target.notJudged !== undefined && !options.quiet)
      io.err(`contracts validate: ${target.notJudged}: signatures were not judged`);
  }
  return failed ? exitCodes.failed : exitCodes.ok;
}

async function readText(file: string, shown: string): Promise<string> {
  try {
    const text = await readFile(file, 'utf8');
    if (Buffer.byteLength(text) > maxHeaderBytes)
      throw new ContractsError(
        'INPUT_NOT_READABLE',
        `${shown} is over ${maxHeaderBytes / 1024} KB: not a set of headers`,
      );
    return text;
  } catch (error) {
    if (error instanceof ContractsError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new ContractsError(
      'INPUT_NOT_READABLE',
      code === 'ENOENT' ? `file not found: ${shown}` : `cannot read ${shown}: ${code ?? (error as Error).message}`,
    );
  }
}

/**
 * Headers as a JSON object (`{ "X-Service-Event": "ping", … }`) or as HTTP header lines (`Name: value`, what a
 * capture or `curl -D` shows; a request line first is skipped). Names are kept in lower case, as Node gives them.
 */
export function parseHeaders(text: string, shown: string): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  const add = (name: string, value: string) => {
    const key = name.trim().toLowerCase();
    const existing = ownValue(headers, key);
    setOwn(
      headers,
      key,
      existing === undefined ? value : [...(Array.isArray(existing) ? existing : [existing]), value],
    );
  };
  const trimmed = text.trim();
  if (trimmed.startsWith('{')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(trimmed);
    } catch {
      throw new ContractsError(
        'INPUT_NOT_READABLE',
        `${shown}: not valid JSON (give an object of header names to values, or "Name: value" lines)`,
      );
    }
    for (const [name, value] of Object.entries(parsed as Record<string, unknown>)) {
      if (typeof value !== 'string')
        throw new ContractsError(
          'INPUT_NOT_READABLE',
          `${shown}: the value of header "${name.slice(0, 100)}" is not a string`,
        );
      add(name, value);
    }
    return headers;
  }
  const lines = trimmed.split(/\r?\n/).filter((line) => line.trim() !== '');
  lines.forEach((line, index) => {
    if (index === 0 && /^[A-Z]+ \S+ HTTP\/\d/.test(line)) return;
    const colon = line.indexOf(':');
    if (colon <= 0)
      throw new ContractsError('INPUT_NOT_READABLE', `${shown}:${index + 1}: not a "Name: value" header line`);
    add(line.slice(0, colon), line.slice(colon + 1).trim());
  });
  return headers;
}

function mark(finding: Finding): string {
  return finding.severity === 'error' ? '✗' : '!';
}
