#!/usr/bin/env bash
# Runs the JavaScript SDK's checks: the node:test suites, the TypeScript
# declaration checks (strict usage with declared modules, loose usage without)
# and a parse check of the benchmark. Works from any directory; the last line is
# "SDK/js: N passed, N failed" and the exit status is non-zero on any failure.
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
passed=0
failed=0

if ! command -v node >/dev/null 2>&1; then
  echo "run-tests.sh: node is not installed" >&2
  exit 1
fi

if ! command -v tsc >/dev/null 2>&1; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "run-tests.sh: installing node-typescript (tsc)"
    apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq node-typescript >/dev/null
  fi
  if ! command -v tsc >/dev/null 2>&1; then
    echo "run-tests.sh: tsc is missing; install Debian's node-typescript (apt-get install node-typescript)" >&2
    exit 1
  fi
fi

echo "== node --test SDK/js/test/"
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
node --test "$here/test/" 2>&1 | tee "$log"
node_status=${PIPESTATUS[0]}
node_pass=$(awk '/^# pass /{print $3}' "$log" | tail -n 1)
node_fail=$(awk '/^# fail /{print $3}' "$log" | tail -n 1)
passed=$((passed + ${node_pass:-0}))
failed=$((failed + ${node_fail:-0}))
if [ "$node_status" -ne 0 ] && [ "${node_fail:-0}" -eq 0 ]; then
  # The runner itself failed (a file that does not load counts here).
  failed=$((failed + 1))
fi

for project in "$here/tsconfig.json" "$here/test/types-loose/tsconfig.json" "$here/test/types-generated/tsconfig.json"; do
  echo "== tsc --noEmit -p ${project#"$here"/}"
  if tsc --noEmit -p "$project"; then
    passed=$((passed + 1))
  else
    echo "run-tests.sh: type check FAILED for $project" >&2
    failed=$((failed + 1))
  fi
done

# The benchmark runs by hand; here it is only checked to parse.
for bench in "$here"/bench/*.mjs; do
  if node --check "$bench"; then
    passed=$((passed + 1))
  else
    echo "run-tests.sh: $bench does not parse" >&2
    failed=$((failed + 1))
  fi
done

echo "SDK/js: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
