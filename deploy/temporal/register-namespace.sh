#!/bin/sh
# Registers the namespace Folio runs in and Folio's custom search attributes (workflows/registry.ts, all Keyword) in
# the cluster's SQL visibility, as deploy/local/temporal-cluster.ts does for `npm run cluster`: retention 3 days. Run
# in the temporalio/admin-tools image against the frontend (TEMPORAL_ADDRESS) by deploy/k8s/temporal.yaml (the
# temporal-namespace Job) and deploy/compose.yaml (temporal-namespace). Safe to run again: what exists is kept.
set -eu
namespace="${TEMPORAL_NAMESPACE:-default}"
# The frontend answers once history holds its shards; a poll interval, for a deploy that starts everything at once.
until temporal operator cluster health >/dev/null 2>&1; do sleep 2; done
temporal operator namespace describe --namespace "$namespace" >/dev/null 2>&1 ||
  temporal operator namespace create --namespace "$namespace" --retention 72h
# One --type per --name, paired in order (the CLI adds only as many names as it is given types).
temporal operator search-attribute create --namespace "$namespace" \
  --name FolioWorkspaceId --type Keyword \
  --name FolioResourceId --type Keyword \
  --name FolioWebhookDestination --type Keyword \
  --name FolioWebhookEvent --type Keyword \
  --name FolioMailbox --type Keyword \
  --name FolioWebhookOutcome --type Keyword
