#!/usr/bin/env bash
# Runs scripts/model_explorer_check.py with a Python that has the ai-edge-model-explorer
# package, found when the test runs: $FUSESCOPE_MODEL_EXPLORER_PYTHON, else $FUSESCOPE_PYTHON,
# else the repository's .venv, else python3. The check exits 77 when the package is not
# importable there, which ctest reports as a skip with the reason it prints.
#   scripts/model_explorer_tier.sh FUSESCOPE [MODEL]
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
python="${FUSESCOPE_MODEL_EXPLORER_PYTHON:-${FUSESCOPE_PYTHON:-}}"
if [[ -z "$python" ]]; then
  if [[ -x "$root/.venv/bin/python" ]]; then python="$root/.venv/bin/python"; else python=python3; fi
fi
exec "$python" "$root/scripts/model_explorer_check.py" "$@"
