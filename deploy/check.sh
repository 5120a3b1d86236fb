#!/usr/bin/env bash
# Static checks of the container files (no Docker engine runs here): YAML parses, every FOLIO_ variable they
# set is one platform/config.ts knows, and every command they run exists in the build.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 - <<'PY'
import re, sys, yaml, pathlib
known = set(re.findall(r'\b(FOLIO_[A-Z0-9_]+):', pathlib.Path('platform/config.ts').read_text()))
problems = []
for path in ['deploy/compose.yaml', 'deploy/k8s/folio.yaml']:
    text = pathlib.Path(path).read_text()
    list(yaml.safe_load_all(text))
    for name in set(re.findall(r'\b(FOLIO_[A-Z0-9_]+)\b', text)) - known:
        problems.append(f'{path}: {name} is not a configuration variable')
docker = pathlib.Path('deploy/Dockerfile').read_text()
for target in re.findall(r'"(dist/[^"]+)\.js"', docker + pathlib.Path('deploy/compose.yaml').read_text() + pathlib.Path('deploy/k8s/folio.yaml').read_text()):
    source = target.replace('dist/', '', 1) + '.ts'
    if not pathlib.Path(source).exists():
        problems.append(f'{target}.js has no source {source}')
if problems:
    print('\n'.join(problems)); sys.exit(1)
print('deploy/: compose, Kubernetes and Dockerfile checks passed')
PY
