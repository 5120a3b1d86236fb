#!/usr/bin/env bash
# `npm start`: installs dependencies on a fresh checkout, then brings up the development stack.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -d node_modules ] || npm ci --no-audit --no-fund
exec node --import tsx deploy/dev-stack.ts
