#!/usr/bin/env bash
# Builds and runs the server benchmark: blobs (ours vs nginx) and catalog (vs authenticated
# hello-world), on SQLite and, when PWAKIT_TEST_POSTGRES_URL is set, on PostgreSQL.
# Needs wrk, nginx and taskset (apt-get install -y wrk nginx util-linux).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
swift build -c release --product ServerBenchmark
exec "$root/.build/release/ServerBenchmark" run "$@"
