#!/usr/bin/env bash
# Static checks of the container files (no Docker engine runs here): YAML parses, every FOLIO_ variable they set is one
# platform/config.ts (or, FOLIO_CLUSTER_*, the Temporal server's configuration) knows, every command they run exists in
# the build, and (deploy/validate-manifests.ts) the Kubernetes manifests and the compose file match their schemas
# strictly, from npm packages, offline.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 - <<'PY'
import re, sys, yaml, pathlib
known = set(re.findall(r'\b(FOLIO_[A-Z0-9_]+):', pathlib.Path('platform/config.ts').read_text()))
# Variables of the compose file itself (interpolated by Compose, never seen by Folio).
known |= {'FOLIO_DOMAIN', 'FOLIO_API_BIND'}
# The Temporal server's: those its configuration reads (deploy/temporal/cluster.yaml, Go templates).
known |= set(re.findall(r'env "(FOLIO_CLUSTER_[A-Z0-9_]+)"', pathlib.Path('deploy/temporal/cluster.yaml').read_text()))
problems = []
manifests = sorted(str(path) for path in pathlib.Path('deploy/k8s').glob('*.yaml'))
for path in ['deploy/compose.yaml', *manifests]:
    text = pathlib.Path(path).read_text()
    list(yaml.safe_load_all(text))
    # A name ending in _ is a prefix in a comment (FOLIO_CLUSTER_*), not a variable.
    for name in set(re.findall(r'\b(FOLIO_[A-Z0-9_]*[A-Z0-9])\b', text)) - known:
        problems.append(f'{path}: {name} is not a configuration variable')
docker = pathlib.Path('deploy/Dockerfile').read_text()
for target in re.findall(r'"(dist/[^"]+)\.js"', docker + ''.join(pathlib.Path(path).read_text() for path in ['deploy/compose.yaml', *manifests])):
    source = target.replace('dist/', '', 1) + '.ts'
    if not pathlib.Path(source).exists():
        problems.append(f'{target}.js has no source {source}')
if problems:
    print('\n'.join(problems)); sys.exit(1)
print('deploy/: compose, Kubernetes and Dockerfile checks passed')
PY
node --import tsx deploy/validate-manifests.ts
