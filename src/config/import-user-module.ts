// Imports a module of the user's project that the config or a command-line option names (the sandbox's hooks, the
// user's checks): JavaScript as it is; TypeScript transpiled by typescript's transpileModule (types erased, no type
// check: that is the user's tsc's job) and the output imported from a hidden file written beside the source, removed
// at once. Beside the source, so the module's own imports (a package, a .js file of its folder) resolve as they would
// from the source; one file, so no loader is registered for the whole process (Node 20 has no TypeScript of its own).
// Every failure, from a syntax error to a missing file, is a ContractsError of one line: the caller names the file.
import { randomBytes } from 'node:crypto';
import { readFile, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ContractsError } from '../core/errors.js';

const typescriptFile = /\.(ts|mts)$/i;
const javascriptFile = /\.(js|mjs|cjs)$/i;

/** The module's namespace; a ContractsError (USAGE) saying why in one line when it cannot be imported. */
export async function importUserModule(file: string): Promise<Record<string, unknown>> {
  if (!typescriptFile.test(file) && !javascriptFile.test(file))
    throw new ContractsError('USAGE', 'a module is a .ts, .mts, .js, .mjs or .cjs file');
  try {
    return (
      typescriptFile.test(file) ? await importTypeScript(file) : await import(pathToFileURL(file).href)
    ) as Record<string, unknown>;
  } catch (error) {
    if (error instanceof ContractsError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    const message = error instanceof Error ? error.message : String(error);
    throw new ContractsError('USAGE', code === 'ENOENT' ? 'no such file' : message.split('\n')[0]!.slice(0, 300));
  }
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
