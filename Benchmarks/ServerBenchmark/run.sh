#!/usr/bin/env bash
# Builds and runs the server benchmark: blobs (ours vs nginx) and catalog (vs authenticated
# hello-world), on SQLite and, when PWAKIT_TEST_POSTGRES_URL is set, on PostgreSQL (in a database
# of its own, dropped afterwards).
# Needs wrk, nginx and taskset (apt-get install -y wrk nginx util-linux); psql for PostgreSQL.
# Options: --runs N (each pair N times; medians), --duration S, --connections N, --users N,
# --blobs-only. SWIFT_SCRATCH_PATH chooses the build directory (default .build).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
scratch="${SWIFT_SCRATCH_PATH:-$root/.build}"
cd "$root"
swift build -c release --product ServerBenchmark --scratch-path "$scratch"
exec "$scratch/release/ServerBenchmark" run "$@"
