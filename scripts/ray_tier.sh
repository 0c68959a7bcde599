#!/usr/bin/env bash
# Runs scripts/ray_tune_check.py (sweeps on a local Ray cluster, one node killed) with a Python
# that has Ray, found when the test runs: $FUSESCOPE_RAY_PYTHON, else .venv-ray
# (scripts/setup_ray.sh), else python3. The check exits 77 when Ray is not importable there,
# which ctest reports as a skip with the reason it prints; with FUSESCOPE_REQUIRE_RAY=1
# (scripts/test.sh sets it once it has made .venv-ray) that skip is a failure instead.
#   scripts/ray_tier.sh FUSESCOPE
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
python="${FUSESCOPE_RAY_PYTHON:-}"
if [[ -z "$python" ]]; then
  python=python3
  [[ -x "$root/.venv-ray/bin/python" ]] && python="$root/.venv-ray/bin/python"
fi
exec "$python" "$root/scripts/ray_tune_check.py" "$@"
