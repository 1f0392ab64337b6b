// Notices when the process that launched a long-running command goes away without signalling it. `npx contracts
// mock` runs us under `npm exec` and `sh -c`: a SIGTERM to npm's process alone kills npm, and the shell between
// keeps our parent pid unchanged, so watching process.ppid is not enough. We watch every ancestor in our own
// process group (the job that started us) and stop when one of them is gone. A parent outside the group (a shell
// that ran `nohup contracts sandbox &`) is not watched, so deliberate detaching still works. Linux only (/proc).
import { readFileSync } from 'node:fs';

interface Ancestor {
  pid: number;
  startTime: string;
}

/** Calls `onGone` once when an ancestor of our process group exits; returns a function that stops watching. */
export function watchLaunchers(onGone: () => void, intervalMs = 500): () => void {
  const ancestors = launchers();
  if (ancestors.length === 0) return () => undefined;
  const timer = setInterval(() => {
    if (ancestors.some((ancestor) => stat(ancestor.pid)?.startTime !== ancestor.startTime)) {
      clearInterval(timer);
      onGone();
    }
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}

function launchers(): Ancestor[] {
  const self = stat(process.pid);
  if (!self) return [];
  const ancestors: Ancestor[] = [];
  let pid = self.ppid;
  while (pid > 1 && ancestors.length < 16) {
    const parent = stat(pid);
    if (!parent || parent.pgrp !== self.pgrp) break;
    ancestors.push({ pid, startTime: parent.startTime });
    pid = parent.ppid;
  }
  return ancestors;
}

/** Fields of /proc/PID/stat (proc(5)); the command name may hold spaces and parentheses, so parse after the last ')'. */
function stat(pid: number): { ppid: number; pgrp: number; startTime: string } | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  // After the name: state(3) ppid(4) pgrp(5) … starttime(22); fields[0] is field 3.
  const state = fields[0];
  if (state === 'Z' || state === 'X') return undefined;
  return { ppid: Number(fields[1]), pgrp: Number(fields[2]), startTime: fields[19] ?? '' };
}
