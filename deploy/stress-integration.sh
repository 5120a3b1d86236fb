#!/usr/bin/env bash
# The integration suite on a busy machine: `stress --cpu <cores>` for the whole time, and the suite run <runs> times
# in a row; stops at the first failing run. Tests that force their interleavings pass here as on a quiet machine.
#   bash deploy/stress-integration.sh [runs, default 3] [busy cores, default 2]
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-3}"
cores="${2:-2}"
if ! command -v stress >/dev/null 2>&1; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq stress
fi
[ -d node_modules ] || npm install --no-audit --no-fund
stress --cpu "$cores" >/dev/null 2>&1 &
busy=$!
trap 'kill "$busy" 2>/dev/null' EXIT
for run in $(seq 1 "$runs"); do
  printf '\n== run %s of %s under stress --cpu %s (load %s) ==\n' "$run" "$runs" "$cores" "$(cut -d' ' -f1-3 /proc/loadavg)"
  npx vitest run --project integration
done
printf '\n== %s runs in a row passed under stress --cpu %s ==\n' "$runs" "$cores"
