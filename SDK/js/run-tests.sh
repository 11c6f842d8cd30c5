#!/usr/bin/env bash
# Runs the JavaScript SDK's checks: the node:test suites and the TypeScript
# declaration checks (strict usage with declared modules, loose usage without).
# Works from any directory; exits non-zero when anything fails.
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
status=0

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

echo "== node --test (SDK/js/test)"
if ! node --test "$here/test/"; then
  echo "run-tests.sh: node tests FAILED" >&2
  status=1
fi

for project in "$here/tsconfig.json" "$here/test/types-loose/tsconfig.json"; do
  echo "== tsc --noEmit -p ${project#"$here"/}"
  if ! tsc --noEmit -p "$project"; then
    echo "run-tests.sh: type check FAILED for $project" >&2
    status=1
  fi
done

# The benchmark runs by hand; here it is only checked to parse.
for bench in "$here"/bench/*.mjs; do
  if ! node --check "$bench"; then
    echo "run-tests.sh: $bench does not parse" >&2
    status=1
  fi
done

if [ "$status" -eq 0 ]; then
  echo "SDK/js: all checks passed"
fi
exit "$status"
