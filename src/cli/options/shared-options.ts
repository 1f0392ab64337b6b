// The options several commands take, each defined once: its help line, default and parser. A command composes them
// (withOption changes a help line or a default, never the parser), so the same option means and checks the same thing
// in every command. Schemathesis's cli/options.py and Prism's sharedOptions.ts do the same.
import { httpUrlValue } from '../../core/http-url-value.js';
import { requireChoice, requireMegabytes, requireMilliseconds, requirePort, wholeNumber } from './values.js';
import { text, texts, type TypedOption } from './typed-option.js';

/** --api: one API of the config, or `all` (main.ts refuses a name the config does not list). */
export function apiOption(names: readonly string[]): TypedOption<string> {
  return {
    name: 'api',
    type: 'string',
    valueName: 'name',
    description: `${names.join(', ')} or all`,
    default: 'all',
    parse: (raw) => text(raw) ?? 'all',
  };
}

/** --base-url: the server the run talks to; without it, the command's embedded mock or sandbox. */
export const baseUrlOption: TypedOption<string | undefined> = {
  name: 'base-url',
  type: 'string',
  valueName: 'url',
  description: 'The server to call; without it, the embedded mock of each API',
  parse: (raw) => (typeof raw === 'string' ? httpUrlValue('--base-url', raw, { bare: true }) : undefined),
};

/** Requests wait at most this long for an answer: bounded, so a silent target cannot hold a run for ever. */
export const timeoutOption: TypedOption<number> = {
  name: 'timeout',
  type: 'string',
  valueName: 'ms',
  description: 'Per-request timeout in milliseconds',
  default: '10000',
  parse: (raw) => wholeNumber('timeout', raw, 1, 600_000, ' of milliseconds'),
};

export const strictOption: TypedOption<boolean> = {
  name: 'strict',
  type: 'boolean',
  description: 'Also report response fields the spec does not list',
  parse: (raw) => raw === true,
};

/** The largest body read, in bytes (given in megabytes): memory stays bounded whatever a target sends. */
export const maxBodyOption: TypedOption<number> = {
  name: 'max-body',
  type: 'string',
  valueName: 'MB',
  description: 'Largest response body read; a larger one is reported, not read',
  default: '10',
  parse: (raw) => requireMegabytes(raw),
};

/** --report KIND:FILE, repeatable; each kind's parsing and checks are reports/write-reports.ts's. */
export const reportOption: TypedOption<string[]> = {
  name: 'report',
  type: 'string',
  valueName: 'kind:file',
  multiple: true,
  description: 'Write a report: junit:FILE, json:FILE or html:FILE (one page, offline)',
  parse: texts,
};

/** The port a server of the command listens on; 0 is any free port. */
export function portOption(defaultPort: number): TypedOption<number> {
  return {
    name: 'port',
    type: 'string',
    valueName: 'port',
    description: 'Port to listen on (0: any free port)',
    default: String(defaultPort),
    parse: (raw) => requirePort('port', raw),
  };
}

export const hostOption: TypedOption<string> = {
  name: 'host',
  type: 'string',
  valueName: 'host',
  description: 'Address to listen on',
  default: '127.0.0.1',
  parse: (raw) => text(raw) ?? '127.0.0.1',
};

/** How long a request's head may take to arrive: a slow client cannot hold a connection open for ever. */
export const headTimeoutOption: TypedOption<number> = {
  name: 'head-timeout',
  type: 'string',
  valueName: 'ms',
  description: "How long a request's head may take to arrive, from its first byte; then 408, and closed",
  default: '10000',
  parse: (raw) => requireMilliseconds('head-timeout', raw),
};

/** --format: how the results are printed, one of the command's formats. */
export function formatOption<F extends string>(formats: readonly F[]): TypedOption<F> {
  return {
    name: 'format',
    type: 'string',
    valueName: formats.join('|'),
    description: 'Output format',
    default: formats[0],
    parse: (raw) => requireChoice('format', raw ?? formats[0], formats) as F,
  };
}

export const quietOption: TypedOption<boolean> = {
  name: 'quiet',
  type: 'boolean',
  description: 'No progress line and no notes on standard error; the results and the summary are still printed',
  parse: (raw) => raw === true,
};

/** --config FILE: every command's (main.ts reads the project from it before the command's own options). */
export const configOption: TypedOption<string | undefined> = {
  name: 'config',
  type: 'string',
  valueName: 'file',
  description: 'The config file (default: contracts.config.yaml here or in the nearest folder above)',
  parse: text,
};
