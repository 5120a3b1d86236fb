#!/usr/bin/env bash
# The whole test suite: typecheck, lint, unit tests, then integration tests against real, ephemeral services.
set -euo pipefail
cd "$(dirname "$0")/.."

[ -d node_modules ] || npm ci --no-audit --no-fund
step() { printf '\n== %s ==\n' "$1"; }
step "typecheck"; npx tsc --noEmit
step "lint"; npx eslint .
step "deploy files"; bash deploy/check.sh
step "unit tests"; npx vitest run --project unit
step "integration tests (real PostgreSQL, Temporal and MinIO)"; npx vitest run --project integration
