#!/usr/bin/env bash
# Runs scripts/model_explorer_check.py with a Python that has the ai-edge-model-explorer
# package, found when the test runs: $FUSESCOPE_MODEL_EXPLORER_PYTHON, else $FUSESCOPE_PYTHON,
# else .venv-peers/model-explorer (scripts/setup_peers.sh model-explorer), else the repository's
# .venv, else python3. The check exits 77 when the package is not importable there, which
# ctest reports as a skip with the reason it prints; with FUSESCOPE_REQUIRE_MODEL_EXPLORER=1
# (scripts/test.sh sets it once it has made that venv) the skip is a failure instead.
#   scripts/model_explorer_tier.sh FUSESCOPE [MODEL]
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
python="${FUSESCOPE_MODEL_EXPLORER_PYTHON:-${FUSESCOPE_PYTHON:-}}"
if [[ -z "$python" ]]; then
  if [[ -x "$root/.venv-peers/model-explorer/bin/python" ]]; then
    python="$root/.venv-peers/model-explorer/bin/python"
  elif [[ -x "$root/.venv/bin/python" ]]; then
    python="$root/.venv/bin/python"
  else
    python=python3
  fi
fi
"$python" "$root/scripts/model_explorer_check.py" "$@"
status=$?
if [[ $status -eq 77 && "${FUSESCOPE_REQUIRE_MODEL_EXPLORER:-0}" == 1 ]]; then
  echo "FAILED: no model_explorer in $python, but this machine's environment for it was made" \
    "(FUSESCOPE_REQUIRE_MODEL_EXPLORER=1): a skipped tier is not a pass"
  exit 1
fi
exit $status
