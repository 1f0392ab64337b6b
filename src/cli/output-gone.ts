// Whether standard output's reader has gone away (`contracts validate --har big.har | head -2` closes the pipe).
// run-cli.ts aborts it on EPIPE; a command that streams output stops early instead of checking for no one.

export const outputGone = new AbortController();
