// The planted-bug services (tests/fixtures/planted/<shape>/): each a real node:http process with its own OpenAPI
// 3.1 spec and config, its bugs switched on by name (PLANTED_BUGS); without bugs, a twin that conforms to its spec.
// The acceptance fixtures of the stateful fuzzing (issue 46) and the stateful mock (issue 47).
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import type { Readable } from 'node:stream';
import { afterAll } from 'vitest';
import { fixture } from './paths.js';

export type PlantedShape = 'notes' | 'boards' | 'orders';
/** Every planted service: the lifecycle shapes, and bookshelf (one bug behind a valid parent id, no lifecycle bug). */
export type PlantedFolder = PlantedShape | 'bookshelf';

export interface PlantedShapeFacts {
  /** The API's name in the shape's contracts.config.yaml. */
  api: string;
  /** Bugs only a lifecycle rule finds (each named after that rule): no single answer shows them. */
  lifecycleBugs: readonly string[];
  /** Bugs one answer shows. */
  singleBugs: readonly string[];
  /** The credentials the service accepts, as the variables its config names (for `contracts fuzz`). */
  env: Readonly<Record<string, string>>;
}

export const plantedShapes: Readonly<Record<PlantedShape, PlantedShapeFacts>> = {
  notes: {
    api: 'notes',
    lifecycleBugs: ['read_after_write', 'paging_consistent', 'ignored_auth'],
    singleBugs: ['wrong_type', 'server_error'],
    env: { CONTRACTS_NOTES_TOKEN: 'planted-token', CONTRACTS_NOTES_KEY: 'planted-key' },
  },
  boards: {
    api: 'boards',
    lifecycleBugs: ['ensure_resource_availability', 'listed_after_create', 'use_after_free'],
    singleBugs: ['undocumented_status', 'server_error'],
    env: {},
  },
  orders: {
    api: 'orders',
    lifecycleBugs: ['conflict_documented', 'read_after_write'],
    singleBugs: ['missing_header', 'server_error'],
    env: { CONTRACTS_ORDERS_TOKEN: 'planted-token' },
  },
};

export interface PlantedService {
  url: string;
  /** The shape's folder: openapi.yaml, server.mjs and contracts.config.yaml (run `contracts` there). */
  dir: string;
  specPath: string;
  configPath: string;
  /** The credentials the service accepts, named as its config names them. */
  env: Readonly<Record<string, string>>;
  stop(): Promise<void>;
}

type Child = ChildProcessByStdio<null, Readable, Readable>;
const running = new Set<Child>();
afterAll(async () => {
  await Promise.all([...running].map(stopChild));
});

function stopChild(child: Child): Promise<void> {
  running.delete(child);
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('close', () => resolve());
    child.kill('SIGKILL');
  });
}

/** Starts a shape's service as its own process (bugs: the names to switch on; none: the twin) within `waitMs`. */
export async function startPlanted(
  shape: PlantedFolder,
  bugs: readonly string[] = [],
  waitMs = 10_000,
): Promise<PlantedService> {
  const dir = fixture('planted', shape);
  const child: Child = spawn(process.execPath, ['server.mjs'], {
    cwd: dir,
    env: { ...process.env, PORT: '0', PLANTED_BUGS: bugs.join(',') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`planted ${shape} did not print its port in ${waitMs} ms`)),
      waitMs,
    );
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const line = /^(\d+)\r?\n/.exec(stdout);
      if (line) {
        clearTimeout(timer);
        resolve(Number(line[1]));
      }
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      reject(new Error(`planted ${shape} exited (${code}): ${stderr}`));
    });
  }).catch(async (error: unknown) => {
    await stopChild(child);
    throw error;
  });
  return {
    url: `http://127.0.0.1:${port}`,
    dir,
    specPath: `${dir}/openapi.yaml`,
    configPath: `${dir}/contracts.config.yaml`,
    env: shape === 'bookshelf' ? {} : plantedShapes[shape].env,
    stop: () => stopChild(child),
  };
}

export interface PlantedAnswer {
  status: number;
  headers: Headers;
  /** The body parsed as JSON (undefined when empty). */
  body: any;
}

/** One request to a planted service: `json` is sent as the body, of media type `type` (default application/json). */
export async function plantedCall(
  base: string,
  method: string,
  path: string,
  options: { json?: unknown; type?: string; headers?: Record<string, string> } = {},
): Promise<PlantedAnswer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.json !== undefined) headers['content-type'] = options.type ?? 'application/json';
  const response = await fetch(base + path, {
    method,
    headers,
    body: options.json === undefined ? undefined : JSON.stringify(options.json),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}
