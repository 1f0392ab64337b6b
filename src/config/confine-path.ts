// The one place a path a config names (an API's spec and generated file, refs.roots) is held to the config's
// project: a config from a pull request must not make a command read or write `../neighbour/…` or `/etc/…`.
import { existsSync, lstatSync, readlinkSync, realpathSync } from 'node:fs';
import path from 'node:path';

/**
 * The folder tree a config's paths must stay in: the git repository the config is in (the nearest folder above it
 * with a `.git`), else the config's own folder. Its real path, symlinks resolved.
 */
export function configBoundary(configDir: string): string {
  const start = realExistingPath(path.resolve(configDir));
  for (let dir = start; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, '.git'))) return dir;
    if (path.dirname(dir) === dir) return start;
  }
}

/**
 * Whether `file` (absolute) lies inside `boundary` (a real path) once every symlink on its way is followed: the
 * file itself when it exists, else its nearest existing ancestor (a file not written yet lands under that).
 */
export function isConfined(file: string, boundary: string): boolean {
  const real = realExistingPath(path.resolve(file));
  return real === boundary || real.startsWith(boundary.endsWith(path.sep) ? boundary : boundary + path.sep);
}

/**
 * Why `value` (a path the config names, relative to `configDir`) is refused, or undefined when it stays inside
 * `boundary`. The reason is one short phrase for a message that names the field.
 */
export function confinementProblem(value: string, configDir: string, boundary: string): string | undefined {
  if (value.includes('\0')) return 'contains a NUL character';
  const file = path.resolve(configDir, value);
  if (isConfined(file, boundary)) return undefined;
  const how = path.isAbsolute(value) ? 'is an absolute path outside' : 'leads outside';
  return `${how} the project (${boundary}): a config names only paths inside its own folder tree or repository`;
}

/**
 * `file` with its nearest existing ancestor replaced by that ancestor's real path (the file's own when it exists).
 * A dangling symlink on the way is followed by hand: what would be created through it lands where it points.
 */
function realExistingPath(file: string, hops = 0): string {
  const rest: string[] = [];
  for (let dir = file; ; dir = path.dirname(dir)) {
    try {
      return path.join(realpathSync(dir), ...rest);
    } catch {
      const link = hops < maxSymlinkHops ? danglingTarget(dir) : undefined;
      if (link !== undefined) return realExistingPath(path.join(link, ...rest), hops + 1);
      if (path.dirname(dir) === dir) return file;
      rest.unshift(path.basename(dir));
    }
  }
}

const maxSymlinkHops = 40;

function danglingTarget(file: string): string | undefined {
  try {
    if (!lstatSync(file).isSymbolicLink()) return undefined;
    return path.resolve(path.dirname(file), readlinkSync(file));
  } catch {
    return undefined;
  }
}
