// `contracts sandbox --spec FILE` / `--api NAME` (an API of the config without a sandbox plug-in): the stateful
// engine of any spec (src/mock/engine/start-stateful.ts), its options read and checked here.
import path from 'node:path';
import { specPath } from '../config/project.js';
import { ContractsError } from '../core/errors.js';
import { escapeLine } from '../core/escape-line.js';
import { seedProject } from '../config/seed-project.js';
import { pluginOf, pluginsOf } from '../plugins/registry.js';
import type { Io, ParsedOptions } from './command.js';
import { untilSignalled } from './parse-args.js';
import { requireMegabytes, requirePort } from './options/values.js';

/** The seed project's APIs the sandbox serves without a spec: those whose plug-in has a sandbox, in its order. */
export function seedSandboxes() {
  return pluginsOf(seedProject.apis.map((api) => api.name)).flatMap((plugin) =>
    plugin.sandbox ? [{ name: plugin.name, sandbox: plugin.sandbox }] : [],
  );
}

/**
 * The options only the sandbox plug-ins take (one with a default is always set, so it cannot be told given), and
 * those only the stateful engine takes.
 */
function pluginOnlyOptions(): string[] {
  return seedSandboxes().flatMap(({ sandbox }) =>
    (sandbox.command?.options ?? []).filter((option) => option.default === undefined).map((option) => option.name),
  );
}
export const statefulOnlyOptions = [
  'data',
  'no-admin',
  'latency',
  'faults',
  'max-items',
  'max-memory',
  'hooks',
  'strict',
  'record',
] as const;

/** The spec file to serve statefully, or undefined for the sandbox of the APIs with a sandbox plug-in. */
export function statefulSpec(options: ParsedOptions, io: Io): string | undefined {
  const api = typeof options.api === 'string' ? options.api : undefined;
  const spec = typeof options.spec === 'string' ? options.spec : undefined;
  if (api !== undefined && spec !== undefined) throw new ContractsError('USAGE', '--api and --spec: give one of them');
  const file =
    spec !== undefined
      ? path.resolve(io.cwd, spec)
      : api !== undefined && pluginOf(api)?.sandbox === undefined
        ? specPath(io.project.api(api))
        : undefined;
  const given = (names: readonly string[]) =>
    names.find((name) => options[name] !== undefined && options[name] !== false);
  const misplaced = file === undefined ? given(statefulOnlyOptions) : given(pluginOnlyOptions());
  if (misplaced !== undefined)
    throw new ContractsError(
      'USAGE',
      file === undefined
        ? `--${misplaced} has no effect without --spec or --api (an API that is not an example API)`
        : `--${misplaced} is for the example APIs' sandbox, not a spec's`,
    );
  return file;
}

/** The hooks module: --hooks FILE (relative to the working folder), else the config API's `sandbox.hooks`. */
function hooksFile(options: ParsedOptions, io: Io): { file: string; shown: string } | undefined {
  if (typeof options.hooks === 'string') return { file: path.resolve(io.cwd, options.hooks), shown: options.hooks };
  const api = typeof options.api === 'string' ? options.api : undefined;
  const entry = api === undefined || !io.project.has(api) ? undefined : io.project.api(api);
  const configured = entry?.sandbox?.hooks;
  if (!entry || configured === undefined) return undefined;
  const file = path.resolve(entry.baseDir, configured);
  return { file, shown: path.relative(io.cwd, file) || file };
}

/** Returns the exit code: 1 when --strict saw an answer the spec's checks refused. */
export async function runStatefulSandbox(file: string, options: ParsedOptions, io: Io): Promise<number> {
  const port = requirePort('port', options.port);
  const latencyMs = options.latency === undefined ? 0 : wholeNumber('latency', options.latency, 0);
  const faults = options.faults === undefined ? 0 : percent(String(options.faults));
  const maxItems = wholeNumber('max-items', options['max-items'] ?? '1000', 1);
  const maxBytes = requireMegabytes(options['max-memory'] ?? '64', 'max-memory');
  const signalled = untilSignalled();
  const [{ loadSpec }, { startStateful }, { loadHooks }, { sandboxObserver }, { indexOperations }] = await Promise.all([
    import('../core/load-spec.js'),
    import('../mock/engine/start-stateful.js'),
    import('../mock/engine/load-hooks.js'),
    import('./sandbox-observe.js'),
    import('../core/operation-index.js'),
  ]);
  const operationIdsOf = (loaded: Awaited<ReturnType<typeof loadSpec>>) =>
    indexOperations(loaded.document).map((operation) => operation.operationId);
  const spec = await loadSpec(file, path.relative(io.cwd, file) || file);
  const hooks = hooksFile(options, io);
  const loaded = hooks && {
    hooks: await loadHooks(hooks.file, hooks.shown, operationIdsOf(spec)),
    source: hooks.shown,
  };
  const data = typeof options.data === 'string' ? path.resolve(io.cwd, options.data) : undefined;
  const observer = await sandboxObserver(
    {
      strict: options.strict === true,
      record: typeof options.record === 'string' ? options.record : undefined,
      inputs: [
        { file, what: 'the spec' },
        ...(hooks ? [{ file: hooks.file, what: 'the hooks module' }] : []),
        ...(data ? [{ file: data, what: 'the seed data' }] : []),
      ],
      spec: spec.document,
    },
    io,
  );
  const sandbox = await startStateful({
    spec,
    port,
    host: String(options.host),
    admin: options['no-admin'] !== true,
    ...(data ? { dataFile: data } : {}),
    ...(loaded ? { hooks: loaded } : {}),
    observe: (exchange) => observer.observe(exchange),
    bounds: { maxItems, maxBytes },
    latencyMs,
    faults,
    warn: (line) => io.err(line),
  });
  observer.listening(sandbox.url);
  const shown = escapeLine(path.relative(io.cwd, file) || file);
  io.out(`Sandbox serving ${shown} statefully at ${sandbox.url}`);
  if (loaded) io.out(`  hooks: ${escapeLine(loaded.source)} (${Object.keys(loaded.hooks).join(', ')})`);
  if (options['no-admin'] !== true)
    io.out(`  reset: curl -X POST ${sandbox.url}/__contracts/reset   state: curl ${sandbox.url}/__contracts/state`);
  io.out('Ctrl-C to stop.');
  await signalled;
  await sandbox.stop();
  io.out('Sandbox stopped.');
  return observer.finish();
}

function wholeNumber(name: string, value: unknown, least: number): number {
  const raw = String(value);
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < least || !Number.isSafeInteger(n))
    throw new ContractsError(
      'USAGE',
      `--${name} must be a whole number of at least ${least}, not "${escapeLine(raw)}"`,
    );
  return n;
}

/** `5%` or `5`: the share of requests answered with a fault, 0 to 100 percent. */
function percent(raw: string): number {
  const match = /^(\d+(?:\.\d+)?)%?$/.exec(raw.trim());
  const n = match ? Number(match[1]) : Number.NaN;
  if (!(n >= 0 && n <= 100))
    throw new ContractsError('USAGE', `--faults must be a percentage from 0% to 100%, not "${escapeLine(raw)}"`);
  return n / 100;
}
