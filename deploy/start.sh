#!/usr/bin/env bash
# `npm start`: installs dependencies on a fresh checkout, then brings up the development stack.
set -euo pipefail
cd "$(dirname "$0")/.."
# npm install, not npm ci: the lock holds only the platform builds of optional packages this registry serves,
# which npm ci refuses as out of sync; npm install still installs exactly the locked versions.
[ -d node_modules ] || npm install --no-audit --no-fund
# The CLI's bundle, so `npx folio` starts in a fraction of the source's time; built on every start (about a second), so
# it matches the code this start runs. bin/folio.js runs the source instead once a file changes after it.
node --import tsx deploy/build-cli-bundle.ts
exec node --import tsx deploy/dev-stack.ts
