#!/usr/bin/env bash
# Everything needed on a fresh Debian 12 machine (as root): install packages, build, run
# every test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
# The XLA tiers run XLA itself through a pinned jaxlib; the core never needs Python. Where the
# environment can be made, a skipped XLA tier fails the run (scripts/xla_tier.sh); without
# PyPI the tiers are skipped with their reason.
if bash scripts/setup_python.sh; then
  export FUSESCOPE_REQUIRE_XLA=1
else
  echo "test: no jax environment (PyPI unreachable?); the XLA tiers will be skipped"
fi
# The comparison's peers (ONNX Runtime and IREE, each in .venv-peers/NAME): where they can be
# installed, the compare tier must run them (scripts/compare_tier.py).
if bash scripts/setup_peers.sh ort iree; then
  export FUSESCOPE_REQUIRE_PEERS=1
else
  echo "test: the comparison's peers could not be installed; the compare tier will be skipped"
fi
# Model Explorer's own loaders, which check what `export --model-explorer` writes.
if bash scripts/setup_peers.sh model-explorer; then
  export FUSESCOPE_REQUIRE_MODEL_EXPLORER=1
else
  echo "test: ai-edge-model-explorer could not be installed; its round trip will be skipped"
fi
# Ray for the sweeps on a cluster (scripts/ray_tune.py): where it can be installed, the
# tune_ray test (a local cluster, one worker node killed) must run.
if bash scripts/setup_ray.sh; then
  export FUSESCOPE_REQUIRE_RAY=1
else
  echo "test: Ray could not be installed; the Ray sweep test will be skipped"
fi
# The lesson replays opened in headless Chromium (scripts/replay_browser_check.sh): where
# setup.sh installed it, a skipped browser check fails the run.
if command -v chromium-headless-shell >/dev/null 2>&1; then
  export FUSESCOPE_REQUIRE_CHROMIUM=1
else
  echo "test: chromium-headless-shell is not installed; the lesson replays' browser check will be skipped"
fi
bash scripts/build.sh
export QT_QPA_PLATFORM=offscreen
# Compiled kernels are cached in the build folder, not in the user's cache: the unit tests
# turn the cache off (they test the compiler), the scripted tiers share this one.
export FUSESCOPE_KERNEL_CACHE="$PWD/build/kernel-cache.sqlite"
ctest --test-dir build --output-on-failure -j "$(nproc)"
