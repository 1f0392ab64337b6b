// Whether a config found by looking upwards from the working folder may be used (git's CVE-2022-24765 class): in a
// folder anyone can write to (a shared /srv without the sticky bit, a parent of the checkout), another user can
// plant contracts.config.yaml, and every command run below it would take its APIs, its paths and its credentials.
// A config given with --config or CONTRACTS_CONFIG is the user's choice and is not judged here.
import { lstatSync, statSync } from 'node:fs';
import path from 'node:path';

export interface OwnerAndMode {
  uid: number;
  mode: number;
}

const worldWritable = 0o002;
const sticky = 0o1000;

/**
 * Why a config is not to be used, or undefined: its file (the link and what it leads to) is owned by neither the
 * user nor root, or a folder it was found in or through is writable by anyone without the sticky bit (which would
 * keep others from replacing what the user owns there).
 */
export function untrustedReason(
  files: readonly OwnerAndMode[],
  folders: readonly { path: string; facts: OwnerAndMode }[],
  uid: number,
): string | undefined {
  const owner = files.find((facts) => facts.uid !== uid && facts.uid !== 0);
  if (owner !== undefined) return `it is owned by another user (uid ${owner.uid})`;
  const open = folders.find(({ facts }) => (facts.mode & worldWritable) !== 0 && (facts.mode & sticky) === 0);
  if (open !== undefined) return `${open.path} is writable by anyone (no sticky bit)`;
  return undefined;
}

/**
 * The reason not to use `file`, found while looking up from `from`: the folders judged are the config's own and
 * every one passed through on the way up to it. Undefined where there are no user ids (Windows).
 */
export function foundConfigDistrust(file: string, from: string): string | undefined {
  const uid = process.getuid?.();
  if (uid === undefined) return undefined;
  const facts = (stats: { uid: number; mode: number }): OwnerAndMode => ({ uid: stats.uid, mode: stats.mode });
  const files: OwnerAndMode[] = [];
  try {
    files.push(facts(lstatSync(file)), facts(statSync(file)));
  } catch {
    return undefined; // Gone, or a dangling link: reading it fails in its own words.
  }
  const folders: { path: string; facts: OwnerAndMode }[] = [];
  const top = path.dirname(path.resolve(file));
  for (let dir = path.resolve(from); ; dir = path.dirname(dir)) {
    try {
      folders.push({ path: dir, facts: facts(statSync(dir)) });
    } catch {}
    if (dir === top || path.dirname(dir) === dir) break;
  }
  return untrustedReason(files, folders, uid);
}
