// A throw-away PostgreSQL cluster for the real-server lane: Debian's server binaries, a data folder of its own in
// the temp folder, loopback only, trust authentication (nothing but this machine reaches 127.0.0.1), no fsync (the
// data dies with the run). PostgreSQL refuses to run as root, so as root every step runs as the `postgres` user
// that Debian's package creates. Every step is bounded in time; stop() always leaves nothing running.
import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A step of the real-server lane could not be done: one line that says which and why. */
export class RealServerUnavailable extends Error {}

export interface Postgres {
  host: string;
  port: number;
  user: string;
  database: string;
  /** Stops the server at once (immediate shutdown) and removes its data; safe to call twice. */
  stop: () => void;
}

const stepTimeoutMs = 60_000;

/** The newest server binaries Debian's postgresql package installed (/usr/lib/postgresql/15/bin…). */
export function postgresBin(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((name) => /^\d+$/.test(name) && existsSync(path.join(root, name, 'bin', 'pg_ctl')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length === 0)
    throw new RealServerUnavailable(
      'no PostgreSQL server here (/usr/lib/postgresql/*/bin/pg_ctl): apt-get install -y postgresql',
    );
  return path.join(root, versions[0]!, 'bin');
}

/** The uid and gid of Debian's `postgres` user, to run the server as when this process is root. */
function postgresUser(): { uid: number; gid: number } {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith('postgres:'));
  const fields = line?.split(':');
  if (!fields || fields.length < 4)
    throw new RealServerUnavailable('running as root and there is no postgres user to run PostgreSQL as');
  return { uid: Number(fields[2]), gid: Number(fields[3]) };
}

function run(bin: string, args: string[], asPostgres: boolean): void {
  const [command, argv] = asPostgres ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
  const result = spawnSync(command, argv, { encoding: 'utf8', timeout: stepTimeoutMs, stdio: 'pipe' });
  if (result.status !== 0) {
    const why = result.error?.message ?? (result.stderr || result.stdout).trim().split('\n').at(-1) ?? '';
    throw new RealServerUnavailable(`${path.basename(bin)} ${args[0] ?? ''} failed: ${why.slice(0, 300)}`);
  }
}

export function startPostgres(port: number): Postgres {
  const bin = postgresBin();
  const asPostgres = process.getuid?.() === 0;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'contracts-real-pg-'));
  if (asPostgres) {
    const { uid, gid } = postgresUser();
    chownSync(dir, uid, gid);
  }
  const data = path.join(dir, 'data');
  const user = 'directus';
  let running = false;
  const stop = () => {
    if (running) {
      running = false;
      spawnSync(
        asPostgres ? 'runuser' : path.join(bin, 'pg_ctl'),
        [
          ...(asPostgres ? ['-u', 'postgres', '--', path.join(bin, 'pg_ctl')] : []),
          ...['stop', '-D', data, '-m', 'immediate', '-w', '-t', '30'],
        ],
        { stdio: 'ignore', timeout: 40_000 },
      );
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    run(path.join(bin, 'initdb'), ['-D', data, '-U', user, '--auth=trust', '-E', 'UTF8', '--no-sync'], asPostgres);
    const settings = `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c fsync=off -c full_page_writes=off`;
    running = true;
    run(
      path.join(bin, 'pg_ctl'),
      ['start', '-D', data, '-l', path.join(dir, 'server.log'), '-o', settings, '-w', '-t', '60'],
      asPostgres,
    );
    run(path.join(bin, 'createdb'), ['-h', '127.0.0.1', '-p', String(port), '-U', user, 'directus'], asPostgres);
  } catch (error) {
    const log = existsSync(path.join(dir, 'server.log')) ? readFileSync(path.join(dir, 'server.log'), 'utf8') : '';
    stop();
    const last = log.trim().split('\n').at(-1);
    throw last ? new RealServerUnavailable(`${(error as Error).message} (server log: ${last.slice(0, 200)})`) : error;
  }
  return { host: '127.0.0.1', port, user, database: 'directus', stop };
}
