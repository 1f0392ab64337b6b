// The progress line, with a fake terminal stream and a manual clock (the module's own injected dependencies).
import { describe, expect, it } from 'vitest';
import type { Io } from '../../src/cli/command.js';
import { startProgress, type ProgressClock } from '../../src/cli/progress.js';
import { Redactor } from '../../src/reports/redact.js';
import { seedProject } from '../../src/config/seed-project.js';

function fakeClock(): ProgressClock & { advance(ms: number): void } {
  let now = 0;
  const ticks: { ms: number; next: number; tick: () => void }[] = [];
  return {
    now: () => now,
    every(ms, tick) {
      const entry = { ms, next: now + ms, tick };
      ticks.push(entry);
      return () => ticks.splice(ticks.indexOf(entry), 1);
    },
    advance(ms) {
      const until = now + ms;
      for (;;) {
        const due = ticks.filter((entry) => entry.next <= until).sort((a, b) => a.next - b.next)[0];
        if (!due) break;
        now = due.next;
        due.next += due.ms;
        due.tick();
      }
      now = until;
    },
  };
}

function fakeTerminal(isTTY = true, columns = 100) {
  const writes: string[] = [];
  return { isTTY, columns, writes, write: (text: string) => writes.push(text) };
}

const state = { done: 0, findings: 0 };
const base = { label: 'validate', unit: 'exchanges', findings: 'failing', snapshot: () => ({ ...state }) };

describe('the progress line', () => {
  it('shows nothing in the first 2 s, then done, rate and findings, redrawn in place', () => {
    const clock = fakeClock();
    const stream = fakeTerminal();
    const progress = startProgress({ ...base, stream, clock });
    Object.assign(state, { done: 1000, findings: 0 });
    clock.advance(1900);
    expect(stream.writes).toEqual([]);
    Object.assign(state, { done: 4000, findings: 3 });
    clock.advance(100);
    expect(stream.writes).toEqual(['\r\x1b[Kvalidate: 4,000 exchanges · 2,000/s · 3 failing · 2 s']);
    Object.assign(state, { done: 5000, findings: 4 });
    clock.advance(250);
    expect(stream.writes.at(-1)).toBe('\r\x1b[Kvalidate: 5,000 exchanges · 2,222/s · 4 failing · 2 s');
    progress.stop();
    expect(stream.writes.at(-1)).toBe('\r\x1b[K');
    const count = stream.writes.length;
    clock.advance(10_000);
    expect(stream.writes.length).toBe(count);
  });

  it.each([
    ['standard error is not a terminal', { stream: fakeTerminal(false) }],
    ['--quiet', { stream: fakeTerminal(true), quiet: true }],
  ])('writes nothing at all when %s', (_name, given) => {
    const clock = fakeClock();
    const progress = startProgress({ ...base, ...given, clock });
    clock.advance(60_000);
    progress.stop();
    expect(given.stream.writes).toEqual([]);
  });

  it('clears itself before a line of output, and comes back at the next tick', () => {
    const clock = fakeClock();
    const stream = fakeTerminal();
    const written: string[] = [];
    const io: Io = {
      out: (text) => written.push(`out:${stream.writes.at(-1) ?? ''}|${text}`),
      err: (text) => written.push(`err:${text}`),
      cwd: '/',
      env: {},
      redactor: new Redactor(),
      project: seedProject,
    };
    const progress = startProgress({ ...base, stream, clock });
    const wrapped = progress.around(io);
    clock.advance(2000);
    wrapped.out('#3 GET /x → 500');
    // The line was cleared just before the output was written.
    expect(written).toEqual(['out:\r\x1b[K|#3 GET /x → 500']);
    clock.advance(250);
    expect(stream.writes.at(-1)).toMatch(/^\r\x1b\[Kvalidate: /);
    progress.stop();
  });

  it("is cut to the terminal's width, so \\r still reaches its start", () => {
    const clock = fakeClock();
    const stream = fakeTerminal(true, 30);
    const progress = startProgress({ ...base, stream, clock });
    clock.advance(2000);
    expect([...stream.writes[0]!.replace('\r\x1b[K', '')].length).toBe(29);
    progress.stop();
  });
});
