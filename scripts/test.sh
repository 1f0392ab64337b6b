#!/usr/bin/env bash
# The whole suite, as `npm test` runs it: spec lint, generated types in sync, type-check, core coverage, then vitest.
set -euo pipefail
cd "$(dirname "$0")/.."
# The slow lane, one list: GitHub's 13 MB description, the load test, the benchmarks' smoke test, jest and
# Playwright run on the matchers in scratch projects (the package built first), and the hostile
# config, cache and deep-spec suites (every command as a process on each hostile input: four minutes together).
# `npm test` leaves it out; `npm run test:slow` (this script with `slow`) runs only it, and CI runs it after npm test.
slow=(tests/github/ tests/integration/load.test.ts tests/bench/bench-smoke.test.ts tests/matchers/runner-projects.test.ts
  tests/integration/hostile-cache.test.ts tests/integration/hostile-config.test.ts tests/integration/deep-specs.test.ts)
slow_excludes=()
for path in "${slow[@]}"; do
  if [[ $path == */ ]]; then slow_excludes+=(--exclude "${path}**"); else slow_excludes+=(--exclude "$path"); fi
done
if [[ ${1:-} == slow ]]; then exec npx vitest run --typecheck.enabled=false "${slow[@]}"; fi
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
mkdir -p reports
rm -f reports/vitest-core.json reports/vitest.json
step "coverage of src/core by its own tests (thresholds in vitest.config.ts)"
status=0
npm run --silent test:coverage -- --reporter=default --reporter=json --outputFile.json=reports/vitest-core.json || status=$?
step "vitest (the rest: unit, integration, type tests)"
# The core's own tests ran once, with coverage, above: not again here. The slow lane is left out (`npm run test:slow`,
# which CI runs after this: .ci/run).
npx vitest run --exclude 'tests/core/**' --exclude 'tests/diff/**' --exclude 'tests/specs/**' "${slow_excludes[@]}" \
  --reporter=default --reporter=json --outputFile.json=reports/vitest.json || status=$?
# One plain closing line for both runs, whatever the reporters printed above.
node -e '
  const fs = require("fs");
  const runs = ["reports/vitest-core.json", "reports/vitest.json"].filter((f) => fs.existsSync(f)).map((f) => JSON.parse(fs.readFileSync(f, "utf8")));
  const sum = (key) => runs.reduce((total, run) => total + run[key], 0);
  const skipped = sum("numPendingTests") + sum("numTodoTests");
  // A file whose setup failed (a beforeAll that threw) counts its tests as skipped, not failed: name such files.
  const broken = runs.flatMap((run) => run.testResults.filter((file) => file.status === "failed" && file.assertionResults.every((test) => test.status !== "failed")).map((file) => require("path").relative(process.cwd(), file.name)));
  console.log(`tests: ${sum("numPassedTests")} passed, ${sum("numFailedTests")} failed` + (skipped ? `, ${skipped} skipped` : "") + (broken.length ? `; ${broken.length === 1 ? "1 file" : `${broken.length} files`} failed before ${broken.length === 1 ? "its" : "their"} tests ran: ${broken.join(", ")}` : ""));
' || true
exit "$status"
