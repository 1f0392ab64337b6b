#!/usr/bin/env bash
# Schemathesis, side by side with `contracts fuzz`, against one planted-bug service (tests/fixtures/planted/SHAPE):
# all four of its phases (examples, coverage, fuzzing, stateful) and every check, its findings written to OUT_DIR
# (outside the repository: its console output, JUnit and NDJSON reports). Nothing of Schemathesis enters the
# repository: its source is unpacked from a git directory (the search tool's `fetch` of schemathesis/schemathesis)
# into ST_SRC, and it runs with the machine's Python 3.11 (ST_PYTHON; a venv of it that has Schemathesis's
# dependencies). Usage:
#   scripts/side-by-side/schemathesis.sh SHAPE all|none|BUG[,BUG] OUT_DIR [SEED] [MAX_EXAMPLES]
# Exit: Schemathesis's own (0 nothing found, 1 failures found), 2 when this script could not run it.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
usage() { echo "usage: $0 notes|boards|orders all|none|BUG[,BUG] OUT_DIR [SEED] [MAX_EXAMPLES]" >&2; exit 2; }
[[ $# -ge 3 ]] || usage
shape=$1 bugs=$2 out=$3 seed=${4:-1} examples=${5:-50}
service="$root/tests/fixtures/planted/$shape"
[[ -f $service/server.mjs ]] || { echo "no planted service $shape" >&2; exit 2; }
[[ $seed =~ ^[0-9]+$ && $examples =~ ^[0-9]+$ ]] || usage
mkdir -p "$out"
out="$(cd "$out" && pwd)"
case "$out/" in "$root"/*) echo "OUT_DIR must lie outside the repository ($root)" >&2; exit 2 ;; esac
[[ $bugs == none ]] && bugs=''

st_git=${ST_GIT:-/work/.mirror/schemathesis+schemathesis/repo}
st_src=${ST_SRC:-/tmp/schemathesis-src}
python=${ST_PYTHON:-python3.11}
if [[ ! -d $st_src/src/schemathesis ]]; then
  mkdir -p "$st_src"
  # Only src/ and pyproject.toml: the snapshot may lack the blobs of its large test corpora (git names them on
  # stderr and still exits 0).
  git --git-dir "$st_git" archive HEAD src pyproject.toml | tar -x -C "$st_src"
fi
missing=$("$python" - <<'PY'
import importlib.util
names = ["click", "harfile", "hypothesis", "hypothesis_graphql", "jsonschema_rs", "pyrate_limiter", "pytest", "yaml",
         "requests", "rich", "typing_extensions", "werkzeug"]
print(" ".join(name for name in names if importlib.util.find_spec(name) is None))
PY
)
if [[ -n $missing ]]; then echo "$python lacks Schemathesis's dependencies: $missing" >&2; exit 2; fi

# The service, on a free loopback port it prints first; killed when this script ends.
PLANTED_BUGS=$bugs PORT=0 node "$service/server.mjs" >"$out/service.out" 2>"$out/service.err" &
pid=$!
trap 'kill "$pid" 2>/dev/null || true' EXIT
port=''
for _ in $(seq 100); do
  port=$(head -n 1 "$out/service.out" 2>/dev/null || true)
  [[ $port =~ ^[0-9]+$ ]] && break
  kill -0 "$pid" 2>/dev/null || { cat "$out/service.err" >&2; exit 2; }
  sleep 0.1
done
[[ $port =~ ^[0-9]+$ ]] || { echo "planted $shape printed no port in 10 s" >&2; exit 2; }

# The services' credentials (tests/helpers/planted.ts): one bearer token that every secured operation accepts.
headers=()
[[ $shape != boards ]] && headers=(-H "Authorization: Bearer planted-token")
echo "schemathesis on planted $shape (bugs: ${bugs:-none}) at http://127.0.0.1:$port, seed $seed, $examples examples" \
  | tee "$out/run.txt"
set +e
(cd "$st_src/src" && "$python" -m schemathesis.cli run "$service/openapi.yaml" --url "http://127.0.0.1:$port" \
  --checks all --phases examples,coverage,fuzzing,stateful --seed "$seed" --max-examples "$examples" \
  --report junit,ndjson --report-dir "$out" --no-color --workers 1 "${headers[@]}") >"$out/console.txt" 2>&1
status=$?
set -e
tail -n 40 "$out/console.txt"
exit $status
