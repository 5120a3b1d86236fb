#!/bin/sh
# Creates the Temporal cluster's persistence and visibility databases if missing and brings both to the schema of
# go.temporal.io/server v1.29.1 (its PostgreSQL v12 schemas, built into temporal-sql-tool): what
# deploy/local/temporal-cluster.ts does before `npm run cluster` starts the services. Run in the temporalio/admin-tools
# image by deploy/k8s/temporal.yaml (the temporal-schema Job) and deploy/compose.yaml (temporal-schema), with the
# variables deploy/temporal/cluster.yaml reads. Safe to run again: it applies only newer schema versions.
set -eu
export SQL_PLUGIN=postgres12
export SQL_HOST="${FOLIO_CLUSTER_PG_ADDR%:*}"
export SQL_PORT="${FOLIO_CLUSTER_PG_ADDR##*:}"
export SQL_USER="${FOLIO_CLUSTER_PG_USER}"
export SQL_PASSWORD="${FOLIO_CLUSTER_PG_PASSWORD:-}"
for pair in "${FOLIO_CLUSTER_DB}:temporal" "${FOLIO_CLUSTER_VISIBILITY_DB}:visibility"; do
  database="${pair%:*}"
  schema="${pair##*:}"
  temporal-sql-tool --db "$database" create-database
  # Versioning tables and version 0.0 on a new database; a database already past 0.0 is left as it is.
  temporal-sql-tool --db "$database" setup-schema -v 0.0
  temporal-sql-tool --db "$database" update-schema --schema-name "postgresql/v12/$schema"
done
