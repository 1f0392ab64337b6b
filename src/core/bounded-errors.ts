// Keeps ajv's allErrors validation linear and bounded on hostile bodies. ajv merges the errors of a referenced
// schema with `vErrors = vErrors.concat(ref.errors)`: called once per array item, that copies every error so far,
// so N wrong items cost O(N²) (200,000 took 145 s). Its generated code is rewritten to append in place, and to
// stop once a list holds more errors than any report shows, or once a body has made too many errors overall.

/** Errors one validator may hold before listing stops: far more than a report shows, few enough to count fast. */
export const maxListedErrors = 10_000;
/** Errors one validation may create, including those of alternatives (anyOf, oneOf) later dropped: bounds memory. */
export const maxCreatedErrors = 100_000;

/** Thrown from inside a validator when listing stops; carries the errors of the validator that stopped. */
export class ErrorListStopped extends Error {
  constructor(
    readonly errors: unknown[],
    /** 'listed': one list grew past maxListedErrors; 'created': the validation created more than maxCreatedErrors. */
    readonly reason: 'listed' | 'created',
  ) {
    super(`schema validation stopped: over ${reason === 'listed' ? maxListedErrors : maxCreatedErrors} errors`);
  }
}

/** The counter a validation shares across its generated functions; reset before each top-level call. */
export class ErrorBudget {
  created = 0;
  stop(errors: unknown[] | null, listed: boolean): ErrorListStopped {
    return new ErrorListStopped(errors ?? [], listed ? 'listed' : 'created');
  }
}

/** Where generated code finds the budget: a property of the ajv instance, which ajv passes to it as `self`. */
export const budgetProperty = 'contractsErrorBudget';

const concatSite = /vErrors = vErrors === null \? ([\w$.[\]]+) : vErrors\.concat\(\1\);errors = vErrors\.length;/g;
const addSite = /(?<![\w$])errors\+\+;/g;

/**
 * ajv's `code.process` hook: the generated source with every error merge appending in place, and a stop after
 * each place the error count grows. Throws if a merge it does not recognise is left, so an ajv upgrade that
 * changes the generated code fails loudly (at compile time) instead of going quadratic again.
 */
export function boundErrorCollection(source: string): string {
  const stop = (listedOnly: boolean) =>
    `if(errors > ${maxListedErrors}${listedOnly ? '' : ` || ++self.${budgetProperty}.created > ${maxCreatedErrors}`}){throw self.${budgetProperty}.stop(vErrors, errors > ${maxListedErrors});}`;
  const rewritten = source
    .replace(
      concatSite,
      (_match, from: string) =>
        `if(vErrors === null){vErrors = ${from};}else{const __added = ${from};for(let __k = 0; __k < __added.length; __k++){vErrors.push(__added[__k]);}}errors = vErrors.length;${stop(true)}`,
    )
    .replace(addSite, `errors++;${stop(false)}`);
  if (rewritten.includes('vErrors.concat('))
    throw new Error('bounded-errors: ajv generated an error merge this rewrite does not know');
  return rewritten;
}
