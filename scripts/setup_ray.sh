#!/usr/bin/env bash
# Makes .venv-ray with the pinned Ray that spreads `fusescope tune` sweeps over a cluster
# (scripts/ray_tune.py) and that the tune_ray test starts a local cluster with. Plain `ray`,
# not `ray[default]`: the adapter and `ray start` need only the core; the dashboard's extras
# (aiohttp, grpcio, opencensus, ...) would triple the install for nothing used here.
# Idempotent: does nothing when .venv-ray already imports the pinned version. Exits non-zero
# only when the install fails.
#   scripts/setup_ray.sh
set -euo pipefail
cd "$(dirname "$0")/.."
version=2.60.0
venv=.venv-ray
if "$venv/bin/python" -c "import ray, sys; sys.exit(ray.__version__ != '$version')" \
  2>/dev/null; then
  echo "setup_ray: $venv has ray $version"
  exit 0
fi
start=$SECONDS
python3 -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check --only-binary=:all: \
  "ray==$version"
echo "setup_ray: $venv installed in $((SECONDS - start)) s" \
  "($(du -sh "$venv" | cut -f1)): ray==$version"
