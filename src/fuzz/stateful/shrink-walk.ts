// Shrinking of the walk's failures: the shortest trail that still shows the finding. Each step that changed nothing
// is dropped in turn, last first, and the rest sent again against the target by the failure's own script (which
// makes its own instances: a fresh start); a drop that still reproduces (exit 1) is kept, one that does not, or that
// leaves a later step without the id it needs (exit 2), is undone. Only reads (GET, HEAD: safe methods, RFC 9110
// §9.2.1) that are not pages a list rule judges, and refused requests (4xx: not performed, §15.5) are candidates: a
// state change the verdict rests on (the first cancel a conflict repeats, a create at a fixed id the run's target
// still holds) is never dropped on the strength of a target that is not fresh. Deterministic (the same steps, the
// same order) and bounded: at most `maxTries` scripts and `maxRequests` requests per failure.
import type { ApiTarget, Executor, FuzzFailure, SavedSequence } from '../executor.js';
import type { TrailStep } from '../repro-script.js';
import { runScript, sequenceScript } from '../replay-sequence.js';

export interface ShrinkBounds {
  maxTries: number;
  maxRequests: number;
}

export const shrinkBounds: ShrinkBounds = { maxTries: 24, maxRequests: 240 };

/** Per-step deadline of a try (the target answered each step of the run already). */
const stepDeadlineMs = 10_000;

/** The failure with the shortest trail found that still reproduces (itself when none shorter does). */
export async function shrinkFailure(
  executor: Executor,
  target: ApiTarget,
  failure: FuzzFailure & { sequence: SavedSequence },
  bounds: ShrinkBounds = shrinkBounds,
): Promise<FuzzFailure> {
  let steps: TrailStep[] = [...failure.sequence.steps];
  let tries = 0;
  let requests = 0;
  for (let index = steps.length - 2; index >= 0; index--) {
    if (!droppable(steps[index]!)) continue;
    const candidate = steps.filter((_, at) => at !== index);
    if (tries >= bounds.maxTries || requests + candidate.length > bounds.maxRequests || executor.expired) break;
    tries++;
    requests += candidate.length;
    const script = sequenceScript(executor, target, failure, candidate, failure.seed);
    const { code } = await runScript(executor, target, script, candidate.length * stepDeadlineMs);
    if (code === 1) steps = candidate;
  }
  if (steps.length === failure.sequence.steps.length) return failure;
  return {
    ...failure,
    script: sequenceScript(executor, target, failure, steps, failure.seed),
    steps: steps.length,
    sequence: { ...failure.sequence, steps },
  };
}

function droppable(step: TrailStep): boolean {
  const read = (step.request.method === 'GET' || step.request.method === 'HEAD') && step.page === undefined;
  return read || (step.status >= 400 && step.status < 500);
}
