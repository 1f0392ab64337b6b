// The spec pairs `contracts diff` compares: two files, or each spec against its version at a git ref.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'yaml';
import type { DiffPolicy } from '../core/diff/diff-policy.js';
import { parseIgnoreEntries } from '../core/diff/diff-policy.js';
import { ContractsError } from '../core/errors.js';
import { loadSpec, loadSpecText, parseSpec, type LoadedSpec } from '../core/load-spec.js';
import { gitRefSource, resolveRef, showAtRef } from './git-show.js';

export interface SpecPair {
  base: LoadedSpec;
  head: LoadedSpec;
}

export const defaultIgnoreFile = '.contracts-diff-ignore.yaml';

export async function filePair(baseFile: string, headFile: string, cwd: string): Promise<SpecPair> {
  const display = (file: string) => path.relative(cwd, path.resolve(cwd, file)) || file;
  return {
    base: await loadSpec(path.resolve(cwd, baseFile), display(baseFile)),
    head: await loadSpec(path.resolve(cwd, headFile), display(headFile)),
  };
}

/** Each file in the working tree against itself at `ref`; a spec that did not exist there is compared with no paths. */
export async function gitPairs(ref: string, files: string[], cwd: string): Promise<SpecPair[]> {
  const at = await resolveRef(ref, cwd);
  const pairs: SpecPair[] = [];
  for (const file of files) {
    const display = path.relative(cwd, file) || file;
    const head = await loadSpec(file, display);
    const source = await showAtRef(at, file);
    const baseName = `${ref}:${path.relative(at.root, file).split(path.sep).join('/')}`;
    const base =
      source === undefined
        ? parseSpec(baseName, 'openapi: 3.1.0\ninfo: { title: none, version: "0" }\npaths: {}\n')
        : await loadSpecText(file, baseName, source, gitRefSource(at));
    pairs.push({ base, head });
  }
  return pairs;
}

/** Reads the ignore file when it exists (the default one may be absent; one named with --ignore-file may not). */
export async function readIgnoreFile(file: string, cwd: string, required: boolean): Promise<DiffPolicy['ignores']> {
  let text: string;
  try {
    text = await readFile(path.resolve(cwd, file), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' && !required) return [];
    throw new ContractsError(
      'INPUT_NOT_READABLE',
      `cannot read ignore file ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
    );
  }
  let parsed: unknown;
  try {
    parsed = parse(text);
  } catch (error) {
    throw new ContractsError(
      'INPUT_NOT_READABLE',
      `${file}: not valid YAML: ${((error as Error).message.split('\n')[0] ?? '').trim()}`,
    );
  }
  return parseIgnoreEntries(file, parsed);
}
