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
smtp_pid=""
cleanup() {
    if [[ -n "$server_pid" ]] && kill -0 "$server_pid" 2>/dev/null; then
        kill "$server_pid"
        wait "$server_pid" 2>/dev/null || true
    fi
    if [[ -n "$smtp_pid" ]] && kill -0 "$smtp_pid" 2>/dev/null; then
        kill "$smtp_pid"
        wait "$smtp_pid" 2>/dev/null || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT

# A publisher key and a small mini-app, bundled as 1.0.0 (published before fuzzing, so the
# manifest, latest-release and launch-code success paths exist) and 1.0.1 (the example body
# for publishRelease, so schemathesis reaches its success path too).
"$binary" keys generate --output "$work/publisher-key.json" > "$work/publisher-key.out"
public_key="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["publicKey"])' "$work/publisher-key.out")"
# A second key and credential that the revocation operations' examples name (never the ones in use).
"$binary" keys generate --output "$work/spare-key.json" > "$work/spare-key.out"
spare_public_key="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["publicKey"])' "$work/spare-key.out")"
spare_key_id="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["keyId"])' "$work/spare-key.out")"
mkdir -p "$work/dist"
printf '<!doctype html><title>fuzz</title><script src="app.js"></script>\n' > "$work/dist/index.html"
printf 'console.log("fuzz")\n' > "$work/dist/app.js"

# A local SMTP server that accepts and drops every message, so the sign-in-link endpoint is fuzzed
# with mail configured (without a mailer it answers 503 by design).
if ! python3 -c 'import aiosmtpd' >/dev/null 2>&1; then
    echo "server-ci: installing aiosmtpd"
    python3 -m pip install --quiet aiosmtpd
fi
smtp_port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')"
python3 -m aiosmtpd -n -l "127.0.0.1:$smtp_port" -c aiosmtpd.handlers.Sink > "$work/smtp.out" 2>&1 &
smtp_pid=$!

# [PWAKIT_DATABASE_URL=URL] fuzz ENGINE: seeds, starts a server, publishes, runs schemathesis, stops the server.
fuzz() {
    local engine="$1"
    shift
    # NB: a fresh app id per run: a PostgreSQL database keeps the releases of earlier runs.
    local app="fuzz-$engine-$(date +%s)-$RANDOM"
    local version
    for version in 1.0.0 1.0.1; do
        "$binary" bundle "$work/dist" --app-id "$app" --version "$version" --channel stable --entry index.html \
            --key "$work/publisher-key.json" --output "$work/release-$engine-$version.json" > /dev/null
    done
    cat > "$work/seed-$engine.json" <<JSON
{
  "users": [
    {"email": "fuzz-admin@example.com", "password": "fuzz-admin-password", "role": "admin"},
    {"email": "fuzz-user@example.com", "password": "fuzz-user-password"}
  ],
  "apps": [
    {"id": "$app", "name": "Fuzz", "channels": ["stable", "beta"], "publisherKeys": ["$public_key", "$spare_public_key"],
     "credentials": [{"credentialId": "$app-backend", "secret": "fuzz-backend-secret"},
                     {"credentialId": "$app-spare", "secret": "fuzz-spare-secret-0"}]}
  ]
}
JSON

    "$binary" server --port 0 --data-dir "$work/data-$engine" --seed "$work/seed-$engine.json" --password-cost 16 \
        --smtp-url "smtp://127.0.0.1:$smtp_port" --public-url "http://127.0.0.1" "$@" \
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

    if ! PWAKIT_PASSWORD=fuzz-admin-password "$binary" publish "$work/dist" --release "$work/release-$engine-1.0.0.json" \
        --server "$url" --email fuzz-admin@example.com > "$work/publish-$engine.out" 2> "$work/publish-$engine.err"; then
        tail -n 3 "$work/publish-$engine.err"
        echo "server-ci: publishing the seed release failed"
        return 1
    fi
    sed 's/^/server-ci: /' "$work/publish-$engine.out"

    local token
    token="$(curl -sf -X POST "$url/v1/auth/login" -H 'Content-Type: application/json' \
        -d '{"email":"fuzz-admin@example.com","password":"fuzz-admin-password"}' \
        | python3 -c 'import json,sys; print(json.load(sys.stdin)["accessToken"])' || true)"
    [[ -n "$token" ]] || { echo "server-ci: the seeded administrator could not sign in"; return 1; }

    # The spec as written, plus examples that name this run's app, release and credential.
    python3 "$root/scripts/server-ci-spec.py" "$root/Server/openapi.yaml" "$work/openapi-$engine.json" "$app" \
        "$work/release-$engine-1.0.0.json" "$work/release-$engine-1.0.1.json" fuzz-user@example.com fuzz-user-password \
        "$spare_key_id" "$app-spare"
    # Each operation authenticates the way its `security` says: bearer for users, HTTP Basic
    # (the app's backend credential) for /v1/launch/exchange.
    cat > "$work/schemathesis-$engine.toml" <<TOML
[auth.openapi.bearer]
bearer = "$token"

[auth.openapi.appCredential]
username = "$app-backend"
password = "fuzz-backend-secret"
TOML

    echo "server-ci: schemathesis ($engine): phases examples,coverage,fuzzing,stateful; check not_a_server_error; up to $max_examples cases per operation"
    local status=0
    local reports="$root/.build/schemathesis-$engine"
    rm -rf "$reports"
    # NB: run from the scratch directory so schemathesis's cache never lands in the repository.
    (cd "$work" && schemathesis --config-file "$work/schemathesis-$engine.toml" run "$work/openapi-$engine.json" \
        --url "$url" \
        --checks not_a_server_error \
        --phases examples,coverage,fuzzing,stateful \
        --max-examples "$max_examples" \
        --seed 4242 \
        --generation-database none \
        --no-color \
        --report junit,har --report-dir "$reports") || status=$?

    if grep -q "internal_error" "$work/server-$engine.err" 2>/dev/null; then
        echo "server-ci: the $engine server logged internal errors:"
        grep "request failed" "$work/server-$engine.err" | head -n 20
        status=1
    fi
    kill "$server_pid"
    wait "$server_pid" 2>/dev/null || true
    server_pid=""
    python3 "$root/scripts/server-ci-summary.py" "$root/Server/openapi.yaml" "$reports" "$engine" || true
    echo "server-ci: schemathesis ($engine) exit status $status"
    return "$status"
}

overall=0
fuzz sqlite || overall=1
if [[ -n "${PWAKIT_TEST_POSTGRES_URL:-}" ]]; then
    # NB: a database of its own, dropped afterwards: what one run leaves behind (login failures
    # from this address, apps, releases) must not throttle or collide with the next.
    fuzz_db="pwakit_fuzz_$(date +%s)_$RANDOM"
    if psql "$PWAKIT_TEST_POSTGRES_URL" -qc "CREATE DATABASE $fuzz_db" > /dev/null; then
        # NB: the URL carries a password, so it goes in the environment, never on the command line.
        PWAKIT_DATABASE_URL="${PWAKIT_TEST_POSTGRES_URL%/*}/$fuzz_db" fuzz postgres || overall=1
        psql "$PWAKIT_TEST_POSTGRES_URL" -qc "DROP DATABASE $fuzz_db" > /dev/null \
            || echo "server-ci: could not drop $fuzz_db"
    else
        echo "server-ci: could not create a fuzzing database; using PWAKIT_TEST_POSTGRES_URL as it is"
        PWAKIT_DATABASE_URL="$PWAKIT_TEST_POSTGRES_URL" fuzz postgres || overall=1
    fi
else
    echo "server-ci: PostgreSQL fuzzing SKIPPED: PWAKIT_TEST_POSTGRES_URL not set"
fi
if [[ "$overall" -ne 0 ]]; then
    echo "server-ci: FAILED"
else
    echo "server-ci: passed (no 5xx responses)"
fi
exit "$overall"
