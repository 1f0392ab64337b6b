// Loads the sandbox's hooks module (`--hooks FILE`, `apis[].sandbox.hooks`): JavaScript is imported as it is;
// TypeScript is transpiled by typescript's transpileModule (types erased, no type check: that is the user's tsc's
// job) and the output imported from a hidden file written beside the source, removed at once. Beside the source, so
// the module's own imports (a package, a .js file of its folder) resolve as they would from the source; one file,
// so no loader is registered for the whole process (Node 20 has no TypeScript of its own). Every failure, from a
// syntax error to an export that is no hooks object, is one line naming the file: a ContractsError, no stack trace.
import { randomBytes } from 'node:crypto';
import { readFile, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ContractsError } from '../../core/errors.js';
import { escapeLine } from '../../core/escape-line.js';
import type { SandboxHooks } from './sandbox-hooks.js';

const typescriptFile = /\.(ts|mts)$/i;
const javascriptFile = /\.(js|mjs|cjs)$/i;

/** The module's hooks, checked against the spec's operationIds; `shown` names the file in messages. */
export async function loadHooks(file: string, shown: string, operationIds: readonly string[]): Promise<SandboxHooks> {
  const fail = (why: string) =>
    new ContractsError('INPUT_NOT_READABLE', `cannot load the sandbox hooks ${escapeLine(shown)}: ${escapeLine(why)}`);
  if (!typescriptFile.test(file) && !javascriptFile.test(file))
    throw fail('a hooks module is a .ts, .mts, .js, .mjs or .cjs file');
  let loaded: Record<string, unknown>;
  try {
    loaded = (
      typescriptFile.test(file) ? await importTypeScript(file) : await import(pathToFileURL(file).href)
    ) as Record<string, unknown>;
  } catch (error) {
    if (error instanceof ContractsError) throw fail(error.message);
    const code = (error as NodeJS.ErrnoException).code;
    const message = error instanceof Error ? error.message : String(error);
    throw fail(code === 'ENOENT' ? 'no such file' : message.split('\n')[0]!.slice(0, 300));
  }
  const hooks = (loaded.default ?? loaded) as unknown;
  const problem = hooksProblem(hooks, operationIds);
  if (problem !== undefined) throw fail(problem);
  return hooks as SandboxHooks;
}

async function importTypeScript(file: string): Promise<unknown> {
  const [source, { default: ts }] = await Promise.all([readFile(file, 'utf8'), import('typescript')]);
  const output = ts.transpileModule(source, {
    fileName: file,
    reportDiagnostics: true,
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, sourceMap: false },
  });
  const diagnostic = output.diagnostics?.[0];
  if (diagnostic) {
    const where = diagnostic.file?.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
    const text = ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ');
    throw new ContractsError('USAGE', where ? `line ${where.line + 1}: ${text}` : text);
  }
  const hidden = path.join(
    path.dirname(file),
    `.${path.basename(file)}.contracts-${process.pid}-${randomBytes(4).toString('hex')}.mjs`,
  );
  await writeFile(hidden, output.outputText, { flag: 'wx' }).catch((error: NodeJS.ErrnoException) => {
    throw new ContractsError('USAGE', `cannot write its JavaScript beside it: ${error.code ?? error.message}`);
  });
  try {
    return await import(pathToFileURL(hidden).href);
  } finally {
    await unlink(hidden).catch(() => undefined);
  }
}

/** Why `hooks` is no hooks object for these operationIds, or undefined. */
export function hooksProblem(hooks: unknown, operationIds: readonly string[]): string | undefined {
  if (hooks === null || typeof hooks !== 'object' || Array.isArray(hooks))
    return 'its default export is no object of hooks by operationId';
  const known = new Set(operationIds);
  for (const [operationId, entry] of Object.entries(hooks)) {
    if (!known.has(operationId))
      return `${JSON.stringify(operationId)} is no operationId of the spec (its operationIds: ${[...known].slice(0, 20).join(', ')})`;
    if (entry === null || typeof entry !== 'object')
      return `${operationId} must be an object of before and after functions`;
    for (const [name, hook] of Object.entries(entry as object)) {
      if (name !== 'before' && name !== 'after')
        return `${operationId}.${name} is no hook: an operation has before and after`;
      if (typeof hook !== 'function') return `${operationId}.${name} must be a function`;
    }
  }
  return undefined;
}
