// --spec, the same in every command that takes it (check, mock, validate, receive): `--spec [API=]FILE`,
// repeatable. `API=FILE` gives the API (a name of the config) that file instead of its own; a bare FILE is the
// spec of the one API in play (the one --api chose, or, in validate and receive, simply the file to use).
import path from 'node:path';
import { ContractsError } from '../core/errors.js';
import type { OptionSpec } from './command.js';
import { didYouMean } from './did-you-mean.js';

export function specOption(description: string): OptionSpec {
  return { name: 'spec', type: 'string', valueName: '[api=]file', multiple: true, description };
}

export interface SpecChoice {
  /** The API named before `=`, if any. */
  api: string | undefined;
  /** Absolute path. */
  file: string;
  /** As the user wrote it, for messages. */
  shown: string;
}

/** `API=FILE` (what is before the first `=` has the shape of an API name) or a bare FILE. */
export function splitSpecValue(value: string): { api: string | undefined; file: string } {
  const named = /^([a-z0-9][a-z0-9-]*)=(.*)$/i.exec(value);
  return named ? { api: named[1], file: named[2]! } : { api: undefined, file: value };
}

/** Parses the --spec values: `API=FILE` when what is before the first `=` has the shape of an API name. */
export function parseSpecs(values: unknown, cwd: string, names: readonly string[]): SpecChoice[] {
  const list = values === undefined ? [] : Array.isArray(values) ? (values as string[]) : [String(values)];
  const seen = new Set<string>();
  return list.map((value) => {
    const { api, file } = splitSpecValue(value);
    if (api === undefined) {
      if (value === '') throw new ContractsError('USAGE', '--spec takes [API=]FILE, not an empty value');
      return { api: undefined, file: path.resolve(cwd, value), shown: value };
    }
    if (!names.includes(api)) {
      throw new ContractsError(
        'USAGE',
        `--spec ${value}: no API "${api}".${didYouMean(api, names)} The APIs: ${names.join(', ')}`,
      );
    }
    if (file === '') throw new ContractsError('USAGE', `--spec ${value}: the file is missing (--spec ${api}=FILE)`);
    if (seen.has(api)) throw new ContractsError('USAGE', `--spec names ${api} twice`);
    seen.add(api);
    return { api, file: path.resolve(cwd, file), shown: file };
  });
}

/**
 * The files that replace the specs of the chosen APIs, by API. A bare FILE belongs to the one chosen API; a spec
 * for an API that was not chosen would do nothing, and is an error.
 */
export function specOverrides(
  values: unknown,
  cwd: string,
  chosen: readonly string[],
  names: readonly string[],
): Record<string, string> {
  const overrides: Record<string, string> = {};
  const specs = parseSpecs(values, cwd, names);
  for (const spec of specs) {
    const api = spec.api ?? (chosen.length === 1 ? chosen[0]! : undefined);
    if (api === undefined)
      throw new ContractsError(
        'USAGE',
        `--spec ${spec.shown}: with several APIs, say which one it is for: --spec API=${spec.shown} (API one of ${chosen.join(', ')})`,
      );
    if (!chosen.includes(api))
      throw new ContractsError(
        'USAGE',
        `--spec ${api}=${spec.shown} has no effect: ${api} is not among the APIs of this run (${chosen.join(', ')})`,
      );
    if (overrides[api] !== undefined) throw new ContractsError('USAGE', `--spec names ${api} twice`);
    overrides[api] = spec.file;
  }
  return overrides;
}

/** One spec for commands that take one (validate --delivery, receive): FILE or API=FILE; undefined when none. */
export function singleSpec(values: unknown, cwd: string, names: readonly string[]): SpecChoice | undefined {
  const specs = parseSpecs(values, cwd, names);
  if (specs.length > 1)
    throw new ContractsError('USAGE', 'give one --spec here: the deliveries are checked against one spec');
  return specs[0];
}
