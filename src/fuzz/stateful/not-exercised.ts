// How a check the walk could not exercise is reported: skipped, with the missing precondition and what the user can
// do, so it does not turn a run red by itself; `contracts fuzz --require-all` makes any of them fail the run.
export const notExercisedPrefix = 'not exercised: ';

export function notExercised(reason: string): string {
  return `${notExercisedPrefix}${reason}`;
}

export function isNotExercised(reason: string | undefined): boolean {
  return reason?.startsWith(notExercisedPrefix) === true;
}
