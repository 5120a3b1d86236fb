#!/usr/bin/env bash
# `npm start`: installs dependencies on a fresh checkout, then brings up the development stack.
set -euo pipefail
cd "$(dirname "$0")/.."
# npm install, not npm ci: the lock holds only the platform builds of optional packages this registry serves,
# which npm ci refuses as out of sync; npm install still installs exactly the locked versions.
[ -d node_modules ] || npm install --no-audit --no-fund
exec node --import tsx deploy/dev-stack.ts
