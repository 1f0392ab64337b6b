#!/usr/bin/env bash
# The whole suite, as `npm test` runs it: spec lint, generated types in sync, type-check, core coverage, then vitest.
set -euo pipefail
cd "$(dirname "$0")/.."
# package.json's scarfSettings already turns Spectral's install analytics off; this is belt and braces.
export SCARF_ANALYTICS=false

step() { printf '\n== %s\n' "$1"; }
step "contracts lint (both specs)"
node bin/contracts.js lint
step "contracts generate --check"
node bin/contracts.js generate --check
step "biome check (formatting and lint of the TypeScript)"
npx biome check .
step "tsc --noEmit"
npx tsc -p .
step "coverage of src/core by its own tests (thresholds in vitest.config.ts)"
npm run --silent test:coverage
step "vitest (unit, integration, type tests)"
mkdir -p reports
status=0
npx vitest run --reporter=default --reporter=json --outputFile.json=reports/vitest.json || status=$?
# One plain closing line, whatever the reporter printed above.
node -e '
  const r = JSON.parse(require("fs").readFileSync("reports/vitest.json", "utf8"));
  const skipped = r.numPendingTests + r.numTodoTests;
  console.log(`tests: ${r.numPassedTests} passed, ${r.numFailedTests} failed` + (skipped ? `, ${skipped} skipped` : ""));
' || true
exit "$status"
