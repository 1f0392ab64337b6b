#!/usr/bin/env bash
# Mutation testing of the core (`npm run test:mutation`; stryker.config.mjs says what it mutates and which tests run).
# Stryker 10 refuses Node 20, so this runs it on Node 22 from the registry's `node` package. Incremental: a rerun
# tests only the mutants whose code or tests changed since reports/mutation/stryker-incremental.json; `--force`
# (passed through to Stryker) tests them all again. The report: reports/mutation/index.html and mutation.json.
set -euo pipefail
cd "$(dirname "$0")/.."
# Stryker's tests run from a copy of the checkout, where ../shared is not beside it.
CONTRACTS_OASDIFF_CORPUS="$(cd .. && pwd)/shared/corpora/oasdiff"
export CONTRACTS_OASDIFF_CORPUS
exec npx --yes --package node@22.23.3 -- node node_modules/@stryker-mutator/core/bin/stryker.js run "$@"
