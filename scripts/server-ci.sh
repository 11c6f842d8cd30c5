#!/usr/bin/env bash
# Fuzzes the live platform server from Server/openapi.yaml with schemathesis, authenticated as a
# seeded administrator, with stateful links between operations. Fails on any 5xx response.
#
# Usage: scripts/server-ci.sh [--max-examples N]
# Environment: PWAKIT_BINARY (default .build/debug/pwakit), PWAKIT_TEST_POSTGRES_URL (optional:
# fuzz the PostgreSQL engine too), SCHEMATHESIS_MAX_EXAMPLES (default 40).
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
binary="${PWAKIT_BINARY:-$root/.build/debug/pwakit}"
max_examples="${SCHEMATHESIS_MAX_EXAMPLES:-40}"
if [[ "${1:-}" == "--max-examples" ]]; then max_examples="$2"; fi

if [[ ! -x "$binary" ]]; then
    echo "server-ci: building pwakit"
    (cd "$root" && swift build --product pwakit)
fi
if ! command -v schemathesis >/dev/null 2>&1; then
    echo "server-ci: installing schemathesis"
    python3 -m pip install --quiet schemathesis
fi

work="$(mktemp -d)"
server_pid=""
cleanup() {
    if [[ -n "$server_pid" ]] && kill -0 "$server_pid" 2>/dev/null; then
        kill "$server_pid"
        wait "$server_pid" 2>/dev/null || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT

cat > "$work/seed.json" <<'JSON'
{
  "users": [
    {"email": "fuzz-admin@example.com", "password": "fuzz-admin-password", "role": "admin"},
    {"email": "fuzz-user@example.com", "password": "fuzz-user-password"}
  ],
  "apps": [
    {"id": "demo", "name": "Demo", "channels": ["stable", "beta"],
     "credentials": [{"credentialId": "demo-backend", "secret": "demo-backend-secret"}]}
  ]
}
JSON

# fuzz ENGINE [--database-url URL]: starts a server, runs schemathesis, stops the server.
fuzz() {
    local engine="$1"
    shift
    "$binary" server --port 0 --data-dir "$work/data-$engine" --seed "$work/seed.json" --password-cost 16 "$@" \
        > "$work/server-$engine.out" 2> "$work/server-$engine.err" &
    server_pid=$!
    local url=""
    for _ in $(seq 1 300); do
        url="$(grep -o 'http://[0-9.:]*' "$work/server-$engine.out" 2>/dev/null | head -n 1 || true)"
        [[ -n "$url" ]] && break
        kill -0 "$server_pid" 2>/dev/null || { cat "$work/server-$engine.err"; echo "server-ci: server exited"; return 1; }
        sleep 0.1
    done
    [[ -n "$url" ]] || { echo "server-ci: server did not start"; return 1; }
    echo "server-ci: $engine server at $url"

    local token
    token="$(curl -sf -X POST "$url/v1/auth/login" -H 'Content-Type: application/json' \
        -d '{"email":"fuzz-admin@example.com","password":"fuzz-admin-password"}' \
        | python3 -c 'import json,sys; print(json.load(sys.stdin)["accessToken"])')"

    echo "server-ci: schemathesis ($engine): phases examples,coverage,fuzzing,stateful; check not_a_server_error; up to $max_examples cases per operation"
    local status=0
    # NB: run from the scratch directory so schemathesis's cache never lands in the repository.
    (cd "$work" && schemathesis run "$root/Server/openapi.yaml" \
        --url "$url" \
        --header "Authorization: Bearer $token" \
        --checks not_a_server_error \
        --phases examples,coverage,fuzzing,stateful \
        --max-examples "$max_examples" \
        --seed 4242 \
        --generation-database none \
        --no-color \
        --report junit --report-dir "$root/.build/schemathesis-$engine") || status=$?

    if grep -q "internal_error" "$work/server-$engine.err" 2>/dev/null; then
        echo "server-ci: the $engine server logged internal errors:"
        grep "request failed" "$work/server-$engine.err" | head -n 20
        status=1
    fi
    kill "$server_pid"
    wait "$server_pid" 2>/dev/null || true
    server_pid=""
    echo "server-ci: schemathesis ($engine) exit status $status"
    return "$status"
}

overall=0
fuzz sqlite || overall=1
if [[ -n "${PWAKIT_TEST_POSTGRES_URL:-}" ]]; then
    fuzz postgres --database-url "$PWAKIT_TEST_POSTGRES_URL" || overall=1
else
    echo "server-ci: PostgreSQL fuzzing SKIPPED: PWAKIT_TEST_POSTGRES_URL not set"
fi
if [[ "$overall" -ne 0 ]]; then
    echo "server-ci: FAILED"
else
    echo "server-ci: passed (no 5xx responses)"
fi
exit "$overall"
