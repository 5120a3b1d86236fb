#!/usr/bin/env bash
# The whole test suite: typecheck, lint, the OpenAPI document, unit tests, then integration tests against real, ephemeral services.
set -euo pipefail
cd "$(dirname "$0")/.."

# npm install, not npm ci: the lock holds only the platform builds of optional packages this registry serves,
# which npm ci refuses as out of sync; npm install still installs exactly the locked versions.
[ -d node_modules ] || npm install --no-audit --no-fund
step() { printf '\n== %s ==\n' "$1"; }
step "typecheck"; npx tsc --noEmit
step "lint"; npx eslint .
step "format"; npx prettier --check . --log-level warn
# Unused files, exports and dependencies (knip.jsonc); a stale line of its configuration fails too.
step "unused code"; npx knip --no-progress --treat-config-hints-as-errors
step "import cycles"; npx dpdm --no-warning --no-tree --exit-code circular:1 'api/**/*.ts' 'domain/**/*.ts' 'activities/**/*.ts' 'workflows/**/*.ts' 'worker/**/*.ts' 'cli/**/*.ts' 'db/**/*.ts' 'platform/**/*.ts'
step "deploy files"; bash deploy/check.sh
step "OpenAPI document"; node --import tsx deploy/lint-openapi.ts
# Redocly's recommended rules and Spectral's spectral:oas on the YAML, offline: no telemetry, no update check; a warning
# fails (openapi/redocly.yaml, openapi/.spectral.yaml; docs/api-reference.md § Linters).
step "OpenAPI document: Redocly (recommended)"
REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true npx redocly lint --config openapi/redocly.yaml openapi/folio.yaml
step "OpenAPI document: Spectral (spectral:oas)"
npx spectral lint --ruleset openapi/.spectral.yaml --fail-severity warn openapi/folio.yaml
step "unit tests"; npx vitest run --project unit
# The admin app's browser tests drive Debian's chromium (Playwright's own download cannot be reached from here).
if ! command -v "${FOLIO_CHROMIUM:-chromium}" >/dev/null 2>&1; then
  step "installing chromium with apt for the admin app's browser tests"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium
fi
step "integration tests (real PostgreSQL, Temporal and MinIO)"; npx vitest run --project integration
# The same API over HTTPS (its own TLS, HTTP/2 and HTTP/1.1, test CA): a subset that crosses every layer (auth, the
# slow-loris guard, simple and chunked uploads, document edits) on a stack of its own (docs/operations.md § HTTPS).
step "integration tests over HTTPS (FOLIO_TEST_TLS=1, a subset)"
FOLIO_TEST_TLS=1 npx vitest run --project integration \
  test/integration/foundation/health.test.ts test/integration/foundation/auth.test.ts test/integration/foundation/http-timeouts.test.ts \
  test/integration/drive/uploads.test.ts test/integration/documents/content.test.ts
# The fault suite (test/faults/, docs/faults.md) at CI size: SIGKILLs of the API and the workers mid-work, restarts of
# Temporal and MinIO, PostgreSQL's connections cut; its invariants checked in the database and the bucket after each.
# FOLIO_FAULTS_SCALE=large runs the larger size on demand.
step "fault suite (seeded; the seed is printed first)"; npx vitest run --project faults
