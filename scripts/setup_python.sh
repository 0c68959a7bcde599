#!/usr/bin/env bash
# Makes .venv with the pinned jax/jaxlib the XLA differential test and the fixture generator
# run (tests/data was generated with this version). Idempotent: does nothing when .venv
# already has them.
set -euo pipefail
cd "$(dirname "$0")/.."
pins=(jax==0.10.2 jaxlib==0.10.2 numpy)
if .venv/bin/python -c 'import jax, jaxlib, sys; sys.exit(jax.__version__ != "0.10.2")' 2>/dev/null; then
  echo "setup_python: .venv has jax 0.10.2"
  exit 0
fi
python3 -m venv .venv
.venv/bin/pip install --quiet --disable-pip-version-check "${pins[@]}"
echo "setup_python: .venv ready ($(.venv/bin/python -c 'import jax; print("jax", jax.__version__)'))"
