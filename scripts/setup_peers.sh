#!/usr/bin/env bash
# Makes one virtual environment per peer compiler of `fusescope compare` at
# .venv-peers/<compiler>/, with pinned versions. One each because their pins conflict (TVM's
# MetaSchedule needs an older apache-tvm-ffi, torch brings its own numpy range) and because a
# peer's figures must not depend on what another peer installed.
#
# Usage: scripts/setup_peers.sh [COMPILER...]   (ort iree tvm inductor; default: ort iree)
# Also `model-explorer`: not a compiler but the viewer whose loaders the Model Explorer export
# is checked with (scripts/model_explorer_tier.sh), in a venv of its own the same way.
# xla needs nothing here: its adapter runs in .venv (scripts/setup_python.sh); tensorrt needs an
# NVIDIA GPU and is not installed by this script.
# Idempotent: a venv that already imports its pinned versions is left alone. Exits non-zero
# only when an install fails.
set -euo pipefail
cd "$(dirname "$0")/.."

# The pins are what the comparison was measured with (see compare/adapters/README.md).
# apache-tvm-ffi 0.1.15.post2 makes MetaSchedule segfault in TuneContext; 0.1.14.post1 works.
# xgboost is MetaSchedule's default cost model (xgboost-cpu: the plain wheel pulls a 200 MB
# CUDA NCCL); psutil and cloudpickle are its local builder's and runner's.
declare -A pins=(
  [ort]="onnxruntime==1.32.0 onnx==1.23.2 numpy==2.4.6"
  [iree]="iree-base-compiler==3.13.0 iree-base-runtime==3.13.0 onnx==1.23.2 numpy==2.4.6"
  [tvm]="apache-tvm==0.27.0.post1 apache-tvm-ffi==0.1.14.post1 onnx==1.23.2 numpy==2.4.6
         psutil==7.2.2 cloudpickle==3.1.3 xgboost-cpu==3.2.0"
  [inductor]="torch==2.15.0 onnx2torch==1.5.15 onnx==1.23.2 numpy==2.4.6"
  [model-explorer]="ai-edge-model-explorer==0.1.34"
)
# The import that proves a venv is complete, and the version it must report.
declare -A probes=(
  [ort]="import onnxruntime as m; v = m.__version__; want = '1.32.0'"
  [iree]="import iree.compiler, iree.runtime; from importlib.metadata import version as V; v = V('iree-base-runtime'); want = '3.13.0'"
  [tvm]="import tvm, tvm_ffi; from importlib.metadata import version as V; v = V('apache-tvm-ffi'); want = '0.1.14.post1'"
  [inductor]="import torch, onnx2torch; v = torch.__version__.split('+')[0]; want = '2.15.0'"
  [model-explorer]="import model_explorer; from importlib.metadata import version as V; v = V('ai-edge-model-explorer'); want = '0.1.34'"
)

install() {
  local compiler=$1 venv=.venv-peers/$1
  if [[ -z "${pins[$compiler]:-}" ]]; then
    echo "setup_peers: unknown compiler '$compiler' (ort iree tvm inductor model-explorer)" >&2
    return 2
  fi
  if "$venv/bin/python" -c "${probes[$compiler]}; import sys; sys.exit(v != want)" 2>/dev/null; then
    echo "setup_peers: $venv is ready"
    return 0
  fi
  local start=$SECONDS
  python3 -m venv "$venv"
  # One package at a time from the resolver's point of view, no parallel builds: every pin has
  # a wheel, so nothing compiles.
  # shellcheck disable=SC2086  # the pin list is meant to split into words
  "$venv/bin/pip" install --quiet --disable-pip-version-check --only-binary=:all: ${pins[$compiler]}
  echo "setup_peers: $venv installed in $((SECONDS - start)) s ($(du -sh "$venv" | cut -f1)):" \
    "${pins[$compiler]//$'\n'/ }" | tr -s ' '
}

compilers=("$@")
[[ ${#compilers[@]} -gt 0 ]] || compilers=(ort iree)
for compiler in "${compilers[@]}"; do
  install "$compiler"
done
